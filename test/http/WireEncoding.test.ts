import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { ResultEntity } from "../../src/domain/ResultEntity.js"
import { SimilarProductsResponse } from "../../src/domain/Recommendations.js"
import { wireEncoder } from "../../src/http/WireEncoding.js"

describe("wireEncoder", () => {
  it("encodes as Effect does: optional and nullable fields, category paths, undeclared keys dropped", () => {
    const entity = {
      kind: "product",
      entityType: undefined, // an explicit undefined optional field is left out
      groupId: null,
      productId: "lamp-1",
      title: "Floor lamp",
      deeplink: null,
      brand: "Northwood",
      productType: "Home > Lighting > Floor Lamps, Home > Sale", // Base64-URL paths on the wire
      images: [{ original: "https://img.example.com/1.jpg", thumbnail: null }],
      price: { actual: 80.99, sale: null },
      basePrice: { actual: { price: 4.13, quantity: 1, measure: "kg" } },
      energyEfficiencyClass: "C",
      internal: "not on the wire"
    } as unknown as ResultEntity
    const fast = wireEncoder(ResultEntity)(entity)
    expect(fast).toEqual(Schema.encodeSync(ResultEntity)(entity))
    expect(fast).not.toHaveProperty("internal")
    expect(fast).not.toHaveProperty("entityType")
    expect(fast.productType).not.toContain(">")
    const response = {
      data: { sourceProduct: entity, products: [entity, { ...entity, productId: "lamp-2", productType: null }] }
    } as unknown as SimilarProductsResponse
    expect(wireEncoder(SimilarProductsResponse)(response)).toEqual(Schema.encodeSync(SimilarProductsResponse)(response))
  })
})
