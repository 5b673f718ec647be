import { expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { CatalogIndex } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter, type Condition, type Filter } from "../../../src/model/Filter.js"
import { doc, filteredIds, must, titled, upsert } from "./fixtures.js"

/** f4 has no columns at all: it exercises the missing-value rules. */
const catalog = [
  doc("f1", {
    payload: {
      category: ["Tools", "Tools > Power"],
      brand: "Bosch",
      price: 10,
      in_stock: true,
      color: ["red", "black"]
    }
  }),
  doc("f2", {
    payload: { category: ["Tools", "Tools > Hand"], brand: "Stanley", price: 20, in_stock: false, color: ["black"] }
  }),
  doc("f3", { payload: { category: ["Garden"], brand: "Bosch", price: 30, in_stock: null, color: [] } }),
  doc("f4")
]

const mustNot = (...conditions: ReadonlyArray<Condition>): Filter => ({ must: [], mustNot: conditions })

/** Filter semantics, counts, facets and numeric statistics. */
export const filterConformance = (layer: Layer.Layer<CatalogIndex>) => {
  const test = (name: string, body: () => Effect.Effect<void, unknown, CatalogIndex>) =>
    it.effect(name, () => upsert(...catalog).pipe(Effect.zipRight(body()), Effect.provide(layer)))

  test("anyOf matches when any value of an array column is accepted", () =>
    Effect.gen(function* () {
      expect(yield* filteredIds(must({ column: "category", anyOf: ["Tools"] }))).toEqual(["f1", "f2"])
      expect(yield* filteredIds(must({ column: "category", anyOf: ["Tools > Power"] }))).toEqual(["f1"])
      expect(yield* filteredIds(must({ column: "color", anyOf: ["red", "green"] }))).toEqual(["f1"])
    }))

  test("anyOf on a single-valued string column compares the value", () =>
    Effect.gen(function* () {
      expect(yield* filteredIds(must({ column: "brand", anyOf: ["Bosch"] }))).toEqual(["f1", "f3"])
      expect(yield* filteredIds(must({ column: "brand", anyOf: ["Bosch", "Stanley"] }))).toEqual(["f1", "f2", "f3"])
      expect(yield* filteredIds(must({ column: "brand", anyOf: ["bosch"] }))).toEqual([])
    }))

  test("onlyIds narrows matching to the given products, on top of the filter", () =>
    Effect.gen(function* () {
      const index = yield* CatalogIndex
      const ids = (query: Parameters<typeof index.matchIds>[0]) =>
        Effect.map(index.matchIds(query), (found) => [...found].sort())
      expect(yield* ids({ siteId: 1, filter: emptyFilter, onlyIds: ["f2", "f3", "unknown"] })).toEqual(["f2", "f3"])
      expect(
        yield* ids({ siteId: 1, filter: must({ column: "brand", anyOf: ["Bosch"] }), onlyIds: ["f2", "f3"] })
      ).toEqual(["f3"])
      expect(yield* ids({ siteId: 1, filter: emptyFilter, onlyIds: [] })).toEqual([])
      const ranked = yield* index.search({ siteId: 1, filter: emptyFilter, onlyIds: ["f1", "f4"], limit: 10 })
      expect(ranked.hits.map((h) => h.productId).sort()).toEqual(["f1", "f4"])
      expect(ranked.total).toBe(2)
    }))

  test("an item group's members (a tile's variants), with the rest of the filter and exclusions", () =>
    Effect.gen(function* () {
      const index = yield* CatalogIndex
      yield* upsert(
        doc("t1", { payload: { item_group_id: "tee", color: ["red"] } }),
        doc("t2", { payload: { item_group_id: "tee", color: ["blue"] } }),
        doc("t3", { payload: { item_group_id: "tee", color: ["red"] } }),
        doc("h1", { payload: { item_group_id: "hoodie", color: ["red"] } }),
        doc("s1", { payload: { item_group_id: "sock" } })
      )
      const ids = (filter: Filter, excludeIds?: ReadonlyArray<string>) =>
        Effect.map(index.matchIds({ siteId: 1, filter, ...(excludeIds && { excludeIds }) }), (found) =>
          [...found].sort()
        )
      const groups = { column: "item_group_id", anyOf: ["tee", "hoodie"] }
      expect(yield* ids(must(groups))).toEqual(["h1", "t1", "t2", "t3"])
      expect(yield* ids({ must: [groups], mustNot: [{ column: "color", anyOf: ["red"] }] })).toEqual(["t2"])
      expect(yield* ids(must(groups, { column: "color", anyOf: ["red"] }), ["t3"])).toEqual(["h1", "t1"])
      // A later write moves a product to another group.
      yield* upsert(doc("t2", { payload: { item_group_id: "sock" } }))
      expect(yield* ids(must({ column: "item_group_id", anyOf: ["sock"] }))).toEqual(["s1", "t2"])
      yield* index.remove(1, ["s1"])
      expect(yield* ids(must({ column: "item_group_id", anyOf: ["sock", "tee"] }))).toEqual(["t1", "t2", "t3"])
    }))

  test("range is [gte, lt): the lower bound is included, the upper excluded", () =>
    Effect.gen(function* () {
      expect(yield* filteredIds(must({ column: "price", range: { gte: 10, lt: 30 } }))).toEqual(["f1", "f2"])
      expect(yield* filteredIds(must({ column: "price", range: { gte: 20 } }))).toEqual(["f2", "f3"])
      expect(yield* filteredIds(must({ column: "price", range: { lt: 20 } }))).toEqual(["f1"])
    }))

  test("equals matches booleans", () =>
    Effect.gen(function* () {
      expect(yield* filteredIds(must({ column: "in_stock", equals: true }))).toEqual(["f1"])
      expect(yield* filteredIds(must({ column: "in_stock", equals: false }))).toEqual(["f2"])
    }))

  test("a missing value fails every must and passes every mustNot", () =>
    Effect.gen(function* () {
      expect(yield* filteredIds(must({ column: "price", range: { gte: 0 } }))).toEqual(["f1", "f2", "f3"])
      expect(yield* filteredIds(mustNot({ column: "price", range: { gte: 0 } }))).toEqual(["f4"])
      expect(yield* filteredIds(mustNot({ column: "brand", anyOf: ["Bosch"] }))).toEqual(["f2", "f4"])
      expect(yield* filteredIds(mustNot({ column: "in_stock", equals: true }))).toEqual(["f2", "f3", "f4"])
      expect(yield* filteredIds(must({ column: "no_such_column", anyOf: ["x"] }))).toEqual([])
    }))

  test("must and mustNot combine", () =>
    Effect.gen(function* () {
      const filter = {
        must: [{ column: "category", anyOf: ["Tools"] }],
        mustNot: [{ column: "color", anyOf: ["red"] }]
      }
      expect(yield* filteredIds(filter)).toEqual(["f2"])
      const index = yield* CatalogIndex
      expect(yield* index.count(1, filter)).toBe(1)
      expect(yield* index.count(1, emptyFilter)).toBe(4)
    }))

  test("facets count values over a filter, most frequent first, then by value", () =>
    Effect.gen(function* () {
      const index = yield* CatalogIndex
      expect(yield* index.facet(1, "brand", { filter: emptyFilter }, 10)).toEqual([
        { value: "Bosch", count: 2 },
        { value: "Stanley", count: 1 }
      ])
      const tools = must({ column: "category", anyOf: ["Tools"] })
      expect(yield* index.facet(1, "color", { filter: tools }, 10)).toEqual([
        { value: "black", count: 2 },
        { value: "red", count: 1 }
      ])
      expect(yield* index.facet(1, "color", { filter: tools }, 1)).toEqual([{ value: "black", count: 2 }])
      expect(yield* index.facet(1, "in_stock", { filter: emptyFilter }, 10)).toEqual([
        { value: "false", count: 1 },
        { value: "true", count: 1 }
      ])
    }))

  test("search hits carry each product's columns, whichever way it was found", () =>
    Effect.gen(function* () {
      const index = yield* CatalogIndex
      const columnsOf = (hits: ReadonlyArray<{ productId: string; columns: unknown }>) =>
        Object.fromEntries(hits.map((h) => [h.productId, h.columns]))
      const browsed = columnsOf((yield* index.search({ siteId: 1, filter: emptyFilter, limit: 10 })).hits)
      expect(browsed.f1).toEqual(catalog[0].payload)
      expect(browsed.f3).toEqual(catalog[2].payload)
      expect(browsed.f4).toEqual({})
      const boosted = yield* index.search({
        siteId: 1,
        filter: emptyFilter,
        limit: 10,
        boosts: [{ condition: { column: "brand", anyOf: ["Stanley"] }, weight: 1 }]
      })
      expect(boosted.hits[0]).toMatchObject({ productId: "f2", columns: catalog[1].payload })
      yield* upsert(titled("f5", "Garden hose", { payload: { brand: "Acme", price: 15 } }))
      const searched = yield* index.search({ siteId: 1, text: "hose", filter: emptyFilter, limit: 10 })
      expect(searched.hits.map((h) => [h.productId, h.columns])).toEqual([["f5", { brand: "Acme", price: 15 }]])
    }))

  test("numeric statistics and histograms over a filter", () =>
    Effect.gen(function* () {
      const index = yield* CatalogIndex
      expect(yield* index.numericStats(1, "price", { filter: emptyFilter })).toEqual({ min: 10, max: 30, count: 3 })
      expect(yield* index.numericStats(1, "price", { filter: must({ column: "brand", anyOf: ["Stanley"] }) })).toEqual({
        min: 20,
        max: 20,
        count: 1
      })
      expect(
        yield* index.numericStats(1, "price", { filter: must({ column: "category", anyOf: ["Nowhere"] }) })
      ).toBeNull()
      expect(yield* index.histogram(1, "price", { filter: emptyFilter }, [0, 15, 30])).toEqual([1, 1])
      expect(yield* index.histogram(1, "price", { filter: emptyFilter }, [0, 15, 31])).toEqual([1, 2])
    }))
}
