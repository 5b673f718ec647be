import { describe, expect, it } from "vitest"
import { type BatcherOptions, makeBatcher, type Settled } from "../../src/platform/Batcher.js"

/** A batcher that records its batches; items below zero fail on their own, "throw" fails the batch. */
const recording = (options: Partial<BatcherOptions> = {}) => {
  const batches: Array<ReadonlyArray<number>> = []
  let throwNext = false
  const batcher = makeBatcher<number, number>(
    async (items) => {
      batches.push(items)
      await new Promise((r) => setTimeout(r, 5))
      if (throwNext) {
        throwNext = false
        throw new Error("connection lost")
      }
      return items.map(
        (n): Settled<number> => (n < 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: n * 10 })
      )
    },
    { maxBatch: 100, ...options }
  )
  return { batcher, batches, failNextBatch: () => (throwNext = true) }
}

describe("Batcher", () => {
  it("sends the calls of one event-loop turn as one batch, each caller getting its own result", async () => {
    const { batcher, batches } = recording()
    const results = await Promise.all([1, 2, 3, 4].map((n) => batcher.submit(n)))
    expect(results).toEqual([10, 20, 30, 40])
    expect(batches).toEqual([[1, 2, 3, 4]])
  })

  it("a lone call is sent on the same turn, without waiting for company", async () => {
    const { batcher, batches } = recording()
    const started = performance.now()
    expect(await batcher.submit(7)).toBe(70)
    expect(performance.now() - started).toBeLessThan(50)
    await new Promise((r) => setTimeout(r, 20))
    expect(await batcher.submit(8)).toBe(80)
    expect(batches).toEqual([[7], [8]])
  })

  it("an item that fails fails only its own caller", async () => {
    const { batcher, batches } = recording()
    const outcomes = await Promise.allSettled([1, -2, 3].map((n) => batcher.submit(n)))
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"])
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe("bad -2")
    expect(batches).toHaveLength(1)
  })

  it("a batch that fails as a whole fails every caller in it, and the next batch is independent", async () => {
    const { batcher, failNextBatch } = recording()
    failNextBatch()
    const outcomes = await Promise.allSettled([1, 2].map((n) => batcher.submit(n)))
    expect(outcomes.map((o) => o.status === "rejected" && o.reason.message)).toEqual([
      "connection lost",
      "connection lost"
    ])
    expect(await batcher.submit(3)).toBe(30)
  })

  it("a full batch is sent at once; the rest goes in the next one", async () => {
    const { batcher, batches } = recording({ maxBatch: 3 })
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.submit(n)))
    expect(results).toEqual([10, 20, 30, 40, 50])
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5]
    ])
  })

  it("flush sends the open batch and waits for the batches in flight", async () => {
    const { batcher, batches } = recording()
    let settled = 0
    for (const n of [1, 2]) void batcher.submit(n).then(() => settled++)
    await batcher.flush()
    expect(batches).toEqual([[1, 2]])
    // The callers' continuations run right after.
    await Promise.resolve()
    expect(settled).toBe(2)
  })

  it("with a linger, calls of later turns within it join the first one's batch", async () => {
    const { batcher, batches } = recording({ lingerMs: 100 })
    const first = batcher.submit(1)
    // Later turns of the event loop, well within the linger.
    await new Promise((r) => setImmediate(r))
    const second = batcher.submit(2)
    await new Promise((r) => setTimeout(r, 10))
    const third = batcher.submit(3)
    expect(batches).toEqual([])
    expect(await Promise.all([first, second, third])).toEqual([10, 20, 30])
    expect(batches).toEqual([[1, 2, 3]])
  })

  it("with a linger, a full batch is sent without waiting it out", async () => {
    const { batcher, batches } = recording({ maxBatch: 2, lingerMs: 60_000 })
    expect(await Promise.all([batcher.submit(1), batcher.submit(2)])).toEqual([10, 20])
    const third = batcher.submit(3)
    await batcher.flush()
    expect(await third).toBe(30)
    expect(batches).toEqual([[1, 2], [3]])
  })

  it("a run that throws synchronously fails its batch like one that rejects", async () => {
    const batcher = makeBatcher<number, number>(
      () => {
        throw new Error("not even started")
      },
      { maxBatch: 10 }
    )
    await expect(batcher.submit(1)).rejects.toThrow("not even started")
  })
})
