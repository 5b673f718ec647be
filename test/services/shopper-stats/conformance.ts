import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { HALF_LIFE_MS } from "../../../src/services/shopper-stats/Decay.js"
import {
  ShopperStats,
  type ShopperStatsService,
  type StatsDelta
} from "../../../src/services/shopper-stats/ShopperStats.js"

const empty: StatsDelta = { products: [], pairs: [], queries: [], searches: [] }
const DAY = 86_400_000

/**
 * The behaviour every ShopperStats layer must show, through the interface only. `makeLayer` is
 * called once per test and must give empty statistics (a fresh data dir, a flushed Redis).
 */
export const shopperStatsConformance = (name: string, makeLayer: () => Layer.Layer<ShopperStats, unknown>) =>
  describe(`ShopperStats conformance: ${name}`, () => {
    const test = (title: string, body: (stats: ShopperStatsService) => Effect.Effect<void, unknown>) =>
      it.live(title, () => Effect.flatMap(ShopperStats, body).pipe(Effect.provide(makeLayer())))

    test("a step applies only from the cursor it was read at, and moves it", (stats) =>
      Effect.gen(function* () {
        expect(yield* stats.cursor(1)).toBe(0)
        const delta: StatsDelta = {
          ...empty,
          products: [{ productId: "p1", orders: 1, popularity: 10, recent: 10, at: 1_000 }]
        }
        expect(yield* stats.apply(1, 0, 5, delta)).toBe(true)
        expect(yield* stats.cursor(1)).toBe(5)
        // A retried step (read at 0) is refused and adds nothing.
        expect(yield* stats.apply(1, 0, 5, delta)).toBe(false)
        expect(yield* stats.products(1, ["p1"])).toEqual([
          { productId: "p1", orders: 1, popularity: 10, recent: 10, at: 1_000 }
        ])
        expect(yield* stats.cursor(2)).toBe(0)
      }))

    test("decayed counters merge exactly, whichever of two steps is older", (stats) =>
      Effect.gen(function* () {
        const t = 1_700_000_000_000
        yield* stats.apply(1, 0, 1, {
          ...empty,
          products: [{ productId: "p", orders: 2, popularity: 8, recent: 8, at: t }]
        })
        // Older events (a past order sent late) count at their age.
        yield* stats.apply(1, 1, 2, {
          ...empty,
          products: [{ productId: "p", orders: 1, popularity: 8, recent: 4, at: t - HALF_LIFE_MS.popularity }]
        })
        const [after] = yield* stats.products(1, ["p"])
        expect(after.orders).toBe(3)
        expect(after.at).toBe(t)
        expect(after.popularity).toBeCloseTo(12, 9)
        expect(after.recent).toBeCloseTo(8 + 4 * 2 ** -14, 9)
        // A newer step decays what was held to its own time.
        yield* stats.apply(1, 2, 3, {
          ...empty,
          products: [{ productId: "p", orders: 0, popularity: 1, recent: 1, at: t + HALF_LIFE_MS.recent }]
        })
        const [later] = yield* stats.products(1, ["p"])
        expect(later.at).toBe(t + HALF_LIFE_MS.recent)
        expect(later.recent).toBeCloseTo(after.recent / 2 + 1, 9)
        expect(later.popularity).toBeCloseTo(12 * 2 ** (-1 / 14) + 1, 9)
      }))

    test("co-purchases are counted for both products and read by support, most often first", (stats) =>
      Effect.gen(function* () {
        yield* stats.apply(1, 0, 1, {
          ...empty,
          products: ["a", "b", "c", "d"].map((productId, i) => ({
            productId,
            orders: 5 + i,
            popularity: 1,
            recent: 1,
            at: 1
          })),
          pairs: [
            { a: "a", b: "b", together: 3 },
            { a: "c", b: "a", together: 1 },
            { a: "a", b: "d", together: 2 }
          ]
        })
        yield* stats.apply(1, 1, 2, { ...empty, pairs: [{ a: "b", b: "a", together: 1 }] })
        expect(yield* stats.boughtWith(1, "a", 2, 10)).toEqual({
          orders: 5,
          partners: [
            { productId: "b", together: 4, orders: 6 },
            { productId: "d", together: 2, orders: 8 }
          ]
        })
        expect((yield* stats.boughtWith(1, "a", 1, 2)).partners.map((p) => p.productId)).toEqual(["b", "d"])
        expect((yield* stats.boughtWith(1, "c", 1, 10)).partners).toEqual([{ productId: "a", together: 1, orders: 5 }])
        expect(yield* stats.boughtWith(2, "a", 1, 10)).toEqual({ orders: 0, partners: [] })
        expect(yield* stats.boughtWith(1, "zzz", 1, 10)).toEqual({ orders: 0, partners: [] })
      }))

    test("query figures add up per day and sum over a range of days", (stats) =>
      Effect.gen(function* () {
        const figures = (
          day: number,
          query: string,
          searches: number,
          zeroResults: number,
          clicks: number,
          positionSum: number,
          clickedSearches: number
        ) => ({ day, query, searches, zeroResults, clicks, positionSum, clickedSearches })
        yield* stats.apply(1, 0, 1, {
          ...empty,
          queries: [
            figures(100, "red shoes", 3, 0, 2, 5, 1),
            figures(100, "xyzzy", 2, 2, 0, 0, 0),
            figures(101, "red shoes", 1, 0, 1, 1, 1)
          ]
        })
        yield* stats.apply(1, 1, 2, {
          ...empty,
          queries: [figures(101, "red shoes", 1, 0, 0, 0, 0), figures(105, "boots", 1, 0, 0, 0, 0)]
        })
        const byQuery = (list: ReadonlyArray<{ query: string }>) =>
          [...list].sort((x, y) => (x.query < y.query ? -1 : 1))
        expect(byQuery(yield* stats.queries(1, 100, 101))).toEqual([
          { query: "red shoes", searches: 5, zeroResults: 0, clicks: 3, positionSum: 6, clickedSearches: 2 },
          { query: "xyzzy", searches: 2, zeroResults: 2, clicks: 0, positionSum: 0, clickedSearches: 0 }
        ])
        expect((yield* stats.queries(1, 101, 200)).map((q) => [q.query, q.searches]).sort()).toEqual([
          ["boots", 1],
          ["red shoes", 2]
        ])
        expect(yield* stats.queries(2, 0, 1_000)).toEqual([])
      }))

    test("searches are remembered by request id for their clicks", (stats) =>
      Effect.gen(function* () {
        const day = Math.floor(Date.now() / DAY)
        yield* stats.apply(1, 0, 1, {
          ...empty,
          searches: [
            { requestId: "r1", query: "red shoes", day, clicked: false },
            { requestId: "r2", query: "a\nb", day, clicked: false }
          ]
        })
        yield* stats.apply(1, 1, 2, {
          ...empty,
          searches: [{ requestId: "r1", query: "red shoes", day, clicked: true }]
        })
        const known = [...(yield* stats.searches(1, ["r1", "r2", "r3", "r1"]))].sort((x, y) =>
          x.requestId < y.requestId ? -1 : 1
        )
        expect(known).toEqual([
          { requestId: "r1", query: "red shoes", day, clicked: true },
          { requestId: "r2", query: "a\nb", day, clicked: false }
        ])
        expect(yield* stats.searches(2, ["r1"])).toEqual([])
      }))

    test("every product with events is listed, each once", (stats) =>
      Effect.gen(function* () {
        const products = Array.from({ length: 1_200 }, (_, i) => ({
          productId: `p${i}`,
          orders: i % 2,
          popularity: i,
          recent: 1,
          at: 5
        }))
        yield* stats.apply(3, 0, 1, { ...empty, products })
        const all = yield* stats.allProducts(3)
        expect(all.length).toBe(1_200)
        expect(all.find((p) => p.productId === "p7")).toEqual({
          productId: "p7",
          orders: 1,
          popularity: 7,
          recent: 1,
          at: 5
        })
        expect(
          (yield* stats.products(
            3,
            products.map((p) => p.productId)
          )).length
        ).toBe(1_200)
      }))
  })
