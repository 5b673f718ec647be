import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import { LegacySearchException, LegacySearchSession, LegacySessionQuery } from "../../src/domain/LegacySession.js"
import {
  LegacyRecommendations,
  LegacySimilarProductsQuery,
  parseLegacyCrossSellingQuery,
  parseLegacySimilarProductsQuery
} from "../../src/domain/Recommendations.js"

const messages = <A>(result: Either.Either<A, ParseResult.ParseError>) =>
  Either.isLeft(result) ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((i) => [i.path, i.message]) : []

describe("legacy similar-products query", () => {
  it("parses every parameter from strings", () => {
    const query = parseLegacySimilarProductsQuery({
      "similar-products-count": "12",
      campaigns: "3, 4",
      "image-code": "front",
      color: "ff00AA",
      "excluded[]": ["brand:Acme,Foo", "color:red"],
      "category[]": [encodeCategoryPath("Shoes > Boots")],
      _: "1700000000"
    })
    expect(query).toEqual(
      Either.right({
        count: 12,
        campaigns: [3, 4],
        imageCode: "front",
        color: "ff00AA",
        excluded: [
          { column: "brand", values: ["Acme", "Foo"] },
          { column: "color", values: ["red"] }
        ],
        category: ["Shoes > Boots"]
      })
    )
  })

  it("accepts a parameter given once where it may repeat", () => {
    const query = parseLegacySimilarProductsQuery({
      "excluded[]": "brand:Acme",
      "category[]": encodeCategoryPath("Shoes")
    })
    expect(Either.getOrThrow(query)).toEqual({ excluded: [{ column: "brand", values: ["Acme"] }], category: ["Shoes"] })
  })

  it("names each broken parameter by its wire name", () => {
    const query = parseLegacySimilarProductsQuery({
      "similar-products-count": "1.5",
      campaigns: "3,x",
      color: "#ff00aa",
      "excluded[]": ["brand:Acme", "brand"],
      "category[]": "Shoes > Boots"
    })
    expect(messages(query)).toEqual([
      [["campaigns"], "must be comma-separated integer campaign ids"],
      [["color"], "must be 6 hexadecimal digits (RRGGBB)"],
      [["excluded[]"], '"brand" must be of the form <column>:<value>,<value>'],
      [["similar-products-count"], "must be an integer from 1 to 1000"],
      [["category[]", 0], "must be a Base64-URL (unpadded) encoded category path"]
    ])
  })

  it("rejects a bad colour", () => {
    expect(messages(parseLegacySimilarProductsQuery({ color: "fff" }))).toEqual([
      [["color"], "must be 6 hexadecimal digits (RRGGBB)"]
    ])
  })

  it("bounds the count", () => {
    expect(messages(parseLegacySimilarProductsQuery({ "similar-products-count": "0" }))).toEqual([
      [["similar-products-count"], "must be an integer from 1 to 1000"]
    ])
  })

  it("encodes back to wire names", () => {
    expect(Schema.encodeSync(LegacySimilarProductsQuery)({ count: 5, category: ["A"] })).toEqual({
      "similar-products-count": "5",
      "category[]": [encodeCategoryPath("A")]
    })
  })
})

describe("legacy cross-selling query", () => {
  it("reads its own count parameter and has no category[]", () => {
    expect(
      Either.getOrThrow(parseLegacyCrossSellingQuery({ "cross-selling-products-count": "3", "category[]": "x" }))
    ).toEqual({
      count: 3
    })
  })
})

describe("legacy bodies", () => {
  it("decodes a search session", () => {
    const session = {
      value: [{ productId: "p-1" }],
      type: "search",
      searchArea: {
        rel: ["search"],
        value: [{ name: "left", value: "0" }],
        method: "GET",
        href: "https://api.example/s/1"
      },
      filters: {
        type: "categories",
        value: { categories: [{ name: "Shoes", method: "GET", href: "https://api.example/s/1?c=1" }] }
      },
      links: { self: { method: "GET", href: "https://api.example/s/1" } },
      detectedObjects: [
        { value: { classId: 1, class: "shoe", score: 87, rectangle: { left: 10, top: 20, width: 30, height: 40 } } }
      ]
    }
    const result = Schema.decodeUnknownEither(LegacySearchSession, { onExcessProperty: "error" })(session)
    expect(messages(result)).toEqual([])
    const noScore = {
      ...session,
      detectedObjects: [{ value: { rectangle: session.detectedObjects[0].value.rectangle } }]
    }
    expect(messages(Schema.decodeUnknownEither(LegacySearchSession)(noScore))).toEqual([
      [["detectedObjects", 0, "value", "score"], "is missing"]
    ])
  })

  it("reads the session query", () => {
    expect(Schema.decodeUnknownSync(LegacySessionQuery)({ "campaign-id": "9", "excluded[]": "brand:A" })).toEqual({
      campaignId: 9,
      excluded: [{ column: "brand", values: ["A"] }]
    })
    expect(messages(Schema.decodeUnknownEither(LegacySessionQuery)({ "campaign-id": "x" }))).toEqual([
      [["campaign-id"], "must be an integer campaign id"]
    ])
  })

  it("allows a search exception without debug, and recommendations need both lists", () => {
    expect(Schema.decodeUnknownSync(LegacySearchException)({ message: "m", data: null })).toEqual({
      message: "m",
      data: null
    })
    expect(messages(Schema.decodeUnknownEither(LegacyRecommendations)({ bestFits: [] }))).toEqual([
      [["extended"], "is missing"]
    ])
  })
})
