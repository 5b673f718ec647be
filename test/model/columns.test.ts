import { describe, expect, it } from "vitest"
import type { ProductRecord } from "../../src/domain/Product.js"
import { facetColumns, filterTerm, findColumn, titleKey, titleOrder } from "../../src/model/Columns.js"
import type { ImageAnalysisRecord } from "../../src/model/ImageAnalysis.js"
import { toIndexDocument } from "../../src/model/ProductDocument.js"
import type { StoredProduct } from "../../src/model/StoredProduct.js"

const product = (data: Partial<ProductRecord>): StoredProduct => ({
  siteId: 1,
  productId: "p",
  data: data as ProductRecord,
  images: [],
  version: 1,
  textVersion: 1,
  updatedAt: 0,
  createdAt: 0
})

const photo = (colors: ReadonlyArray<string>): ImageAnalysisRecord => ({
  imageId: "img",
  url: "https://img.example.com/a.jpg",
  status: "ok",
  reason: null,
  embedding: null,
  adult: 0.2,
  colors: colors.map((name) => ({ name, hex: "#000000", share: 0.3 })),
  objects: [{ classId: 1, class: "mug", score: 0.9, rectangle: { left: 0, top: 0, width: 1, height: 1 } }],
  analyzedAt: 0
})

describe("column table", () => {
  it("computes every column of a product's payload from its record, normalised as filters match it", () => {
    const doc = toIndexDocument(
      product({
        shopping_product_category: "Home > Kitchen",
        product_type: "Kitchen > Mugs, Gifts",
        brand: "  Acme ",
        material: "   ",
        color: "Red/Black",
        gtin: "4006381333931, 12345678",
        price: 20,
        sale_price: 15,
        adult: false
      }),
      null
    )
    expect(doc.payload).toMatchObject({
      category: ["Home", "Home > Kitchen", "Kitchen", "Kitchen > Mugs", "Gifts"],
      shopping_product_category: ["Home", "Home > Kitchen"],
      product_type: ["Kitchen", "Kitchen > Mugs", "Gifts"],
      brand: "Acme",
      material: null,
      color: ["red", "black"],
      gtin: ["4006381333931", "12345678"],
      price: 15,
      list_price: 20,
      sale_price: 15,
      multipack: null,
      adult: false,
      image_color: [],
      image_object: []
    })
    expect(Object.keys(doc.payload)).toHaveLength(36)
    expect(
      doc.text.extra
        .split(/\s+/)
        .filter((w) => w.length > 0)
        .sort()
    ).toEqual(["12345678", "4006381333931,", "Red/Black"].sort())
  })

  it("orders titles A–Z by number (case and accents folded, shorter first); keeps when a product was added", () => {
    const order = (title: string) => titleOrder(title)!
    expect(order("apple") < order("Banana")).toBe(true)
    expect(order("Écran 24") < order("ecran 27")).toBe(true)
    expect(order("Saw") < order("saw blade")).toBe(true)
    expect(order("Saw") < order("saws")).toBe(true)
    expect(order("10 nails") < order("9 nails")).toBe(true)
    expect(order("Hammer — steel")).toBe(order("hammer steel"))
    expect(titleOrder("  ")).toBeNull()
    expect(order("zzzzzzzzzzzzzz")).toBeLessThan(2 ** 53)
    const doc = toIndexDocument({ ...product({ title: "Mug" }), createdAt: 1234 }, null)
    expect(doc.payload).toMatchObject({
      title_order: order("mug"),
      title_sort: "mug",
      added_at: 1234,
      title_key: titleKey("MUG")
    })
    expect(titleKey("LED Bulb, 60W")).toBe(titleKey("led bulb 60w"))
    expect(titleKey("LED Bulb 60W")).not.toBe(titleKey("LED Bulb 40W"))
  })

  it("a product without a colour of its own is filterable by the colours of its photos", () => {
    const doc = toIndexDocument(product({ title: "Mug" }), null, [photo(["white", "blue", "grey"])])
    expect(doc.payload).toMatchObject({
      color: ["white", "blue"],
      image_color: ["white", "blue", "grey"],
      image_object: ["mug"]
    })
    expect(toIndexDocument(product({ color: "Green" }), null, [photo(["white"])]).payload.color).toEqual(["green"])
  })

  it("filter values of colour columns match by lowercase name, also when written `<color> > <hex>`", () => {
    const color = findColumn("color")!
    expect(filterTerm(color, " Red ")).toBe("red")
    expect(filterTerm(color, "Red > #FF0000")).toBe("red")
    expect(filterTerm(findColumn("brand")!, " Acme ")).toBe(" Acme ")
  })

  it("a record colour written `<color> > <hex>` is held as its name, so a filter on it matches", () => {
    const doc = toIndexDocument(product({ color: "Red > #FF0000" }), null)
    const color = findColumn("color")!
    expect(doc.payload.color).toEqual(["red"])
    expect(doc.payload.color).toContain(filterTerm(color, "Red > #ff0000"))
    expect(toIndexDocument(product({ color: "Navy > #000080, White > #FFFFFF" }), null).payload.color).toEqual([
      "navy",
      "white"
    ])
  })

  it("offers facets in display order, the first three primary", () => {
    expect(facetColumns.map((c) => c.name)).toEqual([
      "category",
      "brand",
      "price",
      "color",
      "availability",
      "gender",
      "age_group",
      "size",
      "material",
      "pattern",
      "condition"
    ])
    expect(facetColumns.filter((c) => c.facet.primary).map((c) => c.name)).toEqual(["category", "brand", "price"])
  })
})
