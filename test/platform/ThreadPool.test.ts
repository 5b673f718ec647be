import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Worker } from "node:worker_threads"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type Outcome, ThreadPool } from "../../src/platform/ThreadPool.js"

/**
 * A thread without a model: ready at once, it multiplies each value by 10 and numbers its
 * calls. A value of -1 kills the thread mid-call, -2 makes it report an error, -3 holds the
 * call for 100 ms while counting the calls held at once (current, most) in `shared`; `bytes`
 * are summed. `failLoad` in its workerData makes it fail while loading.
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads")
if (workerData.failLoad) throw new Error(workerData.failLoad)
let calls = 0
parentPort.on("message", ({ id, values, bytes }) => {
  calls++
  if (bytes) return parentPort.postMessage({ id, call: calls, results: [bytes.reduce((a, b) => a + b, 0)] })
  if (values.includes(-1)) process.exit(7)
  if (values.includes(-2)) return parentPort.postMessage({ id, error: "negative input" })
  if (values.includes(-3)) {
    const held = new Int32Array(workerData.shared)
    const now = Atomics.add(held, 0, 1) + 1
    if (now > Atomics.load(held, 1)) Atomics.store(held, 1, now)
    Atomics.wait(held, 2, 0, 100)
    Atomics.sub(held, 0, 1)
  }
  parentPort.postMessage({ id, call: calls, results: values.map((v) => v * 10) })
})
parentPort.postMessage({ type: "ready", loadMs: 3 })
`

type Input = ReadonlyArray<number> | Uint8Array
interface Reply {
  readonly call: number
  readonly results: ReadonlyArray<number>
}
type Result = Reply

let dir: string
let script: string
const pools: Array<ThreadPool<"high" | "low", Input, Result, Reply>> = []

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "thread-pool-"))
  script = path.join(dir, "worker.cjs")
  fs.writeFileSync(script, WORKER)
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
})

type Share = (priority: "high" | "low", threads: number) => number

/** Threads of WORKER; the spawns numbered in `failing` (from 1) fail to load. */
const makePool = (threads: number, failing: ReadonlyArray<number> = [], share?: Share, shared?: SharedArrayBuffer) => {
  const spawned: Array<Worker> = []
  const pool = new ThreadPool<"high" | "low", Input, Result, Reply>({
    threads,
    spawn: () => {
      const failLoad = failing.includes(spawned.length + 1) ? "no model here" : undefined
      const worker = new Worker(script, { execArgv: [], workerData: { failLoad, shared } })
      spawned.push(worker)
      return worker
    },
    priorities: ["high", "low"],
    names: { service: "test service", work: "test work", thread: "test thread" },
    ...(share === undefined ? {} : { share }),
    // Queued arrays share a call up to 4 values.
    take: (queue) => {
      let jobs = 0
      let values = 0
      for (const input of queue) {
        if (input instanceof Uint8Array || (jobs > 0 && values + input.length > 4)) break
        jobs++
        values += input.length
      }
      return jobs
    },
    request: (inputs) => {
      const [first] = inputs
      return first instanceof Uint8Array
        ? { message: { bytes: first }, transfer: [first.buffer as ArrayBuffer] }
        : { message: { values: inputs.flatMap((input) => [...input]) } }
    },
    replies: ({ call, results }, inputs) => {
      let offset = 0
      return inputs.map((input) => ({
        call,
        results: results.slice(offset, (offset += input instanceof Uint8Array ? 1 : input.length))
      }))
    }
  })
  pools.push(pool)
  return { pool, spawned }
}

const run = (pool: ThreadPool<"high" | "low", Input, Result, Reply>, input: Input, priority: "high" | "low" = "low") =>
  new Promise<Outcome<Result>>((resolve) => pool.submit(input, priority, resolve))

const exited = (worker: Worker) =>
  new Promise<void>((resolve) => (worker.threadId === -1 ? resolve() : worker.once("exit", () => resolve())))

