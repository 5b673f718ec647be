import { describe, expect, it } from "vitest"
import { makeMicroBatcher, type Settled } from "../../src/platform/MicroBatcher.js"

/** A batcher that records its batches; items below zero fail on their own, "throw" fails the batch. */
const recording = (maxBatch = 100) => {
  const batches: Array<ReadonlyArray<number>> = []
  let throwNext = false
  const batcher = makeMicroBatcher<number, number>(async (items) => {
    batches.push(items)
    await new Promise((r) => setTimeout(r, 5))
    if (throwNext) {
      throwNext = false
      throw new Error("connection lost")
    }
    return items.map((n): Settled<number> => (n < 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: n * 10 }))
  }, { maxBatch })
  return { batcher, batches, failNextBatch: () => (throwNext = true) }
}

describe("MicroBatcher", () => {
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
    expect(outcomes.map((o) => o.status === "rejected" && o.reason.message)).toEqual(["connection lost", "connection lost"])
    expect(await batcher.submit(3)).toBe(30)
  })

  it("a full batch is sent at once; the rest goes in the next one", async () => {
    const { batcher, batches } = recording(3)
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.submit(n)))
    expect(results).toEqual([10, 20, 30, 40, 50])
    expect(batches).toEqual([[1, 2, 3], [4, 5]])
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
})
