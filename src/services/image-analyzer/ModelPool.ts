import { Worker } from "node:worker_threads"

export interface ModelRequest {
  readonly width: number
  readonly height: number
  readonly data: Uint8Array
  readonly embed: boolean
  readonly detect: boolean
}
export type ModelResult = { readonly embedding?: Float32Array; readonly adult?: number; readonly objects?: ReadonlyArray<any> }

interface Pending {
  readonly request: ModelRequest
  readonly resolve: (result: ModelResult) => void
  readonly reject: (error: Error) => void
}
interface Slot {
  worker: Worker
  busy: Pending | undefined
  ready: boolean
}

/**
 * Image-model threads, one request in flight each, fed from two queues: visual-search queries
 * before catalog image jobs. A crashed thread fails its request and is replaced.
 */
export class ModelPool {
  readonly ready: Promise<void>
  private readonly queues: { query: Array<Pending>; batch: Array<Pending> } = { query: [], batch: [] }
  private readonly slots: Array<Slot> = []
  private nextId = 0
  private readonly ids = new Map<Slot, number>()
  private closed = false
  private readyCount = 0
  private settle!: (error?: Error) => void

  constructor(threads: number, private readonly spawn: () => Worker) {
    this.ready = new Promise((resolve, reject) => (this.settle = (e) => (e ? reject(e) : resolve())))
    for (let i = 0; i < threads; i++) this.slots.push(this.start())
  }

  run(request: ModelRequest, priority: "query" | "batch"): Promise<ModelResult> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error("image analyser closed"))
      this.queues[priority].push({ request, resolve, reject })
      this.dispatch()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    for (const p of [...this.queues.query, ...this.queues.batch]) p.reject(new Error("image analyser closed"))
    await Promise.all(this.slots.map((s) => s.worker.terminate()))
  }

  private start(): Slot {
    const slot: Slot = { worker: this.spawn(), busy: undefined, ready: false }
    slot.worker.on("message", (msg: any) => {
      if (msg.type === "ready") {
        slot.ready = true
        if (++this.readyCount === this.slots.length) this.settle()
        return this.dispatch()
      }
      if (msg.type === "failed") return this.settle(new Error(`image models failed to load: ${msg.error}`))
      const pending = slot.busy
      slot.busy = undefined
      if (pending) msg.error ? pending.reject(new Error(msg.error)) : pending.resolve(msg.result)
      this.dispatch()
    })
    slot.worker.on("error", (error) => this.crashed(slot, error))
    slot.worker.on("exit", (code) => { if (!this.closed) this.crashed(slot, new Error(`image model thread exited with code ${code}`)) })
    return slot
  }

  private crashed(slot: Slot, error: Error) {
    if (this.closed) return
    slot.busy?.reject(error)
    slot.busy = undefined
    const index = this.slots.indexOf(slot)
    if (index < 0) return
    if (!slot.ready) return this.settle(error)
    void slot.worker.terminate()
    this.readyCount--
    this.slots[index] = this.start()
  }

  private dispatch() {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue
      const next = this.queues.query.shift() ?? this.queues.batch.shift()
      if (!next) return
      slot.busy = next
      const id = this.nextId++
      this.ids.set(slot, id)
      // A copy is transferred so the caller's buffer stays usable.
      const data = Uint8Array.from(next.request.data)
      slot.worker.postMessage({ id, ...next.request, data }, [data.buffer])
    }
  }
}
