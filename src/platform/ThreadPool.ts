import type { Worker } from "node:worker_threads"

/**
 * A fixed set of model threads fed from FIFO queues, one per priority, served in order: a
 * thread that comes free takes the next call from the first queue that has work. Each thread
 * has at most one call in flight, so high-priority work waits for at most the call a thread is
 * running. Callback based on purpose: the services wrap it in Effect, and fiber interruption
 * maps onto `cancel`.
 *
 * The thread protocol: a thread posts `{ type: "ready", ... }` once it has loaded its model,
 * then answers each `{ id, ...request }` with `{ id, ...reply }` or `{ id, error }`.
 */
export type Outcome<O> =
  | { readonly _tag: "Success"; readonly reply: O }
  | { readonly _tag: "Failure"; readonly message: string }

export interface Job<I, O> {
  readonly input: I
  readonly complete: (outcome: Outcome<O>) => void
}

/** A thread's `ready` message, with whatever else it reports (e.g. load times). */
export type ReadyMessage = { readonly type: "ready" } & Record<string, unknown>

export interface ThreadPoolOptions<P extends string, I, O, R> {
  readonly threads: number
  readonly spawn: () => Worker
  /** The queues, first served first. */
  readonly priorities: ReadonlyArray<P>
  /** Names in failures: "<service> is shut down", "<work> failed: …", "<thread> crashed: …". */
  readonly names: { readonly service: string; readonly work: string; readonly thread: string }
  /**
   * How many jobs, from the head of a queue, share one call (at least one is sent); default 1.
   * The queue is read lazily, so a long one costs only the part that is read.
   */
  readonly take?: (queue: Iterable<I>, priority: P) => number
  /**
   * The most threads that may run calls of `priority` at once (default: all of them), asked
   * each time a thread comes free: a lower share keeps threads for the other priorities.
   */
  readonly share?: (priority: P, threads: number) => number
  /** The message for one call of these inputs, and the buffers handed over with it. */
  readonly request: (inputs: ReadonlyArray<I>) => {
    readonly message: object
    readonly transfer?: ReadonlyArray<ArrayBuffer>
  }
  /** Each input's share of a thread's reply to their call, in order. */
  readonly replies: (reply: R, inputs: ReadonlyArray<I>) => ReadonlyArray<O>
}

interface Slot<P, I, O> {
  readonly worker: Worker
  ready: boolean
  inFlight: { readonly id: number; readonly priority: P; readonly jobs: ReadonlyArray<Job<I, O>> } | undefined
  lastError: string | undefined
  /** Called once the call in flight has ended (its reply came, or the thread exited). */
  callEnded?: () => void
}

/** How long closing waits for a thread's call in flight to end before terminating it anyway. */
const CLOSE_GRACE_MS = 10_000

type WorkerMessage<R> = ReadyMessage | ({ readonly id: number } & R) | { readonly id: number; readonly error: string }

function* inputsOf<I, O>(jobs: ReadonlyArray<Job<I, O>>): Iterable<I> {
  for (const job of jobs) yield job.input
}

/** A thread that dies while loading after startup is retried after this delay, not in a hot loop. */
const RESPAWN_DELAY_MS = 1_000

export class ThreadPool<P extends string, I, O, R = unknown> {
  /** Settles once every initial thread is ready, or fails if one cannot load. */
  readonly ready: Promise<void>
  private readonly queues = new Map<P, Array<Job<I, O>>>()
  private readonly slots = new Set<Slot<P, I, O>>()
  private readonly respawnTimers = new Set<NodeJS.Timeout>()
  private nextId = 0
  private readyCount = 0
  private started = false
  private closed = false
  private settleReady!: (error?: Error) => void
  private restartCount = 0
  private lastReadyMessage: ReadyMessage | undefined

