import { expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { CatalogIndex, type SearchQuery } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../../src/model/Filter.js"
import { titleOrder, titleSortKey } from "../../../src/model/Columns.js"
import { doc, must, skewedApparel, skewedApparelPrices, upsert } from "./fixtures.js"

/**
 * A shirt in three colours (group "tee"), a hoodie in two (group "hood"), and products without
 * a group. p6 has no price; p2 and p3 cost the same.
 */
const catalog = [
  doc("p1", {
    text: { title: "red cotton shirt" },
    payload: { price: 30, item_group_id: "tee", color: ["red"], brand: "Luma", added_at: 5 }
  }),
  doc("p2", {
    text: { title: "blue cotton top", description: "a shirt" },
    payload: { price: 20, item_group_id: "tee", color: ["blue"], brand: "Luma", added_at: 1 }
  }),
  doc("p3", {
    text: { title: "green cotton shirt" },
    payload: { price: 20, item_group_id: "tee", color: ["green"], brand: "Luma", added_at: 2 }
  }),
  doc("p4", {
    text: { title: "grey hoodie shirt" },
    payload: { price: 50, item_group_id: "hood", color: ["grey"], brand: "Orbit", added_at: 3 }
  }),
  doc("p5", {
    text: { title: "black hoodie shirt" },
    payload: { price: 45, item_group_id: "hood", color: ["black"], brand: "Orbit", added_at: 4 }
  }),
  doc("p6", { text: { title: "plain shirt" }, payload: { brand: "Orbit", color: ["red"], added_at: 6 } }),
  doc("p7", { text: { title: "cotton socks" }, payload: { price: 5, brand: "Luma", color: ["red"], added_at: 7 } })
]

/** Sorting, paging and variant grouping of result sets, and exact facets over them. */
export const listingConformance = (layer: Layer.Layer<CatalogIndex>) => {
  const test = (name: string, body: () => Effect.Effect<void, unknown, CatalogIndex>) =>
    it.effect(name, () => upsert(...catalog).pipe(Effect.zipRight(body()), Effect.provide(layer)))
  const listing = (query: Partial<SearchQuery>) =>
    Effect.flatMap(CatalogIndex, (index) => index.search({ siteId: 1, filter: emptyFilter, limit: 20, ...query })).pipe(
      Effect.map((result) => ({ ids: result.hits.map((hit) => hit.productId), total: result.total }))
    )

  test("a browse sorted by price lists every product by price, those without one last, ties by product id", () =>
    Effect.gen(function* () {
      expect(yield* listing({ sort: [{ column: "price", order: "asc" }] })).toEqual({
        ids: ["p7", "p2", "p3", "p1", "p5", "p4", "p6"],
        total: 7
      })
      expect((yield* listing({ sort: [{ column: "price", order: "desc" }] })).ids).toEqual([
        "p4",
        "p5",
        "p1",
        "p2",
        "p3",
        "p7",
        "p6"
      ])
      expect((yield* listing({ sort: [{ column: "added_at", order: "desc" }] })).ids).toEqual([
        "p7",
        "p6",
        "p1",
        "p5",
        "p4",
        "p3",
        "p2"
      ])
    }))

  it.effect("a sort by title orders by the whole folded title, not its first ten characters", () =>
    Effect.gen(function* () {
      // Titles sharing a brand prefix longer than the number key holds; sizes S, M, L, XL.
      const titles = {
        t1: "Classic Crew T-Shirt Black S",
        t2: "Classic Crew T-Shirt Black M",
        t3: "classic crew t-shirt black l",
        t4: "Classic Crew T-Shirt Black XL",
        t5: "Classic Crew Sweater"
      }
      yield* upsert(
        ...Object.entries(titles).map(([id, title]) =>
          doc(id, {
            site: 2,
            text: { title },
            payload: { title_order: titleOrder(title), title_sort: titleSortKey(title) }
          })
        )
      )
      const sorted = (order: "asc" | "desc") =>
        Effect.flatMap(CatalogIndex, (index) =>
          index.search({ siteId: 2, filter: emptyFilter, limit: 10, sort: [{ column: "title_order", order }] })
        ).pipe(Effect.map((result) => result.hits.map((hit) => hit.productId)))
      expect(yield* sorted("asc")).toEqual(["t5", "t3", "t2", "t1", "t4"])
      expect(yield* sorted("desc")).toEqual(["t4", "t1", "t2", "t3", "t5"])
    }).pipe(Effect.provide(layer))
  )

  test("a sorted text search lists only the matches, relevance breaking ties of the order", () =>
    Effect.gen(function* () {
      const sort = [{ column: "price", order: "asc" as const }]
      const found = yield* listing({ text: "shirt", sort })
      // No socks; p2 and p3 cost the same and come in the order of the relevance ranking.
      const relevance = (yield* listing({ text: "shirt" })).ids.filter((id) => id === "p2" || id === "p3")
      expect(found).toEqual({ ids: [...relevance, "p1", "p5", "p4", "p6"], total: 6 })
      const boosts = (id: "p2" | "p3") => [
        { condition: { column: "color", anyOf: [id === "p2" ? "blue" : "green"] }, weight: 5 }
      ]
      expect((yield* listing({ text: "shirt", sort, boosts: boosts("p2") })).ids.slice(0, 2)).toEqual(["p2", "p3"])
      expect((yield* listing({ text: "shirt", sort, boosts: boosts("p3") })).ids.slice(0, 2)).toEqual(["p3", "p2"])
    }))

  test("per-product numbers from outside the index sort like a column and lift by their weight", () =>
    Effect.gen(function* () {
      const signals = new Map([
        [
          "popularity",
          new Map([
            ["p3", 1],
            ["p7", 0.5],
            ["p2", 0.75]
          ])
        ]
      ])
      // Sorted: those with a number by it, the rest after them by product id (a browse) or relevance.
      expect((yield* listing({ signals, sort: [{ column: "popularity", order: "desc" }] })).ids).toEqual([
        "p3",
        "p2",
        "p7",
        "p1",
        "p4",
        "p5",
        "p6"
      ])
      expect((yield* listing({ signals, sort: [{ column: "popularity", order: "asc" }] })).ids).toEqual([
        "p7",
        "p2",
        "p3",
        "p1",
        "p4",
        "p5",
        "p6"
      ])
      expect(
        (yield* listing({ text: "shirt", signals, sort: [{ column: "popularity", order: "desc" }] })).ids.slice(0, 2)
      ).toEqual(["p3", "p2"])
      // A browse ranked by the boost: weight × number, then product id.
      expect((yield* listing({ signals, signalBoosts: [{ signal: "popularity", weight: 1 }] })).ids).toEqual([
        "p3",
        "p2",
        "p7",
        "p1",
        "p4",
        "p5",
        "p6"
      ])
      // In a text search the boost adds to relevance: a strong one lifts p2 over the other shirts.
      const plain = (yield* listing({ text: "cotton shirt" })).ids
      expect(plain.indexOf("p2")).toBeGreaterThan(1)
      const lifted = (yield* listing({
        text: "cotton shirt",
        signals,
        signalBoosts: [{ signal: "popularity", weight: 8 }]
      })).ids
      expect(lifted.slice(0, 2)).toEqual(["p3", "p2"])
      expect([...lifted].sort()).toEqual([...plain].sort())
      // A boost naming no known numbers changes nothing.
      expect(
        (yield* listing({ text: "cotton shirt", signals, signalBoosts: [{ signal: "trending", weight: 8 }] })).ids
      ).toEqual(plain)
    }))

  test("later sort keys order what the first leaves tied", () =>
    Effect.gen(function* () {
      const found = yield* listing({
        sort: [
          { column: "price", order: "asc" },
          { column: "added_at", order: "desc" }
        ]
      })
      expect(found.ids.slice(0, 3)).toEqual(["p7", "p3", "p2"])
    }))

  test("pages from an offset are slices of one listing, with the same total", () =>
    Effect.gen(function* () {
      const sort = [{ column: "price", order: "asc" as const }]
      const whole = (yield* listing({ sort })).ids
      const pages = [
        yield* listing({ sort, limit: 3 }),
        yield* listing({ sort, limit: 3, offset: 3 }),
        yield* listing({ sort, limit: 3, offset: 6 })
      ]
      expect(pages.flatMap((page) => page.ids)).toEqual(whole)
      expect(pages.map((page) => page.total)).toEqual([7, 7, 7])
      expect(yield* listing({ sort, offset: 7 })).toEqual({ ids: [], total: 7 })
      const ranked = (yield* listing({ text: "cotton" })).ids
      expect((yield* listing({ text: "cotton", limit: 2, offset: 1 })).ids).toEqual(ranked.slice(1, 3))
    }))

  test("grouping lists one product per item group, the best-placed variant, and counts groups", () =>
    Effect.gen(function* () {
      const sorted = yield* listing({ sort: [{ column: "price", order: "asc" }], groupBy: "item_group_id" })
      // p7 and p6 have no group: each stands alone.
      expect(sorted).toEqual({ ids: ["p7", "p2", "p5", "p6"], total: 4 })
      expect(
        yield* listing({ sort: [{ column: "price", order: "asc" }], groupBy: "item_group_id", limit: 2, offset: 1 })
      ).toEqual({ ids: ["p2", "p5"], total: 4 })
      // Relevance (here a boost) breaks the price tie: the tee group shows p3.
      const greenFirst = [{ condition: { column: "color", anyOf: ["green"] }, weight: 5 }]
      expect(
        (yield* listing({
          text: "shirt",
          sort: [{ column: "price", order: "asc" }],
          groupBy: "item_group_id",
          boosts: greenFirst
        })).ids
      ).toEqual(["p3", "p5", "p6"])
      const ranked = yield* listing({ text: "hoodie", groupBy: "item_group_id" })
      expect(ranked.total).toBe(1)
      expect(ranked.ids).toHaveLength(1)
      expect(["p4", "p5"]).toContain(ranked.ids[0])
      const shirts = yield* listing({ text: "shirt", groupBy: "item_group_id" })
      expect(shirts.total).toBe(3)
      expect(
        new Set(shirts.ids.map((id) => catalog.find((d) => d.productId === id)!.payload.item_group_id ?? id)).size
      ).toBe(3)
    }))

  test("facets count every product of the result set, or every group", () =>
    Effect.gen(function* () {
      const index = yield* CatalogIndex
      const request = {
        values: [
          { column: "color", limit: 10 },
          { column: "brand", limit: 10 }
        ],
        intervals: [{ column: "price", buckets: 5 }]
      }
      const shirts = yield* index.facets({ siteId: 1, filter: emptyFilter, text: "shirt" }, request)
      expect(shirts.values.get("brand")).toEqual(
        [
          { value: "Orbit", count: 3 },
          { value: "Luma", count: 3 }
        ].sort((a, b) => (a.value < b.value ? -1 : 1))
      )
      expect(shirts.values.get("color")).toEqual([
        { value: "red", count: 2 },
        { value: "black", count: 1 },
        { value: "blue", count: 1 },
        { value: "green", count: 1 },
        { value: "grey", count: 1 }
      ])
      expect(shirts.intervals.get("price")).toEqual({
        min: 20,
        max: 50,
        edges: [20, 25, 40, 50, 60],
        counts: [2, 1, 1, 1]
      })
      const groups = yield* index.facets(
        { siteId: 1, filter: emptyFilter, text: "shirt", groupBy: "item_group_id" },
        request
      )
      expect(groups.values.get("brand")).toEqual([
        { value: "Orbit", count: 2 },
        { value: "Luma", count: 1 }
      ])
      expect(groups.intervals.get("price")).toEqual({
        min: 20,
        max: 50,
        edges: [20, 25, 40, 50, 60],
        counts: [1, 1, 1, 1]
      })
      const luma = yield* index.facets({ siteId: 1, filter: must({ column: "brand", anyOf: ["Luma"] }) }, request)
      expect(luma.values.get("color")).toEqual(
        [
          { value: "blue", count: 1 },
          { value: "green", count: 1 },
          { value: "red", count: 2 }
        ].sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
      )
      const none = yield* index.facets({ siteId: 1, filter: emptyFilter, text: "xylophone" }, request)
      expect(none.values.get("color")).toEqual([])
      expect(none.intervals.get("price")).toBeNull()
    }))

  it.effect("price intervals follow a skewed result set, the same in a search, a browse and by group", () =>
    Effect.gen(function* () {
      yield* upsert(...skewedApparel)
      const index = yield* CatalogIndex
      const request = { values: [], intervals: [{ column: "price", buckets: 5 }] }
      const apparel = must({ column: "category", anyOf: ["Apparel"] })
      const searched = yield* index.facets({ siteId: 1, filter: emptyFilter, text: "apparel" }, request)
      expect(searched.intervals.get("price")).toEqual(skewedApparelPrices)
      const browsed = yield* index.facets({ siteId: 1, filter: apparel }, request)
      expect(browsed.intervals.get("price")).toEqual(skewedApparelPrices)
      // Counted with the page: the same buckets.
      const page = yield* index.search({ siteId: 1, filter: apparel, limit: 3, facets: request })
      expect(page.facets?.intervals.get("price")).toEqual(skewedApparelPrices)
      // By group, the same edges; a pair of T-shirts straddling 75 counts in both buckets.
      const grouped = yield* index.facets({ siteId: 1, filter: apparel, groupBy: "item_group_id" }, request)
      expect(grouped.intervals.get("price")).toEqual({ ...skewedApparelPrices, counts: [4, 5, 7, 5, 5] })
      // The coats alone (250, 288, 325, 363, 400): only 300 and 400 are nice numbers between them.
      const coats = yield* index.facets({ siteId: 1, filter: emptyFilter, text: "coat" }, request)
      expect(coats.intervals.get("price")).toEqual({
        min: 250,
        max: 400,
        edges: [250, 300, 400, 500],
        counts: [2, 2, 1]
      })
    }).pipe(Effect.provide(layer))
  )

  it.effect("copies of one title are spread apart in a relevance ranking, pages staying slices of it", () =>
    Effect.gen(function* () {
      // d1–d3 read the same (one title key) and score 1; d4 scores 0.95 and d5 0.85 under their boosts.
      yield* upsert(
        ...["d1", "d2", "d3"].map((id) => doc(id, { payload: { title_key: 7, brand: "Bright" } })),
        doc("d4", { payload: { title_key: 8, brand: "Glow" } }),
        doc("d5", { payload: { title_key: 9, brand: "Dim" } })
      )
      const boosts = [
        { condition: { column: "brand", anyOf: ["Bright"] }, weight: 1 },
        { condition: { column: "brand", anyOf: ["Glow"] }, weight: 0.95 },
        { condition: { column: "brand", anyOf: ["Dim"] }, weight: 0.85 }
      ]
      expect((yield* listing({ boosts })).ids).toEqual(["d1", "d4", "d2", "d5", "d3"])
      expect((yield* listing({ boosts, limit: 2 })).ids).toEqual(["d1", "d4"])
      expect((yield* listing({ boosts, limit: 2, offset: 2 })).ids).toEqual(["d2", "d5"])
      expect((yield* listing({ boosts, limit: 1, offset: 4 })).ids).toEqual(["d3"])
    }).pipe(Effect.provide(layer))
  )
}
