import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { AutoSuggestRequest, AutoSuggestResponse } from "../../src/domain/AutoSuggest.js"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import { ProductId, SetProductBody } from "../../src/domain/Catalog.js"
import { PredictedAttributesResponse } from "../../src/domain/PredictedAttributes.js"
import { SimilarProductsRequest } from "../../src/domain/Recommendations.js"
import { TextSearchRequest } from "../../src/domain/Search.js"
import { imageSourceOf, VisualSearchRequest } from "../../src/domain/Visual.js"

const issuesOf = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const result = Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })(input)
  return Either.isLeft(result)
    ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((i) => [i.path, i.message])
    : []
}

describe("TextSearchRequest", () => {
  it("accepts a full request", () => {
    const request = {
      requestId: "r-1",
      query: "red boots",
      resultsCount: 1000,
      campaign: 7,
      staticFilters: { excluded: [{ column: "brand", values: ["Acme"] }] },
      dynamicFilters: [{ column: "price", values: { start: 10 } }]
    }
    expect(issuesOf(TextSearchRequest, request)).toEqual([])
  })

  it("bounds the query, the result count and the offset", () => {
    // No words browses the scope.
    expect(issuesOf(TextSearchRequest, { query: "  " })).toEqual([])
    expect(issuesOf(TextSearchRequest, {})).toEqual([])
    expect(issuesOf(TextSearchRequest, { offset: 10_000 })).toEqual([])
    expect(issuesOf(TextSearchRequest, { offset: -1 })).toEqual([[["offset"], "must be an integer from 0 to 10000"]])
    expect(issuesOf(TextSearchRequest, { offset: 10_001 })).toEqual([
      [["offset"], "must be an integer from 0 to 10000"]
    ])
    expect(issuesOf(TextSearchRequest, { offset: 2.5 })).toEqual([[["offset"], "must be an integer from 0 to 10000"]])
    expect(issuesOf(TextSearchRequest, { query: "q".repeat(500) })).toEqual([])
    expect(issuesOf(TextSearchRequest, { query: "q".repeat(501) })).toEqual([
      [["query"], "must be at most 500 characters"]
    ])
    expect(issuesOf(TextSearchRequest, { query: "q", resultsCount: 0, campaign: 1.5 })).toEqual([
      [["resultsCount"], "must be an integer from 1 to 1000"],
      [["campaign"], "must be an integer campaign id"]
    ])
    expect(issuesOf(TextSearchRequest, { query: "q", resultsCount: 1001 })).toEqual([
      [["resultsCount"], "must be an integer from 1 to 1000"]
    ])
  })

  it("takes up to 3 sort keys over price, title, newest, popular and trending, each column once", () => {
    const price = { column: "price", order: "asc" }
    expect(issuesOf(TextSearchRequest, { sort: [price, { column: "newest", order: "desc" }] })).toEqual([])
    expect(
      issuesOf(TextSearchRequest, {
        sort: [
          { column: "popular", order: "desc" },
          { column: "trending", order: "desc" }
        ]
      })
    ).toEqual([])
    expect(issuesOf(TextSearchRequest, { sort: [price, price] })).toEqual([[["sort"], "must not name a column twice"]])
    expect(
      issuesOf(TextSearchRequest, {
        sort: [price, { column: "title", order: "asc" }, { column: "newest", order: "asc" }, price]
      })
    ).toEqual([[["sort"], "must have at most 3 keys"]])
    expect(issuesOf(TextSearchRequest, { sort: [{ column: "rating", order: "asc" }] })).toEqual([
      [["sort", 0, "column"], "must be one of: price, title, newest, popular, trending"]
    ])
    expect(issuesOf(TextSearchRequest, { collapseVariants: "yes" })).toHaveLength(1)
  })

  it("rejects unknown fields by name", () => {
    expect(issuesOf(TextSearchRequest, { query: "q", limit: 5 })[0]?.[0]).toEqual(["limit"])
  })
})

