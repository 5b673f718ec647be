import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { contents, type MemoryTest, positions, user } from "./helpers.js"

export const concurrencyConformance = (test: MemoryTest) => {
  test("50 concurrent appends to one conversation keep one total order, nothing lost or repeated", (log) =>
    Effect.gen(function* () {
      const batches = Array.from({ length: 50 }, (_, b) => [user(`b${b}-0`), user(`b${b}-1`), user(`b${b}-2`)])
      const results = yield* Effect.all(
        batches.map((batch) => log.append(1, "busy", batch)),
        { concurrency: 50 }
      )
      const stored = yield* log.replay(1, "busy", 0, 1000)
      expect(positions(stored)).toEqual(Array.from({ length: 150 }, (_, i) => i))
      expect(new Set(contents(stored)).size).toBe(150)
      expect([...contents(stored)].sort()).toEqual(
        batches
          .flat()
          .map((i) => i.content)
          .sort()
      )
      // Each batch is contiguous, in its own order, at the positions its append answered.
      results.forEach((result, b) => {
        expect(result.positions).toHaveLength(3)
        expect(result.positions.map((p) => stored[p].content)).toEqual([`b${b}-0`, `b${b}-1`, `b${b}-2`])
        expect(result.positions[2] - result.positions[0]).toBe(2)
      })
      expect((yield* log.list(1, 10)).conversations).toMatchObject([{ conversationId: "busy", length: 150 }])
    }))

  test("concurrent retries of one keyed batch store it once", (log) =>
    Effect.gen(function* () {
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () => log.append(1, "retry", [user("once"), user("twice?")], "same-key")),
        { concurrency: 20 }
      )
      expect(results.filter((r) => !r.duplicate)).toHaveLength(1)
      expect(results.every((r) => r.positions.join() === "0,1")).toBe(true)
      expect(contents(yield* log.recall(1, "retry", 10))).toEqual(["once", "twice?"])
    }))
}
