import { expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { CatalogIndex, type SearchQuery } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../../src/model/Filter.js"
import { doc, must, searchIds, titled, upsert, vec } from "./fixtures.js"

/** Two lexically equal shoes told apart by their vectors, a dense-only near miss, and a stranger. */
const shoes = [
  titled("a", "Running shoe", { vector: [1, 0, 0, 0], payload: { brand: "Acme" } }),
  titled("b", "Running shoe", { vector: [0, 1, 0, 0], payload: { brand: "Zeta" } }),
  titled("c", "Trail sneaker", { vector: [0.95, 0.3122, 0, 0], payload: { brand: "Acme" } }),
  titled("d", "Leather belt", { vector: [0, 0, 1, 0], payload: { brand: "Zeta" } })
]

const search = (query: Partial<SearchQuery>) =>
  Effect.flatMap(CatalogIndex, (index) => index.search({ siteId: 1, filter: emptyFilter, limit: 24, ...query }))

/** Fusion of words and vectors, per-query weights, boosts, `near` and exclusions. */
export const hybridConformance = (layer: Layer.Layer<CatalogIndex>) => {
  const test = (name: string, body: () => Effect.Effect<void, unknown, CatalogIndex>) =>
    it.effect(name, () => body().pipe(Effect.provide(layer)))

  test("fuses lexical and text-vector scores into one ranking", () =>
    Effect.gen(function* () {
      yield* upsert(...shoes)
      const result = yield* search({ text: "running shoe", textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 })
      expect(result.hits.map((hit) => hit.productId)).toEqual(["a", "b", "c"])
      expect(result.total).toBe(3)
      const [a, b, c] = result.hits
      expect(a.lexical).toBeCloseTo(b.lexical, 6)
      expect(a.text).toBeCloseTo(1, 4)
      expect(c.lexical).toBe(0)
      expect(c.text).toBeCloseTo(0.95, 3)
      expect(a.score).toBeGreaterThan(b.score)
      expect(b.score).toBeGreaterThan(c.score)
    }))

  test("per-query weights change the fusion", () =>
    Effect.gen(function* () {
      yield* upsert(...shoes)
      const query = { text: "running shoe", textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 }
      expect(yield* searchIds({ ...query, weights: { lexical: 0.1 } })).toEqual(["a", "c", "b"])
    }))

  test("dense-only hits below minSimilarity are not matches", () =>
    Effect.gen(function* () {
      yield* upsert(...shoes)
      const textVector = vec(0.3, 0, 0.954, 0)
      expect(yield* searchIds({ textVector, minSimilarity: 0.5 })).toEqual(["d"])
      expect(yield* searchIds({ textVector, minSimilarity: 0.25 })).toEqual(["d", "a", "c"])
    }))

  test("a product's image similarity is the best of its images", () =>
    Effect.gen(function* () {
      yield* upsert(
        doc("one-image", { images: [[Math.SQRT1_2, Math.SQRT1_2, 0, 0]] }),
        doc("two-images", {
          images: [
            [1, 0, 0, 0],
            [0, 1, 0, 0]
          ]
        })
      )
      const result = yield* search({ imageVector: vec(0, 1, 0, 0), minSimilarity: 0.5 })
      expect(result.hits.map((hit) => hit.productId)).toEqual(["two-images", "one-image"])
      expect(result.hits[0].image).toBeCloseTo(1, 4)
    }))

  test("filters restrict lexical and dense candidates alike", () =>
    Effect.gen(function* () {
      yield* upsert(...shoes)
      const acme = must({ column: "brand", anyOf: ["Acme"] })
      expect(yield* searchIds({ text: "running shoe", filter: acme })).toEqual(["a"])
      expect(yield* searchIds({ textVector: vec(0, 1, 0, 0), minSimilarity: 0.2, filter: acme })).toEqual(["c"])
    }))

  test("excluded ids are never returned", () =>
    Effect.gen(function* () {
      yield* upsert(...shoes)
      expect(yield* searchIds({ text: "running shoe", excludeIds: ["a"] })).toEqual(["b"])
      expect(yield* searchIds({ textVector: vec(1, 0, 0, 0), minSimilarity: 0.5, excludeIds: ["a"] })).toEqual(["c"])
    }))

  test("equal scores come back by product id; a boost lifts its products", () =>
    Effect.gen(function* () {
      yield* upsert(...shoes)
      expect(yield* searchIds({ text: "running shoe" })).toEqual(["a", "b"])
      const boosts = [{ condition: { column: "brand", anyOf: ["Zeta"] }, weight: 1 }]
      expect(yield* searchIds({ text: "running shoe", boosts })).toEqual(["b", "a"])
    }))

  test("near prefers values close to the target", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("p10", "Desk lamp", { payload: { price: 10 } }),
        titled("p50", "Desk lamp", { payload: { price: 50 } }),
        titled("p100", "Desk lamp", { payload: { price: 100 } }),
        titled("p000", "Desk lamp", { payload: { price: null } })
      )
      const near = { column: "price", value: 50, weight: 1 }
      const ids = yield* searchIds({ text: "lamp", near })
      expect(ids).toEqual(["p50", "p10", "p000", "p100"])
    }))

  test("a query without words or vectors browses the filter scope", () =>
    Effect.gen(function* () {
      yield* upsert(...shoes)
      const result = yield* search({ filter: must({ column: "brand", anyOf: ["Zeta"] }), limit: 1 })
      expect(result.hits.map((hit) => hit.productId)).toEqual(["b"])
      expect(result.total).toBe(2)
    }))

  test("matchIds returns every match of the search, beyond its limit", () =>
    Effect.gen(function* () {
      yield* upsert(...shoes)
      const query = {
        siteId: 1,
        text: "running shoe",
        textVector: vec(1, 0, 0, 0),
        minSimilarity: 0.5,
        filter: emptyFilter
      }
      const index = yield* CatalogIndex
      const result = yield* index.search({ ...query, limit: 1 })
      const ids = yield* index.matchIds(query)
      expect(result.hits.map((hit) => hit.productId)).toEqual(["a"])
      expect([...ids].sort()).toEqual(["a", "b", "c"])
      expect(result.total).toBe(3)
    }))
}
