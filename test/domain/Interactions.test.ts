import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import { Interactions, Rectangle } from "../../src/domain/Interactions.js"

const issuesOf = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const result = Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })(input)
  return Either.isLeft(result)
    ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((i) => [i.path, i.message])
    : []
}

describe("Rectangle", () => {
  it.each([
    [{ left: 0, top: 0, width: 1, height: 1 }],
    [{ left: 0.25, top: 0.5, width: 0.5, height: 0.5 }],
    [{ left: 0.7, top: 0.1, width: 0.3, height: 0 }]
  ])("accepts %j", (rectangle) => {
    expect(issuesOf(Rectangle, rectangle)).toEqual([])
  })

  it.each([
    ["left", { left: -0.1, top: 0, width: 0.5, height: 0.5 }],
    ["top", { left: 0, top: 1.5, width: 0.5, height: 0.5 }],
    ["width", { left: 0, top: 0, width: 2, height: 0.5 }],
    ["height", { left: 0, top: 0, width: 0.5, height: -1 }]
  ])("rejects %s outside [0,1]", (field, rectangle) => {
    expect(issuesOf(Rectangle, rectangle)).toEqual([[[field], "must be a number in [0, 1]"]])
  })

  it("rejects a rectangle reaching past the image edge", () => {
    expect(issuesOf(Rectangle, { left: 0.6, top: 0, width: 0.5, height: 0.5 })).toEqual([
      [[], "left + width must be at most 1 (the rectangle must lie inside the image)"]
    ])
    expect(issuesOf(Rectangle, { left: 0, top: 0.9, width: 0.5, height: 0.2 })).toEqual([
      [[], "top + height must be at most 1 (the rectangle must lie inside the image)"]
    ])
  })
})

describe("Interactions", () => {
  const interactions = {
    dynamicFilters: [
      {
        type: "categorical" as const,
        column: "category",
        label: "Category",
        isPrimary: true,
        values: [{ value: ["Home > Kitchen"], label: "Kitchen", active: true, selected: false, count: 3 }]
      },
      {
        type: "interval" as const,
        column: "price",
        label: "Price",
        isPrimary: false,
        values: [{ value: { start: 0, end: 50 }, label: "under 50", active: true, selected: true, count: 3 }]
      },
      {
        type: "categorical" as const,
        column: "brand",
        label: "Brand",
        isPrimary: false,
        values: [{ value: "Acme", label: "Acme", active: true, selected: false, count: 3 }]
      }
    ],
    suggestedSearchAreas: [{ rectangle: { left: 0, top: 0, width: 0.5, height: 0.5 } }],
    redirect: { url: "https://shop.example/sale" }
  }

  it("encodes category values as base64url and leaves intervals and strings as they are", () => {
    const wire = Schema.encodeSync(Interactions)(interactions)
    expect(wire.dynamicFilters[0].values[0].value).toEqual([encodeCategoryPath("Home > Kitchen")])
    expect(wire.dynamicFilters[1].values[0].value).toEqual({ start: 0, end: 50 })
    expect(wire.dynamicFilters[2].values[0].value).toBe("Acme")
    expect(Schema.decodeSync(Interactions)(wire)).toEqual(interactions)
  })

  it("requires dynamicFilters and a known filter type", () => {
    expect(issuesOf(Interactions, {})).toEqual([[["dynamicFilters"], "is missing"]])
    const wrongType = { dynamicFilters: [{ ...interactions.dynamicFilters[2], type: "range" }] }
    expect(issuesOf(Interactions, wrongType)).toEqual([
      [["dynamicFilters", 0, "type"], "must be one of: categorical, interval"]
    ])
  })

  it("requires an absolute redirect url", () => {
    expect(issuesOf(Interactions, { dynamicFilters: [], redirect: { url: "/sale" } })).toEqual([
      [["redirect", "url"], "must be an absolute URI"]
    ])
  })
})
