import type { Worker } from "node:worker_threads"
import type { DetectedObject, RgbImage } from "./ImageAnalyzer.js"

/**
 * A fixed set of image-model threads fed from three FIFO queues: shopper queries first, then
 * catalog images (what makes a product visually searchable), then background work (object
 * detection of catalog images, which only refines text search). One image per call (a call is 0.1-0.4 s; batching would only make a query
 * wait longer behind it). Callback based on purpose: ImageAnalyzer wraps it in Effect, and
 * fiber interruption maps onto `cancel`.
 */
export type Priority = "query" | "batch" | "background"

/** What to compute; buffers are transferred, so they must be the pool's own copies. */
export interface ModelRequest {
  /** 224×224 RGB for the feature model and adult classifier. */
  readonly features?: Uint8Array
  readonly detection?: RgbImage
}

export interface ModelReply {
  readonly embedding?: Float32Array
  readonly adult?: number
  readonly objects?: ReadonlyArray<DetectedObject>
}

export type JobResult =
  | { readonly _tag: "Success"; readonly reply: ModelReply }
  | { readonly _tag: "Failure"; readonly message: string }

export interface Job {
  readonly request: ModelRequest
  readonly complete: (result: JobResult) => void
}

/** Milliseconds one thread took to load each model and warm up. */
export interface LoadTimes {
  readonly features: number
  readonly detector: number
  readonly total: number
}

interface Slot {
  readonly worker: Worker
  ready: boolean
  inFlight: { readonly id: number; readonly job: Job } | undefined
  lastError: string | undefined
}

type WorkerMessage =
  | { readonly type: "ready"; readonly loadMs: LoadTimes }
  | ({ readonly id: number } & ModelReply)
  | { readonly id: number; readonly error: string }

/** A thread that dies while loading after startup is retried after this delay, not in a hot loop. */
const RESPAWN_DELAY_MS = 1_000

export class WorkerPool {
  /** Settles once every initial thread has loaded both models, or fails if one cannot. */
  readonly ready: Promise<void>
  private readonly queues: Record<Priority, Array<Job>> = { query: [], batch: [], background: [] }
  private readonly slots = new Set<Slot>()
  private readonly respawnTimers = new Set<NodeJS.Timeout>()
  private nextId = 0
  private readyCount = 0
  private started = false
  private closed = false
  private settleReady!: (error?: Error) => void
  private restartCount = 0
  private lastLoadTimes: LoadTimes | undefined

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

  /** How long the most recently started thread took to get ready. */
  get lastLoad(): LoadTimes | undefined {
    return this.lastLoadTimes
  }

  get readyWorkers(): number {
    return [...this.slots].filter((slot) => slot.ready).length
  }

  submit(request: ModelRequest, priority: Priority, complete: Job["complete"]): Job {
    const job: Job = { request, complete }
    if (this.closed) {
      complete({ _tag: "Failure", message: "image analyzer is shut down" })
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
    const pending = [...this.queues.query, ...this.queues.batch, ...this.queues.background]
    for (const slot of this.slots) if (slot.inFlight) pending.push(slot.inFlight.job)
    for (const job of pending) job.complete({ _tag: "Failure", message: "image analyzer is shut down" })
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
      this.lastLoadTimes = message.loadMs
      if (!this.started && ++this.readyCount === this.threads) {
        this.started = true
        this.settleReady()
      }
    } else if (slot.inFlight?.id === message.id) {
      const { job } = slot.inFlight
      slot.inFlight = undefined
      job.complete(
        "error" in message
          ? { _tag: "Failure", message: `image analysis failed: ${message.error}` }
          : { _tag: "Success", reply: message }
      )
    }
    this.dispatch()
  }

  private onExit(slot: Slot, code: number): void {
    this.slots.delete(slot)
    if (this.closed) return
    const reason = slot.lastError ?? `exit code ${code}`
    slot.inFlight?.job.complete({ _tag: "Failure", message: `image worker crashed: ${reason}` })
    if (!this.started) return this.settleReady(new Error(`image worker failed to load: ${reason}`))
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
      const job = this.queues.query.shift() ?? this.queues.batch.shift() ?? this.queues.background.shift()
      if (job === undefined) return
      const id = this.nextId++
      slot.inFlight = { id, job }
      const { features, detection } = job.request
      const transfer = [features?.buffer, detection?.data.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer)
      slot.worker.postMessage({ id, features, detection }, transfer)
    }
  }
}
