import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  parseGtins,
  parseHighlights,
  parseMeasure,
  parseProductDetails,
  parseProductTypes,
  ProductImages,
  ProductRecord
} from "../../src/domain/Product.js"

const Body = Schema.Struct({ data: ProductRecord })

const issuesOf = (input: unknown) => {
  const result = Schema.decodeUnknownEither(Body, { onExcessProperty: "error", errors: "all" })({ data: input })
  return Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left) : []
}

/** The single issue of a one-field record, as path and message. */
const issueOf = (field: string, value: unknown) => {
  const issues = issuesOf({ [field]: value })
  expect(issues).toHaveLength(1)
  expect(issues[0].path).toEqual(["data", field])
  return issues[0].message
}

describe("ProductRecord enumerations", () => {
  const energy = ["A+++", "A++", "A+", "A", "B", "C", "D", "E", "F", "G"]
  it.each([
    ["availability", ["in_stock", "out_of_stock", "preorder", "backorder"]],
    ["condition", ["new", "refurbished", "used"]],
    ["energy_efficiency_class", energy],
    ["min_energy_efficiency_class", energy],
    ["max_energy_efficiency_class", energy],
    ["age_group", ["newborn", "infant", "toddler", "kids", "adult"]],
    ["gender", ["male", "female", "unisex"]],
    ["size_type", ["regular", "petite", "tall", "plus", "big", "maternity"]],
    ["size_system", ["AU", "BR", "CN", "DE", "EU", "FR", "IT", "JP", "MEX", "UK", "US"]]
  ])("%s accepts exactly its values and lists them when rejecting", (field, allowed) => {
    for (const value of allowed) expect(issuesOf({ [field]: value })).toEqual([])
    expect(issueOf(field, "other")).toBe(`must be one of: ${allowed.join(", ")}`)
    expect(
      issueOf(field, allowed[0].toLowerCase() === allowed[0] ? allowed[0].toUpperCase() : allowed[0].toLowerCase())
    ).toMatch(/^must be one of/)
  })
})

describe("ProductRecord length bounds", () => {
  it.each([
    ["shopping_product_category", 500, "a"],
    ["product_type", 3758, "a"],
    ["brand", 70, "b"],
    ["mpn", 70, "m"],
    ["item_group_id", 50, "g"],
    ["promotion_id", 50, "p"],
    ["color", 100, "c"],
    ["pattern", 100, "p"],
    ["size", 100, "s"],
    ["material", 200, "m"]
  ])("%s accepts %i characters and rejects one more", (field, max, char) => {
    expect(issuesOf({ [field]: char.repeat(max) })).toEqual([])
    expect(issueOf(field, char.repeat(max + 1))).toBe(`must be at most ${max} characters`)
  })

  it("gtin accepts 158 characters of codes and rejects 159", () => {
    const codes = (n: number) => Array.from({ length: n }, () => "12345678901234").join(",")
    expect(`${codes(10)},12345678`).toHaveLength(158)
    expect(issuesOf({ gtin: `${codes(10)},12345678` })).toEqual([])
    expect(issueOf("gtin", `${codes(10)},123456789`)).toBe("must be at most 158 characters")
  })

  it("product_highlight accepts 1518 characters and rejects 1519", () => {
    const highlight = (length: number) => `"${"h".repeat(length - 2)}"`
    expect(issuesOf({ product_highlight: highlight(1518) })).toEqual([])
    expect(issueOf("product_highlight", highlight(1519))).toBe("must be at most 1518 characters")
  })

  it("reports the brand bound with the wire path", () => {
    expect(issuesOf({ brand: "x".repeat(71) })).toEqual([
      { _tag: "Composite", path: ["data", "brand"], message: "must be at most 70 characters" }
    ])
  })
})