  constructor(private readonly options: ThreadPoolOptions<P, I, O, R>) {
    for (const priority of options.priorities) this.queues.set(priority, [])
    this.ready = new Promise((resolve, reject) => {
      this.settleReady = (error) => (error ? reject(error) : resolve())
    })
    for (let i = 0; i < options.threads; i++) this.addSlot()
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

  /** What the most recently started thread said when it became ready. */
  get lastReady(): ReadyMessage | undefined {
    return this.lastReadyMessage
  }

  /** Buffers handed over with the request must be the caller's own: they leave this thread. */
  submit(input: I, priority: P, complete: Job<I, O>["complete"]): Job<I, O> {
    const job: Job<I, O> = { input, complete }
    if (this.closed) {
      complete({ _tag: "Failure", message: `${this.options.names.service} is shut down` })
      return job
    }
    this.queues.get(priority)!.push(job)
    this.dispatch()
    return job
  }

  /** Drops a job that has not been sent yet; a job in flight finishes and its result is ignored. */
  cancel(job: Job<I, O>): void {
    for (const queue of this.queues.values()) {
      const index = queue.indexOf(job)
      if (index >= 0) queue.splice(index, 1)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    for (const timer of this.respawnTimers) clearTimeout(timer)
    const pending = [...this.queues.values()].flat()
    for (const queue of this.queues.values()) queue.length = 0
    for (const slot of this.slots) pending.push(...(slot.inFlight?.jobs ?? []))
    for (const job of pending) job.complete({ _tag: "Failure", message: `${this.options.names.service} is shut down` })
    // A thread inside a native call (an onnxruntime run) finishes it first: terminated in the
    // middle of one, it aborts the whole process ("terminate called after throwing an instance
    // of 'Napi::Error'"), so a SIGTERM during a catalog push would end in SIGABRT.
    await Promise.all(
      [...this.slots].map(async (slot) => {
        if (slot.inFlight !== undefined) {
          slot.inFlight = { ...slot.inFlight, jobs: [] }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, CLOSE_GRACE_MS)
            slot.callEnded = () => {
              clearTimeout(timer)
              resolve()
            }
          })
        }
        await slot.worker.terminate()
      })
    )
  }

  private addSlot(): void {
    const slot: Slot<P, I, O> = {
      worker: this.options.spawn(),
      ready: false,
      inFlight: undefined,
      lastError: undefined
    }
    this.slots.add(slot)
    slot.worker.on("message", (message: WorkerMessage<R>) => this.onMessage(slot, message))
    slot.worker.on("error", (error) => {
      slot.lastError = error.message
    })
    slot.worker.on("exit", (code) => this.onExit(slot, code))
  }

  private onMessage(slot: Slot<P, I, O>, message: WorkerMessage<R>): void {
    if ("type" in message) {
      slot.ready = true
      this.lastReadyMessage = message
      if (!this.started && ++this.readyCount === this.options.threads) {
        this.started = true
        this.settleReady()
      }
    } else if (slot.inFlight?.id === message.id) {
      const { jobs } = slot.inFlight
      slot.inFlight = undefined
      slot.callEnded?.()
      if ("error" in message) {
        const failure = { _tag: "Failure", message: `${this.options.names.work} failed: ${message.error}` } as const
        for (const job of jobs) job.complete(failure)
      } else {
        const replies = this.options.replies(
          message,
          jobs.map((job) => job.input)
        )
        jobs.forEach((job, i) => job.complete({ _tag: "Success", reply: replies[i] }))
      }
    }
    this.dispatch()
  }

  private onExit(slot: Slot<P, I, O>, code: number): void {
    this.slots.delete(slot)
    slot.callEnded?.()
    if (this.closed) return
    const reason = slot.lastError ?? `exit code ${code}`
    const { thread } = this.options.names
    for (const job of slot.inFlight?.jobs ?? [])
      job.complete({ _tag: "Failure", message: `${thread} crashed: ${reason}` })
    if (!this.started) return this.settleReady(new Error(`${thread} failed to load: ${reason}`))
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
      const call = this.takeCall()
      if (call === undefined) return
      const { priority, jobs } = call
      const id = this.nextId++
      slot.inFlight = { id, priority, jobs }
      const { message, transfer } = this.options.request(jobs.map((job) => job.input))
      slot.worker.postMessage({ ...message, id }, transfer ? [...transfer] : undefined)
    }
  }

  /**
   * The jobs of the next call: from the first queue with work whose priority has a thread to
   * spare (see `share`), as many as `take` packs.
   */
  private takeCall(): { readonly priority: P; readonly jobs: Array<Job<I, O>> } | undefined {
    for (const [priority, queue] of this.queues) {
      if (queue.length === 0) continue
      if (this.options.share !== undefined && this.running(priority) >= this.options.share(priority, this.slots.size))
        continue
      const count = this.options.take?.(inputsOf(queue), priority) ?? 1
      return { priority, jobs: queue.splice(0, Math.max(1, count)) }
    }
    return undefined
  }

  private running(priority: P): number {
    let count = 0
    for (const slot of this.slots) if (slot.inFlight?.priority === priority) count++
    return count
  }
}