describe("ThreadPool", () => {
  it("is ready once every thread is, reports their state, and ends them on close", async () => {
    const { pool, spawned } = makePool(2)
    await pool.ready
    expect(pool.readyWorkers).toBe(2)
    expect(pool.restarts).toBe(0)
    expect(pool.lastReady).toEqual({ type: "ready", loadMs: 3 })
    expect(await run(pool, [1, 2])).toEqual({ _tag: "Success", reply: { call: 1, results: [10, 20] } })
    await pool.close()
    expect(spawned.map((worker) => worker.threadId)).toEqual([-1, -1])
  })

  it("serves the first queue first and packs queued jobs of one queue into one call", async () => {
    const { pool } = makePool(1)
    await pool.ready
    // The first job goes to the thread at once; the others queue behind it.
    const first = run(pool, [1])
    const lows = [run(pool, [2]), run(pool, [3, 4]), run(pool, [5, 6])]
    const high = run(pool, [7], "high")
    expect(await first).toEqual({ _tag: "Success", reply: { call: 1, results: [10] } })
    expect(await high).toEqual({ _tag: "Success", reply: { call: 2, results: [70] } })
    // [2] and [3, 4] fit in one call of 4 values; [5, 6] would not.
    expect(await Promise.all(lows)).toEqual([
      { _tag: "Success", reply: { call: 3, results: [20] } },
      { _tag: "Success", reply: { call: 3, results: [30, 40] } },
      { _tag: "Success", reply: { call: 4, results: [50, 60] } }
    ])
  })

  it("runs a priority on no more threads than its share, keeping the others for the rest", async () => {
    const shared = new SharedArrayBuffer(12)
    const { pool } = makePool(2, [], (priority, threads) => (priority === "low" ? threads - 1 : threads), shared)
    await pool.ready
    let lowsDone = 0
    const lows = [run(pool, [-3]), run(pool, [-3]), run(pool, [-3])]
    for (const low of lows) void low.then(() => lowsDone++)
    // The second thread is free for the high job while the first holds a low call.
    expect(await run(pool, [1], "high")).toMatchObject({ _tag: "Success", reply: { results: [10] } })
    expect(lowsDone).toBe(0)
    expect((await Promise.all(lows)).map((outcome) => outcome._tag)).toEqual(["Success", "Success", "Success"])
    // Never two low calls at once, though two threads were there.
    expect(new Int32Array(shared)[1]).toBe(1)
  })

  it("fails every job of a call the thread reports an error for, and goes on serving", async () => {
    const { pool } = makePool(1)
    await pool.ready
    const busy = run(pool, [1])
    // Queued behind it, these two share the next call.
    const shared = [run(pool, [2]), run(pool, [-2])]
    expect(await busy).toMatchObject({ _tag: "Success" })
    const failure = { _tag: "Failure", message: "test work failed: negative input" }
    expect(await Promise.all(shared)).toEqual([failure, failure])
    expect(await run(pool, [4])).toMatchObject({ _tag: "Success", reply: { results: [40] } })
  })

  it("fails the call of a thread that dies and serves the queue on a replacement", async () => {
    const { pool, spawned } = makePool(1)
    await pool.ready
    const doomed = run(pool, [-1])
    const queued = run(pool, [5])
    expect(await doomed).toEqual({ _tag: "Failure", message: "test thread crashed: exit code 7" })
    expect(await queued).toEqual({ _tag: "Success", reply: { call: 1, results: [50] } })
    expect(spawned).toHaveLength(2)
    expect(pool.restarts).toBe(1)
    expect(pool.readyWorkers).toBe(1)
  })

  it("fails `ready` when a thread cannot load at start", async () => {
    const { pool, spawned } = makePool(2, [2])
    await expect(pool.ready).rejects.toThrow("test thread failed to load: no model here")
    await pool.close()
    await Promise.all(spawned.map(exited))
  })

  it("retries a replacement that cannot load after a delay, not in a loop", async () => {
    const { pool, spawned } = makePool(1, [2])
    await pool.ready
    expect(await run(pool, [-1])).toMatchObject({ _tag: "Failure" })
    // Spawn 2 fails to load; spawn 3, a second later, serves the job waiting meanwhile.
    const started = performance.now()
    expect(await run(pool, [3])).toMatchObject({ _tag: "Success", reply: { results: [30] } })
    expect(performance.now() - started).toBeGreaterThanOrEqual(900)
    expect(spawned).toHaveLength(3)
    expect(pool.restarts).toBe(2)
  })

  it("drops a cancelled job that has not been sent", async () => {
    const { pool } = makePool(1)
    await pool.ready
    const outcomes: Array<Outcome<Result>> = []
    const first = run(pool, [1])
    const cancelled = pool.submit([2], "low", (outcome) => outcomes.push(outcome))
    pool.cancel(cancelled)
    const last = run(pool, [3])
    expect(await first).toMatchObject({ reply: { call: 1 } })
    // Had [2] stayed queued, it would have shared call 2 with [3].
    expect(await last).toEqual({ _tag: "Success", reply: { call: 2, results: [30] } })
    expect(outcomes).toEqual([])
  })

  it("fails what is queued or in flight on close, and whatever is submitted after", async () => {
    const { pool } = makePool(1)
    await pool.ready
    const pending = [run(pool, [1]), run(pool, [2], "high")]
    await pool.close()
    const shutDown = { _tag: "Failure", message: "test service is shut down" }
    expect(await Promise.all(pending)).toEqual([shutDown, shutDown])
    expect(await run(pool, [3])).toEqual(shutDown)
  })

  it("hands the buffers of a request over to the thread", async () => {
    const { pool } = makePool(1)
    await pool.ready
    const bytes = new Uint8Array([1, 2, 3])
    const outcome = run(pool, bytes)
    expect(bytes.byteLength).toBe(0)
    expect(await outcome).toEqual({ _tag: "Success", reply: { call: 1, results: [6] } })
  })
})
