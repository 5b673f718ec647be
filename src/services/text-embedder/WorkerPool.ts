import type { Worker } from "node:worker_threads"
import { longestOf, withinBudget } from "./Batching.js"

/**
 * A fixed set of embedding threads fed from two FIFO queues, queries before documents.
 * Each thread has at most one call in flight and calls are kept short (see batching.ts),
 * so a query arriving during a bulk catalog push only waits for the first thread to finish
 * its current call. Callback based on purpose: TextEmbedder wraps it in Effect, and fiber
 * interruption maps onto `cancel`.
 */
export type Priority = "query" | "document"

export type BatchResult =
  | { readonly _tag: "Success"; readonly vectors: ReadonlyArray<Float32Array> }
  | { readonly _tag: "Failure"; readonly message: string }

export interface Job {
  readonly texts: ReadonlyArray<string>
  readonly complete: (result: BatchResult) => void
}

interface Slot {
  readonly worker: Worker
  ready: boolean
  inFlight: { readonly id: number; readonly jobs: ReadonlyArray<Job> } | undefined
  lastError: string | undefined
}

type WorkerMessage =
  | { readonly type: "ready" }
  | { readonly id: number; readonly vectors: ReadonlyArray<Float32Array> }
  | { readonly id: number; readonly error: string }

/** A thread that dies while loading after startup is retried after this delay, not in a hot loop. */
const RESPAWN_DELAY_MS = 1_000

export class WorkerPool {
  /** Settles once every initial thread has loaded the model, or fails if one cannot. */
  readonly ready: Promise<void>
  private readonly queues: Record<Priority, Array<Job>> = { query: [], document: [] }
  private readonly slots = new Set<Slot>()
  private readonly respawnTimers = new Set<NodeJS.Timeout>()
  private nextId = 0
  private readyCount = 0
  private started = false
  private closed = false
  private settleReady!: (error?: Error) => void
  private restartCount = 0

  constructor(private readonly threads: number, private readonly spawn: () => Worker) {
    this.ready = new Promise((resolve, reject) => {
      this.settleReady = (error) => (error ? reject(error) : resolve())
    })
    for (let i = 0; i < threads; i++) this.addSlot()
  }

  /** Threads replaced after a crash since the pool started. */
  get restarts(): number {
    return this.restartCount
  }

  get readyWorkers(): number {
    let count = 0
    for (const slot of this.slots) if (slot.ready) count++
    return count
  }

  submit(texts: ReadonlyArray<string>, priority: Priority, complete: Job["complete"]): Job {
    const job: Job = { texts, complete }
    if (this.closed) {
      complete({ _tag: "Failure", message: "text embedder is shut down" })
      return job
    }
    this.queues[priority].push(job)
    this.dispatch()
    return job
  }

  /** Drops a job that has not been sent yet; a job in flight finishes and its result is ignored. */
  cancel(job: Job): void {
    for (const queue of Object.values(this.queues)) {
      const index = queue.indexOf(job)
      if (index >= 0) queue.splice(index, 1)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    for (const timer of this.respawnTimers) clearTimeout(timer)
    const pending = [...this.queues.query, ...this.queues.document]
    for (const slot of this.slots) pending.push(...(slot.inFlight?.jobs ?? []))
    for (const job of pending) job.complete({ _tag: "Failure", message: "text embedder is shut down" })
    await Promise.all([...this.slots].map((slot) => slot.worker.terminate()))
  }

  private addSlot(): void {
    const slot: Slot = { worker: this.spawn(), ready: false, inFlight: undefined, lastError: undefined }
    this.slots.add(slot)
    slot.worker.on("message", (message: WorkerMessage) => this.onMessage(slot, message))
    slot.worker.on("error", (error) => {
      slot.lastError = error.message
    })
    slot.worker.on("exit", (code) => this.onExit(slot, code))
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if ("type" in message) {
      slot.ready = true
      if (!this.started && ++this.readyCount === this.threads) {
        this.started = true
        this.settleReady()
      }
    } else if (slot.inFlight?.id === message.id) {
      const { jobs } = slot.inFlight
      slot.inFlight = undefined
      let offset = 0
      for (const job of jobs) {
        job.complete(
          "error" in message
            ? { _tag: "Failure", message: `embedding failed: ${message.error}` }
            : { _tag: "Success", vectors: message.vectors.slice(offset, (offset += job.texts.length)) }
        )
      }
    }
    this.dispatch()
  }

  private onExit(slot: Slot, code: number): void {
    this.slots.delete(slot)
    if (this.closed) return
    const reason = slot.lastError ?? `exit code ${code}`
    for (const job of slot.inFlight?.jobs ?? []) {
      job.complete({ _tag: "Failure", message: `embedding worker crashed: ${reason}` })
    }
    if (!this.started) return this.settleReady(new Error(`embedding worker failed to load: ${reason}`))
    this.restartCount++
    if (slot.ready) return this.addSlot()
    const timer = setTimeout(() => {
      this.respawnTimers.delete(timer)
      this.addSlot()
    }, RESPAWN_DELAY_MS)
    this.respawnTimers.add(timer)
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.inFlight) continue
      const jobs = this.takeBatch()
      if (jobs.length === 0) return
      const id = this.nextId++
      slot.inFlight = { id, jobs }
      slot.worker.postMessage({ id, texts: jobs.flatMap((job) => job.texts) })
    }
  }

  /** Queries first; queued jobs of one priority share a call while it stays within budget. */
  private takeBatch(): Array<Job> {
    const queue = this.queues.query.length > 0 ? this.queues.query : this.queues.document
    const jobs: Array<Job> = []
    let count = 0
    let longest = 0
    while (queue.length > 0) {
      const next = queue[0]
      const nextLongest = Math.max(longest, longestOf(next.texts))
      if (jobs.length > 0 && !withinBudget(count + next.texts.length, nextLongest)) break
      jobs.push(queue.shift()!)
      count += next.texts.length
      longest = nextLongest
    }
    return jobs
  }
}
