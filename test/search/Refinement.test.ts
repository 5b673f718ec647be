import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import type { FacetOut, FacetValueOut } from "../../src/search/DynamicFilters.js"
import { bestRefinement, refinementStream } from "../../src/search/Refinement.js"
import { textSearch } from "../../src/search/TextSearch.js"
import { stockedShop } from "../support/Shop.js"

const value = (label: string, count: number, selected = false): FacetValueOut => ({
  value: label,
  label,
  active: count > 0,
  selected,
  count
})
const facet = (column: string, ...values: Array<FacetValueOut>): FacetOut => ({
  type: "categorical",
  column,
  label: column,
  isPrimary: false,
  values
})

describe("bestRefinement", () => {
  it("offers nothing for fewer than four results", () => {
    expect(bestRefinement([facet("brand", value("Bosch", 1), value("Makita", 2))], 3)).toBeNull()
  })

  it("skips values that would keep almost everything or almost nothing", () => {
    // 95 of 100 and 5 of 100: neither narrows the list in a useful way.
    expect(bestRefinement([facet("brand", value("Bosch", 95), value("Makita", 5))], 100)).toBeNull()
  })

  it("picks the value that splits the results most evenly", () => {
    const found = bestRefinement([facet("brand", value("Bosch", 20), value("Makita", 45), value("Ryobi", 35))], 100)
    expect(found?.value.label).toBe("Makita")
    expect(found?.share).toBeCloseTo(0.45)
  })

  it("proposes only columns a shopper narrows by (category, brand, colour, price), never a size alone", () => {
    const even = (column: string) => facet(column, value("a", 50), value("b", 50))
    for (const column of ["size", "gender", "material", "availability", "age_group"])
      expect(bestRefinement([even(column)], 100), column).toBeNull()
    expect(bestRefinement([even("size"), facet("color", value("red", 20), value("blue", 80))], 100)?.facet.column).toBe(
      "color"
    )
  })

  it("prefers a category split over an equally even colour split, and a colour over a price one", () => {
    const color = facet("color", value("red", 50), value("blue", 50))
    const category = facet("category", value("Tools", 50), value("Garden", 50))
    const price = facet("price", value("0 – 50", 50), value("50 – 100", 50))
    expect(bestRefinement([color, category], 100)?.facet.column).toBe("category")
    expect(bestRefinement([price, color], 100)?.facet.column).toBe("color")
  })

  it("never refines a column the shopper has already chosen a value of", () => {
    const brand = facet("brand", value("Bosch", 50, true), value("Makita", 50))
    const color = facet("color", value("red", 30), value("blue", 70))
    expect(bestRefinement([brand, color], 100)?.facet.column).toBe("color")
  })
})

describe("refinementStream", () => {
  it("points its annotation at the value's label and carries only that value as the filter", () => {
    const brand = facet("brand", value("Bosch", 40), value("Makita", 60))
    const refinement = bestRefinement([brand], 100)!
    const preview = [{ productId: "p1" }] as never
    const [item] = refinementStream(refinement, 100, preview).items
    const {
      content,
      annotations: [annotation]
    } = item.parts[0].text
    expect(content).toBe("100 products match. Narrow down to **Bosch** (40)?")
    expect(content.substr(annotation.locator.start, annotation.locator.length)).toBe("Bosch")
    expect(annotation.data.items).toBe(preview)
    expect(annotation.interactions.dynamicFilters).toEqual([{ ...brand, values: [value("Bosch", 40)] }])
  })
})

describe("the refinement a search proposes", () => {
  it.layer(stockedShop())((it) => {
    it.effect("narrows the results, and its preview only shows products that have the proposed value", () =>
      Effect.gen(function* () {
        const result = yield* textSearch(1, { query: "lamp" })
        const annotation = result.stream!.items[0].parts[0].text.annotations[0]
        const [proposed] = annotation.interactions.dynamicFilters
        const value = proposed.values[0]
        expect(value.count).toBeGreaterThan(0)
        expect(value.count).toBeLessThan(result.data.products.length)
        expect(annotation.data.items.length).toBeGreaterThan(0)
        const shown = annotation.data.items.map((p) => p.productId)
        // Facet values are in text form inside the service; a request carries category paths encoded.
        const values = Array.isArray(value.value) ? value.value.map(encodeCategoryPath) : value.value
        const withValue = yield* textSearch(1, {
          query: "lamp",
          dynamicFilters: [{ column: proposed.column, values: values as never }]
        })
        expect(withValue.data.products.map((p) => p.productId)).toEqual(expect.arrayContaining(shown))
        expect(withValue.data.products).toHaveLength(value.count)
      })
    )

    it.effect("is not offered when there is nothing worth narrowing", () =>
      Effect.gen(function* () {
        expect(yield* textSearch(1, { query: "stoneware coffee mug" })).not.toHaveProperty("stream")
        expect(
          yield* textSearch(1, {
            query: "lamp",
            staticFilters: { included: [{ column: "brand", values: ["Nordlys"] }] }
          })
        ).not.toHaveProperty("stream")
      })
    )
  })
})
