import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Campaign } from "../../src/domain/Site.js"
import { autoSuggest } from "../../src/search/Completions.js"
import { textSearch, type TextSearchInput } from "../../src/search/TextSearch.js"
import { ids, lampIds, stockedShop } from "../support/Shop.js"

const SITE_A = 1
const SITE_B = 2

const campaigns: ReadonlyArray<Campaign> = [
  {
    id: 0,
    name: "default",
    resultsCount: 100,
    redirects: [{ query: "brass desk lamp", url: "https://shop.example.com/brass" }]
  },
  {
    id: 1,
    name: "in stock only",
    resultsCount: 100,
    staticFilters: { included: [{ column: "availability", values: ["in_stock"] }] }
  },
  { id: 2, name: "pins", resultsCount: 100, pins: [{ query: "lamp", productIds: ["mug-2", "kettle-1"] }] },
  { id: 3, name: "two", resultsCount: 2 },
  { id: 4, name: "nordlys first", resultsCount: 100, boosts: [{ column: "brand", values: ["Nordlys"], weight: 50 }] },
  { id: 5, name: "broken", resultsCount: 100, boosts: [{ column: "no_such_column", values: ["x"], weight: 2 }] }
]

const shop = stockedShop(campaigns)
const found = (input: TextSearchInput, siteId = SITE_A) =>
  Effect.map(textSearch(siteId, input), (r) => ids(r.data.products))

describe("textSearch", () => {
  it.layer(shop)((it) => {
    it.effect("a site never sees another site's products, even for the same words", () =>
      Effect.gen(function* () {
        const onA = yield* found({ query: "brass desk lamp" })
        expect(onA[0]).toBe("lamp-1")
        expect(onA).not.toContain("b-lamp")
        expect(yield* found({ query: "brass desk lamp" }, SITE_B)).toEqual(["b-lamp"])
      })
    )

    it.effect("the campaign's static filters bound every search made under it", () =>
      Effect.gen(function* () {
        expect(yield* found({ query: "lamp" })).toContain("lamp-3")
        const inStock = yield* found({ query: "lamp", campaign: 1 })
        expect(inStock).not.toContain("lamp-3")
        expect(inStock).toContain("lamp-4")
      })
    )

    it.effect("the request's exclusions apply on top of the campaign's scope", () =>
      Effect.gen(function* () {
        const result = yield* found({
          query: "lamp",
          campaign: 1,
          staticFilters: { excluded: [{ column: "brand", values: ["Luma"] }] }
        })
        expect(result.sort()).toEqual(["lamp-4", "lamp-6"])
      })
    )

    it.effect("a campaign's pinned products lead the list in the pin's order, for the normalised query", () =>
      Effect.gen(function* () {
        const result = yield* found({ query: "  LAMP ", campaign: 2 })
        expect(result.slice(0, 2)).toEqual(["mug-2", "kettle-1"])
        expect(result.slice(2)).toEqual(expect.arrayContaining(lampIds))
        // Another query gets no pins.
        expect(yield* found({ query: "lamps for desks", campaign: 2 })).not.toContain("kettle-1")
      })
    )

    it.effect("a pinned product outside the shopper's scope is left out", () =>
      Effect.gen(function* () {
        const result = yield* found({
          query: "lamp",
          campaign: 2,
          staticFilters: { excluded: [{ column: "color", values: ["red"] }] }
        })
        expect(result).not.toContain("mug-2")
        expect(result).not.toContain("kettle-1")
        expect(result).toContain("lamp-1")
      })
    )

    it.effect("the campaign's results count caps what the request asks for", () =>
      Effect.gen(function* () {
        expect(yield* found({ query: "lamp", campaign: 3, resultsCount: 10 })).toHaveLength(2)
        expect(yield* found({ query: "lamp", resultsCount: 3 })).toHaveLength(3)
      })
    )

    it.effect("a campaign boost lifts the boosted brand's products to the top", () =>
      Effect.gen(function* () {
        const result = yield* found({ query: "lamp", campaign: 4 })
        expect(result.slice(0, 2).sort()).toEqual(["lamp-3", "lamp-4"])
      })
    )

    it.effect("a boost on an unknown column fails the search with the campaign named", () =>
      Effect.gen(function* () {
        const error = yield* Effect.flip(textSearch(SITE_A, { query: "lamp", campaign: 5 }))
        expect(error.message).toMatch(/campaign 5 boosts\.0/)
      })
    )

    it.effect("a campaign redirect is answered for its query only, in search and in completions", () =>
      Effect.gen(function* () {
        expect((yield* textSearch(SITE_A, { query: "Brass  Desk Lamp" })).interactions).toMatchObject({
          redirect: { url: "https://shop.example.com/brass" }
        })
        expect((yield* textSearch(SITE_A, { query: "walnut desk lamp" })).interactions).not.toHaveProperty("redirect")
        const completions = (yield* autoSuggest(SITE_A, "brass d")).data.completions
        expect(completions).toContainEqual({ suggestion: "brass desk lamp", url: "https://shop.example.com/brass" })
      })
    )

    it.effect("an unknown campaign is the caller's mistake", () =>
      Effect.gen(function* () {
        expect(yield* Effect.flip(textSearch(SITE_A, { query: "lamp", campaign: 99 }))).toMatchObject({
          _tag: "BadRequest"
        })
      })
    )
  })
})
