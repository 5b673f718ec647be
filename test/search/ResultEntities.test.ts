import { describe, expect, it } from "vitest"
import type { ProductRecord } from "../../src/domain/Product.js"
import { toResultEntity } from "../../src/search/ResultEntities.js"
import type { StoredProduct } from "../../src/model/StoredProduct.js"

const stored = (data: Record<string, unknown>, images: ReadonlyArray<string> = []): StoredProduct => ({
  siteId: 1,
  productId: "p",
  data: data as ProductRecord,
  images: images.map((url, i) => ({ id: `i${i}`, url })),
  version: 1,
  textVersion: 1,
  updatedAt: 0,
  createdAt: 0
})

describe("toResultEntity", () => {
  it("states the price per kilogram or litre from the product weight, multipacks included", () => {
    expect(toResultEntity(stored({ title: "Coffee", price: 2.5, product_weight: "500 g" })).basePrice).toEqual({
      actual: { price: 5, quantity: 1, measure: "kg" },
      sale: { price: null, quantity: 1, measure: "kg" }
    })
    expect(
      toResultEntity(stored({ title: "Water", price: 3, sale_price: 2.4, product_weight: "500 ml", multipack: 6 }))
        .basePrice
    ).toEqual({ actual: { price: 1, quantity: 1, measure: "l" }, sale: { price: 0.8, quantity: 1, measure: "l" } })
  })

  it("leaves the base price out when the weight has no unit it can normalise", () => {
    expect(toResultEntity(stored({ title: "Rope", price: 9, product_weight: "3 m" }))).not.toHaveProperty("basePrice")
    expect(toResultEntity(stored({ title: "Air", price: 9, product_weight: "0 kg" }))).not.toHaveProperty("basePrice")
    expect(toResultEntity(stored({ title: "Plain", price: 9 }))).not.toHaveProperty("basePrice")
  })

  it("takes the first image as the main one, and the first product type", () => {
    const entity = toResultEntity(
      stored({ title: "Mug", product_type: "Home > Kitchen > Mugs, Gifts > Mugs" }, [
        "https://x/1.jpg",
        "https://x/2.jpg"
      ])
    )
    expect(entity.image).toEqual({ original: "https://x/1.jpg", thumbnail: null })
    expect(entity.images?.map((i) => i.original)).toEqual(["https://x/1.jpg", "https://x/2.jpg"])
    expect(entity.productType).toBe("Home > Kitchen > Mugs")
  })

  it("gives null, never undefined, for fields the record does not have", () => {
    const entity = toResultEntity(stored({}))
    expect(entity).toMatchObject({
      title: "",
      brand: null,
      deeplink: null,
      groupId: null,
      productType: null,
      price: { actual: null, sale: null }
    })
    expect(entity).not.toHaveProperty("image")
    expect(Object.values(entity)).not.toContain(undefined)
  })
})