describe("ProductRecord formats", () => {
  it.each(["10.5 cm", "3 kg", "12 in", "0.25  lb"])("accepts the measure %s", (measure) => {
    expect(issuesOf({ product_length: measure, product_weight: measure })).toEqual([])
  })

  it.each(["10.5cm", "cm 10", "10,5 cm", "-1 cm", "10", "ten cm", "10 cm extra"])(
    "rejects the measure %s",
    (measure) => {
      expect(issueOf("product_height", measure)).toMatch(/<number> <unit>/)
    }
  )

  it("parses a measure into value and unit", () => {
    expect(parseMeasure(" 10.5 cm ")).toEqual({ value: 10.5, unit: "cm" })
    expect(parseMeasure("10.5cm")).toBeNull()
  })

  it("validates and parses product details", () => {
    const details = "General:Weight:2 kg, :Colour:red,Display:Ratio:16:9"
    expect(issuesOf({ product_detail: details })).toEqual([])
    expect(parseProductDetails(details)).toEqual([
      { section: "General", attribute: "Weight", value: "2 kg" },
      { section: "", attribute: "Colour", value: "red" },
      { section: "Display", attribute: "Ratio", value: "16:9" }
    ])
    expect(issueOf("product_detail", "General:Weight")).toMatch(/<section>:<attribute>:<value>/)
    expect(issueOf("product_detail", "a:b:c,,d:e:f")).toMatch(/<section>:<attribute>:<value>/)
    expect(parseProductDetails("General:Weight, a:b:c")).toEqual([{ section: "a", attribute: "b", value: "c" }])
  })

  it("keeps commas inside quoted highlights", () => {
    const highlights = '"Quiet, fast and light" ,"Two ""pro"" modes","Washable"'
    expect(issuesOf({ product_highlight: highlights })).toEqual([])
    expect(parseHighlights(highlights)).toEqual(["Quiet, fast and light", 'Two "pro" modes', "Washable"])
  })

  it.each(["Quiet, fast", '"unterminated', '"a" "b"', '"a",', '"a",""'])("rejects the highlights %s", (highlights) => {
    expect(issueOf("product_highlight", highlights)).toBe("must be a comma-separated list of double-quoted highlights")
  })

  it("parses unquoted highlights of older data by commas", () => {
    expect(parseHighlights("Quiet, fast")).toEqual(["Quiet", "fast"])
  })

  it.each(["12345678", "123456789012", "1234567890123", "12345678901234", "12345678, 1234567890123"])(
    "accepts the gtin %s",
    (gtin) => expect(issuesOf({ gtin })).toEqual([])
  )

  it.each(["1234567", "12345678901", "123456789012345", "1234567a", "12345678,,12345678"])(
    "rejects the gtin %s",
    (gtin) => {
      expect(issueOf("gtin", gtin)).toBe("must be a comma-separated list of GTIN codes of 8, 12, 13 or 14 digits")
    }
  )

  it("splits gtin codes", () => {
    expect(parseGtins(" 12345678 ,1234567890123")).toEqual(["12345678", "1234567890123"])
  })

  it("validates product types and parses them to normalized paths", () => {
    expect(issuesOf({ product_type: "Home>Kitchen, Gifts" })).toEqual([])
    expect(parseProductTypes("Home>Kitchen, Gifts , ")).toEqual(["Home > Kitchen", "Gifts"])
    expect(issueOf("product_type", "Home > Kitchen, > ")).toBe("must be a comma-separated list of category paths")
  })

  it("rejects a shopping category without any label", () => {
    expect(issueOf("shopping_product_category", " > ")).toMatch(/category path/)
  })

  it.each([["price"], ["sale_price"]])("%s must be a finite number >= 0", (field) => {
    expect(issuesOf({ [field]: 0 })).toEqual([])
    expect(issueOf(field, -0.01)).toBe("must be a finite number >= 0")
    expect(issueOf(field, "9.99")).toBe('Expected number, actual "9.99"')
  })

  it("multipack must be an integer >= 1", () => {
    expect(issuesOf({ multipack: 6 })).toEqual([])
    expect(issueOf("multipack", 0)).toBe("must be an integer >= 1")
    expect(issueOf("multipack", 1.5)).toBe("must be an integer >= 1")
  })

  it.each([["link"], ["mobile_link"]])("%s must be an absolute http(s) URL", (field) => {
    expect(issuesOf({ [field]: "https://shop.example/p/1" })).toEqual([])
    expect(issueOf(field, "/p/1")).toBe("must be an absolute http(s) URL")
    expect(issueOf(field, "ftp://shop.example/p/1")).toBe("must be an absolute http(s) URL")
  })

  it("booleans are booleans", () => {
    expect(issuesOf({ adult: false, is_bundle: true })).toEqual([])
    expect(issueOf("adult", "yes")).toBe('Expected boolean, actual "yes"')
  })
})

describe("ProductRecord shape", () => {
  it("accepts null for every field", () => {
    const fields = Object.keys(ProductRecord.fields)
    expect(fields).toHaveLength(40)
    expect(issuesOf(Object.fromEntries(fields.map((f) => [f, null])))).toEqual([])
  })

  it("accepts the empty record", () => {
    expect(issuesOf({})).toEqual([])
  })

  it("rejects an unknown field, naming it in the path", () => {
    const issues = issuesOf({ title: "T", colour: "red" })
    expect(issues).toHaveLength(1)
    expect(issues[0].path).toEqual(["data", "colour"])
    expect(issues[0].message).toMatch(/^is unexpected/)
  })

  it("reports every broken field at once", () => {
    const issues = issuesOf({ brand: "b".repeat(71), gender: "x", price: -1 })
    expect(issues.map((i) => i.path[1]).sort()).toEqual(["brand", "gender", "price"])
  })

  it("requires absolute http(s) image URLs", () => {
    const decode = Schema.decodeUnknownEither(ProductImages, { onExcessProperty: "error" })
    expect(decode([{ url: "https://cdn.example/1.jpg" }])).toEqual(Either.right([{ url: "https://cdn.example/1.jpg" }]))
    expect(Either.isLeft(decode([{ url: "1.jpg" }]))).toBe(true)
    expect(Either.isLeft(decode([{ url: "https://cdn.example/1.jpg", id: 1 }]))).toBe(true)
  })
})