describe("SimilarProductsRequest", () => {
  it("decodes substituted categories to text", () => {
    const request = Schema.decodeUnknownSync(SimilarProductsRequest)({
      productId: "p-1",
      campaigns: [1, 2],
      substitutions: { category: [encodeCategoryPath("Shoes > Boots")], price: 20 }
    })
    expect(request.substitutions?.category).toEqual(["Shoes > Boots"])
  })

  it("requires a product id and valid substitutions", () => {
    expect(
      issuesOf(SimilarProductsRequest, { productId: "", substitutions: { category: ["Shoes > Boots"], price: -1 } })
    ).toEqual([
      [["productId"], "must not be empty"],
      [["substitutions", "category", 0], "must be a Base64-URL (unpadded) encoded category path"],
      [["substitutions", "price"], "must be a finite number >= 0"]
    ])
  })
})

describe("VisualSearchRequest", () => {
  const decode = Schema.decodeUnknownSync(VisualSearchRequest)

  it("prefers the image over the url, and a repeated requestId over nothing", () => {
    const image = "data:image/png;base64,iVBORw0KGgo="
    expect(imageSourceOf(decode({ query: { image, url: "https://cdn.example/a.jpg" } }))).toEqual({
      _tag: "Image",
      image
    })
    expect(imageSourceOf(decode({ query: { url: "https://cdn.example/a.jpg" } }))).toEqual({
      _tag: "Url",
      url: "https://cdn.example/a.jpg"
    })
    expect(imageSourceOf(decode({ requestId: "r-1", query: {} }))).toEqual({ _tag: "Stored", requestId: "r-1" })
    expect(imageSourceOf(decode({ query: {} }))).toBeUndefined()
  })

  it("validates the image, url, search area and object detection", () => {
    const request = {
      query: {
        image: "not an image!",
        url: "file:///etc/passwd",
        searchArea: { left: 0.5, top: 0, width: 0.6, height: 1 }
      },
      objectDetection: { include: "yes" }
    }
    expect(issuesOf(VisualSearchRequest, request)).toEqual([
      [["query", "image"], "must be a base64 image or a data URL (data:image/...;base64,...)"],
      [["query", "url"], "must be an absolute http(s) URL"],
      [["query", "searchArea"], "left + width must be at most 1 (the rectangle must lie inside the image)"],
      [["objectDetection", "include"], 'Expected boolean, actual "yes"']
    ])
  })
})

describe("AutoSuggestRequest", () => {
  it("accepts an empty partial query and bounds its length", () => {
    expect(issuesOf(AutoSuggestRequest, { query: "" })).toEqual([])
    expect(issuesOf(AutoSuggestRequest, { query: "q".repeat(201) })).toEqual([
      [["query"], "must be at most 200 characters"]
    ])
    expect(issuesOf(AutoSuggestRequest, {})).toEqual([[["query"], "is missing"]])
  })

  it("responds with completions whose url may be null", () => {
    const response = {
      data: { query: "bo", completions: [{ suggestion: "boots", url: null }, { suggestion: "bose" }] }
    }
    expect(issuesOf(AutoSuggestResponse, response)).toEqual([])
  })
})

describe("catalog", () => {
  it.each([["p-1"], ["SKU 42 äöü"], ["a".repeat(200)]])("accepts the product id %s", (id) => {
    expect(issuesOf(ProductId, id)).toEqual([])
  })

  it.each([
    ["", "must not be empty"],
    ["a".repeat(201), "must be at most 200 characters"],
    ["a/b", 'must not contain "/"'],
    ["a\nb", "must not contain control characters"]
  ])("rejects the product id %j", (id, message) => {
    expect(issuesOf(ProductId, id)).toEqual([[[], message]])
  })

  it("takes a product record with optional images", () => {
    expect(issuesOf(SetProductBody, { data: { title: "T" } })).toEqual([])
    expect(issuesOf(SetProductBody, { data: { title: "T" }, images: [] })).toEqual([])
    expect(issuesOf(SetProductBody, { images: [] })).toEqual([[["data"], "is missing"]])
  })
})

describe("predicted attributes", () => {
  it("accepts any value, including null", () => {
    const response = {
      id: "p-1",
      attributes: [{ name: "color", value: null, prediction: ["red", 0.9], confirmed: "red" }],
      images: [
        { url: "https://cdn.example/a.jpg", attributes: [{ name: "pattern", value: "plain", prediction: null }] }
      ]
    }
    expect(issuesOf(PredictedAttributesResponse, response)).toEqual([])
    expect(issuesOf(PredictedAttributesResponse, { ...response, images: [{ url: "x" }] })).toEqual([
      [["images", 0, "attributes"], "is missing"]
    ])
  })
})
