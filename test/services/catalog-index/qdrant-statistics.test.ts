import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { StatisticsCache } from "../../../src/services/catalog-index/qdrant/StatisticsCache.js"

/** Counts that answer `value` and record each name asked for. */
const counter = (value: (name: string) => number = () => 7) => {
  const asked: Array<string> = []
  const requests = (...names: Array<string>) =>
    names.map((name) => ({ name, count: Effect.sync(() => (asked.push(name), value(name))) }))
  return { asked, requests }
}

describe("StatisticsCache", () => {
  it.effect("asks only for the counts it does not remember, and answers in request order", () =>
    Effect.gen(function* () {
      const cache = new StatisticsCache(100, 30_000)
      const { asked, requests } = counter((name) => name.length)
      expect(yield* cache.counts(1, requests("a", "bb"))).toEqual([1, 2])
      expect(yield* cache.counts(1, requests("bb", "ccc", "a"))).toEqual([2, 3, 1])
      expect(asked).toEqual(["a", "bb", "ccc"])
      // Another site's counts are its own.
      yield* cache.counts(2, requests("a"))
      expect(asked).toEqual(["a", "bb", "ccc", "a"])
    })
  )

  it.effect("answers an expired entry as it was while asking again in the background, once", () =>
    Effect.gen(function* () {
      const cache = new StatisticsCache(100, 30_000)
      let value = 1
      const asked: Array<string> = []
      const settled = () => Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      // A count answers after a turn of the event loop, as a request to Qdrant does.
      const requests = (name: string) => [
        {
          name,
          count: Effect.sync(() => asked.push(name)).pipe(
            Effect.zipRight(settled()),
            Effect.map(() => value)
          )
        }
      ]
      yield* cache.counts(1, requests("a"))
      yield* TestClock.adjust("29999 millis")
      value = 2
      expect(yield* cache.counts(1, requests("a"))).toEqual([1])
      expect(asked).toEqual(["a"])
      yield* TestClock.adjust("1 millis")
      // Expired: the old count now, the new one asked for (once, however many ask meanwhile).
      expect(yield* cache.counts(1, requests("a"))).toEqual([1])
      expect(yield* cache.counts(1, requests("a"))).toEqual([1])
      expect(asked).toEqual(["a", "a"])
      yield* settled()
      yield* settled()
      expect(yield* cache.counts(1, requests("a"))).toEqual([2])
    })
  )

  it.effect("remembers any value derived from a site, as counts", () =>
    Effect.gen(function* () {
      const cache = new StatisticsCache(100, 30_000)
      let computed = 0
      const variants = Effect.sync(() => (computed++, new Map([["drill", 0.9]])))
      expect(yield* cache.remember(1, "variants:dril", variants)).toEqual(new Map([["drill", 0.9]]))
      yield* cache.remember(1, "variants:dril", variants)
      expect(computed).toBe(1)
      cache.invalidate(1)
      yield* cache.remember(1, "variants:dril", variants)
      expect(computed).toBe(2)
    })
  )

  it.effect("forgets a site's counts when the site is written, and only that site's", () =>
    Effect.gen(function* () {
      const cache = new StatisticsCache(100, 30_000)
      let documents = 10
      const { asked, requests } = counter(() => documents)
      yield* cache.counts(1, requests("documents"))
      yield* cache.counts(2, requests("documents"))
      documents = 11
      cache.invalidate(1)
      expect(yield* cache.counts(1, requests("documents"))).toEqual([11])
      expect(yield* cache.counts(2, requests("documents"))).toEqual([10])
      expect(asked).toEqual(["documents", "documents", "documents"])
    })
  )

  it.effect("never keeps a count asked for before a write that landed while it ran", () =>
    Effect.gen(function* () {
      const cache = new StatisticsCache(100, 30_000)
      const asked: Array<number> = []
      // The write is acknowledged (and invalidates) while the count is under way.
      const racing = [{ name: "a", count: Effect.sync(() => (asked.push(1), cache.invalidate(1), 1)) }]
      expect(yield* cache.counts(1, racing)).toEqual([1])
      const after = [{ name: "a", count: Effect.sync(() => (asked.push(2), 2)) }]
      expect(yield* cache.counts(1, after)).toEqual([2])
      expect(yield* cache.counts(1, after)).toEqual([2])
      expect(asked).toEqual([1, 2])
    })
  )

  it.effect("holds at most its capacity, dropping the least recently used", () =>
    Effect.gen(function* () {
      const cache = new StatisticsCache(2, 30_000)
      const { asked, requests } = counter()
      yield* cache.counts(1, requests("a", "b"))
      yield* cache.counts(1, requests("a"))
      yield* cache.counts(1, requests("c"))
      yield* cache.counts(1, requests("a", "b"))
      expect(asked).toEqual(["a", "b", "c", "b"])
    })
  )
})
