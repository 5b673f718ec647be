import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { crossSelling, similarProducts } from "../../src/search/SimilarAndComplementary.js"
import { RECOMMENDATION_PAGE } from "../../src/domain/Site.js"
import { ids, stock, stockedShop } from "../support/Shop.js"

const shop = stockedShop([
  { id: 0, name: "default", resultsCount: 100 },
  {
    id: 1,
    name: "kitchen lights",
    resultsCount: 100,
    crossSell: [{ from: "Home > Kitchen", to: ["Home > Lighting > Bulbs"] }]
  }
])

describe("similarProducts", () => {
  it.layer(shop)((it) => {
    it.effect("never returns the source product, and finds its own kind first", () =>
      Effect.gen(function* () {
        const result = yield* similarProducts(1, { productId: "lamp-1" })
        expect(result.data.sourceProduct.productId).toBe("lamp-1")
        const found = ids(result.data.products)
        expect(found).not.toContain("lamp-1")
        // The other desk lamps share the leaf category the source's boost prefers.
        expect(found.slice(0, 2).sort()).toEqual(["lamp-2", "lamp-6"])
      })
    )

    it.effect("a substituted category becomes the scope, and is echoed back", () =>
      Effect.gen(function* () {
        const result = yield* similarProducts(1, {
          productId: "lamp-1",
          substitutions: { category: ["Home > Lighting > Floor Lamps"] }
        })
        expect(ids(result.data.products)).toEqual(["lamp-3"])
        expect(result.substitutions).toEqual([
          { column: "category", value: { value: ["Home > Lighting > Floor Lamps"], label: "Floor Lamps" } }
        ])
      })
    )

    it.effect("an unknown product, or one of another site, is NotFound", () =>
      Effect.gen(function* () {
        expect(yield* Effect.flip(similarProducts(1, { productId: "nope" }))).toMatchObject({ _tag: "NotFound" })
        expect(yield* Effect.flip(similarProducts(2, { productId: "lamp-1" }))).toMatchObject({ _tag: "NotFound" })
      })
    )
  })
})

describe("recommendation page size", () => {
  it.layer(shop)((it) => {
    it.effect("without resultsCount a recommendation lists one page of RECOMMENDATION_PAGE, not every candidate", () =>
      Effect.gen(function* () {
        yield* stock(
          1,
          Array.from({ length: 20 }, (_, i) => ({
            id: `desk-${i}`,
            data: {
              title: `Desk lamp model ${i}`,
              brand: "Luma",
              product_type: "Home > Lighting > Desk Lamps",
              price: 30 + i
            }
          }))
        )
        expect((yield* similarProducts(1, { productId: "lamp-1" })).data.products).toHaveLength(RECOMMENDATION_PAGE)
        expect((yield* crossSelling(1, { productId: "mug-1" })).data.products.length).toBeLessThanOrEqual(
          RECOMMENDATION_PAGE
        )
        expect((yield* similarProducts(1, { productId: "lamp-1", resultsCount: 25 })).data.products).toHaveLength(25)
      })
    )
  })
})

describe("crossSelling", () => {
  it.layer(shop)((it) => {
    it.effect("never proposes the source's own leaf category or item group", () =>
      Effect.gen(function* () {
        const found = ids((yield* crossSelling(1, { productId: "mug-1" })).data.products)
        expect(found).not.toContain("mug-1")
        expect(found).not.toContain("mug-2")
        expect(found).toContain("kettle-1")
      })
    )

    it.effect("takes at most two products of one leaf category", () =>
      Effect.gen(function* () {
        const found = ids((yield* crossSelling(1, { productId: "kettle-1" })).data.products)
        const desk = found.filter((id) => ["lamp-1", "lamp-2", "lamp-6"].includes(id!))
        expect(desk.length).toBeLessThanOrEqual(2)
        expect(found.length).toBeGreaterThan(2)
      })
    )

    it.effect(
      "prefers complements in stock: the out-of-stock floor lamp comes after every lamp and bulb in stock",
      () =>
        Effect.gen(function* () {
          const found = ids((yield* crossSelling(1, { productId: "lamp-1" })).data.products)
          const inStockLighting = ["lamp-4", "lamp-5", "bulb-1"]
          expect(found).toEqual(expect.arrayContaining([...inStockLighting, "lamp-3"]))
          for (const id of inStockLighting) expect(found.indexOf(id)).toBeLessThan(found.indexOf("lamp-3"))
        })
    )

    it.effect("a campaign's cross-sell pair scopes the complements to its target categories", () =>
      Effect.gen(function* () {
        expect(ids((yield* crossSelling(1, { productId: "mug-1", campaigns: [1] })).data.products)).toEqual(["bulb-1"])
      })
    )
  })
})
