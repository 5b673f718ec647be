import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import { ResultEntity } from "../../src/domain/ResultEntity.js"
import { SearchResponse } from "../../src/domain/Search.js"
import { SimilarProductsResponse } from "../../src/domain/Recommendations.js"

const issuesOf = (input: unknown) => {
  const result = Schema.decodeUnknownEither(ResultEntity, { onExcessProperty: "error", errors: "all" })(input)
  return Either.isLeft(result)
    ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((i) => [i.path, i.message])
    : []
}

const entity: ResultEntity = {
  entityType: "product",
  productId: "p-1",
  groupId: null,
  title: "Chef knife",
  deeplink: "https://shop.example/p-1",
  brand: "Acme",
  productType: "Home > Kitchen, Gifts > For cooks",
  image: { original: "https://cdn.example/p-1.jpg", thumbnail: null },
  price: { actual: 49.9, sale: null },
  basePrice: { actual: { price: 10, quantity: 1, measure: "kg" } },
  energyEfficiencyClass: "A++",
  energyCertifications: [
    {
      certificationClass: "B",
      classIconUrls: { left: "https://cdn.example/l.svg", right: "https://cdn.example/r.svg" },
      classRange: { min: "A+++", max: null }
    }
  ],
  custom_label_0: null
}

describe("ResultEntity", () => {
  it("encodes productType paths as comma-joined base64url and decodes them back", () => {
    const wire = Schema.encodeSync(ResultEntity)(entity)
    expect(wire.productType).toBe(`${encodeCategoryPath("Home > Kitchen")},${encodeCategoryPath("Gifts > For cooks")}`)
    expect(wire.productType).toMatch(/^[A-Za-z0-9_,-]+$/)
    expect(Schema.decodeUnknownSync(ResultEntity)(wire)).toEqual(entity)
  })

  it("leaves out fields set to undefined when encoding", () => {
    const wire = Schema.encodeSync(ResultEntity)({ productId: "p-2", title: undefined, images: undefined })
    expect(wire).toEqual({ productId: "p-2" })
    expect(JSON.stringify(wire)).toBe('{"productId":"p-2"}')
  })

  it("requires the thumbnail key on an image, but lets it be null", () => {
    expect(issuesOf({ image: { original: "https://cdn.example/a.jpg" } })).toEqual([
      [["image", "thumbnail"], "is missing"]
    ])
    expect(issuesOf({ image: { original: "https://cdn.example/a.jpg", thumbnail: "a.jpg" } })).toEqual([
      [["image", "thumbnail"], "must be an absolute URI"]
    ])
  })

  it("lists the allowed entity types and energy classes", () => {
    expect(issuesOf({ entityType: "page", kind: "list", maxEnergyEfficiencyClass: "A++++" })).toEqual([
      [["kind"], "must be one of: product, content"],
      [["entityType"], "must be one of: product, content, list"],
      [["maxEnergyEfficiencyClass"], "must be one of: A+++, A++, A+, A, B, C, D, E, F, G"]
    ])
  })

  it("rejects a productType that is not base64url on the wire", () => {
    expect(issuesOf({ productType: "Home > Kitchen" })[0]?.[0]).toEqual(["productType"])
  })
})

describe("responses carrying category paths", () => {
  it("encode every path of a search response as base64url", () => {
    const wire = Schema.encodeSync(SearchResponse)({
      data: {
        products: [entity],
        interactions: {
          dynamicFilters: [
            {
              type: "categorical",
              column: "category",
              label: "Category",
              isPrimary: true,
              values: [{ value: ["Home", "Home > Kitchen"], label: "Kitchen", active: true, selected: true, count: 2 }]
            }
          ]
        }
      }
    })
    expect(wire.data.products[0].productType).toBe(
      `${encodeCategoryPath("Home > Kitchen")},${encodeCategoryPath("Gifts > For cooks")}`
    )
    expect(wire.data.interactions?.dynamicFilters[0].values[0].value).toEqual([
      encodeCategoryPath("Home"),
      encodeCategoryPath("Home > Kitchen")
    ])
  })

  it("encode applied substitutions of similar products as base64url", () => {
    const wire = Schema.encodeSync(SimilarProductsResponse)({
      data: { sourceProduct: { productId: "p-1" }, products: [] },
      substitutions: [{ column: "category", value: { value: ["Shoes > Boots"], label: "Boots" } }]
    })
    expect(wire.substitutions?.[0].value.value).toEqual([encodeCategoryPath("Shoes > Boots")])
  })
})
