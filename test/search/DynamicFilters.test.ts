import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import { facetValueCondition, type FacetOut } from "../../src/search/DynamicFilters.js"
import { textSearch, type TextSearchInput } from "../../src/search/TextSearch.js"
import { stockedShop } from "../support/Shop.js"

const facets = (input: TextSearchInput) =>
  Effect.map(textSearch(1, input), (r) => r.interactions.dynamicFilters as unknown as ReadonlyArray<FacetOut>)
const counts = (all: ReadonlyArray<FacetOut>, column: string) =>
  Object.fromEntries((all.find((f) => f.column === column)?.values ?? []).map((v) => [v.label, v.count]))

describe("facetValueCondition", () => {
  it("turns a chosen facet value back into the condition it stands for", () => {
    expect(facetValueCondition("brand", "Luma")).toEqual({ column: "brand", anyOf: ["Luma"] })
    expect(facetValueCondition("category", ["Home > Lighting"])).toEqual({
      column: "category",
      anyOf: ["Home > Lighting"]
    })
    expect(facetValueCondition("price", { start: 25, end: 50 })).toEqual({
      column: "price",
      range: { gte: 25, lt: 50 }
    })
  })
})

describe("facets of a search", () => {
  it.layer(stockedShop())((it) => {
    it.effect("count values over the scoped set only", () =>
      Effect.gen(function* () {
        expect(counts(yield* facets({ query: "lamp" }), "brand")).toEqual({ Luma: 3, Nordlys: 2, Brightr: 1 })
        const scoped = yield* facets({
          query: "lamp",
          staticFilters: { excluded: [{ column: "availability", values: ["out_of_stock"] }] }
        })
        expect(counts(scoped, "brand")).toEqual({ Luma: 3, Nordlys: 1, Brightr: 1 })
      })
    )

    it.effect("ignore a column's own selection, so the shopper can widen it, but honour it in every other column", () =>
      Effect.gen(function* () {
        const all = yield* facets({ query: "lamp", dynamicFilters: [{ column: "brand", values: ["Nordlys"] }] })
        const brand = all.find((f) => f.column === "brand")!
        expect(brand.values.map((v) => [v.label, v.count, v.selected])).toEqual(
          expect.arrayContaining([
            ["Nordlys", 2, true],
            ["Luma", 3, false],
            ["Brightr", 1, false]
          ])
        )
        expect(counts(all, "color")).toEqual({ black: 1, white: 1 })
      })
    )

    it.effect("leave out a column that has one value and nothing chosen", () =>
      Effect.gen(function* () {
        const all = yield* facets({ query: "stoneware coffee mug" })
        expect(all.map((f) => f.column)).not.toContain("brand")
        expect(counts(all, "color")).toMatchObject({ blue: 1, red: 1 })
      })
    )

    it.effect("start the category tree where it branches, not at a single root", () =>
      Effect.gen(function* () {
        const category = (yield* facets({ query: "lamp" })).find((f) => f.column === "category")!
        expect(category.values.map((v) => v.label).sort()).toEqual([
          "Desk Lamps",
          "Floor Lamps",
          "Pendants",
          "Table Lamps"
        ])
        expect(category.isPrimary).toBe(true)
      })
    )

    it.effect("show the children of the chosen category, with the choice itself first", () =>
      Effect.gen(function* () {
        const category = (yield* facets({
          query: "lamp",
          dynamicFilters: [{ column: "category", values: [encodeCategoryPath("Home > Lighting")] }]
        })).find((f) => f.column === "category")!
        expect(category.values[0]).toMatchObject({ label: "Lighting", selected: true })
        expect(category.values.slice(1).every((v) => !v.selected)).toBe(true)
      })
    )

    it.effect("cut prices where the matches are, into buckets a shopper picks and sees picked", () =>
      Effect.gen(function* () {
        // The six lamps cost 15, 25, 40, 60, 80 and 120.
        const price = (yield* facets({ query: "lamp" })).find((f) => f.column === "price")!
        expect(price.values.map((v) => [v.value, v.label, v.count, v.selected])).toEqual([
          [{ start: 15, end: 20 }, "15 – 20", 1, false],
          [{ start: 20, end: 30 }, "20 – 30", 1, false],
          [{ start: 30, end: 50 }, "30 – 50", 1, false],
          [{ start: 50, end: 100 }, "50 – 100", 2, false],
          [{ start: 100, end: 150 }, "100 – 150", 1, false]
        ])
        // Counted without its own choice, the facet keeps its buckets and marks the one chosen.
        const chosen = (yield* facets({
          query: "lamp",
          dynamicFilters: [{ column: "price", values: { start: 50, end: 100 } }]
        })).find((f) => f.column === "price")!
        expect(chosen.values.map((v) => [v.label, v.count, v.selected])).toEqual([
          ["15 – 20", 1, false],
          ["20 – 30", 1, false],
          ["30 – 50", 1, false],
          ["50 – 100", 2, true],
          ["100 – 150", 1, false]
        ])
      })
    )

    it.effect("bucket prices into readable intervals that account for every priced match, marking the chosen one", () =>
      Effect.gen(function* () {
        const price = (yield* facets({
          query: "lamp",
          dynamicFilters: [{ column: "price", values: { start: 25, end: 50 } }]
        })).find((f) => f.column === "price")!
        expect(price.type).toBe("interval")
        expect(price.values.reduce((n, v) => n + v.count, 0)).toBe(6)
        expect(price.values.filter((v) => v.selected).map((v) => v.value)).toEqual([{ start: 25, end: 50 }])
      })
    )
  })
})
