import { Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  DynamicFilter,
  Interval,
  LegacyExcludedFilters,
  parseColorPath,
  parseExcludedClause
} from "../../src/domain/Filters.js"

const issuesOf = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const result = Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })(input)
  return Either.isLeft(result)
    ? ParseResult.ArrayFormatter.formatErrorSync(result.left).map((i) => [i.path, i.message])
    : []
}

describe("Interval", () => {
  it.each([[{ start: 1, end: 2 }], [{ start: 10 }], [{ end: 0 }], [{ start: -5.5, end: -5 }]])(
    "accepts %j",
    (interval) => {
      expect(issuesOf(Interval, interval)).toEqual([])
    }
  )

  it("needs at least one bound", () => {
    expect(issuesOf(Interval, {})).toEqual([[[], "an interval must have a start or an end"]])
  })

  it("is half-open, so start must be below end", () => {
    expect(issuesOf(Interval, { start: 2, end: 2 })).toEqual([[[], "an interval's start must be less than its end"]])
    expect(issuesOf(Interval, { start: 3, end: 2 })).toEqual([[[], "an interval's start must be less than its end"]])
  })

  it("rejects unknown bounds", () => {
    expect(issuesOf(Interval, { from: 1 })[0]?.[0]).toEqual(["from"])
  })
})

describe("DynamicFilter", () => {
  it("keeps string values as strings and accepts intervals", () => {
    expect(Schema.decodeUnknownSync(DynamicFilter)({ column: "color", values: ["red > #FF0000"] })).toEqual({
      column: "color",
      values: ["red > #FF0000"]
    })
    expect(issuesOf(DynamicFilter, { column: "price", values: { start: 10, end: 20 } })).toEqual([])
  })

  it("requires a non-empty column and values", () => {
    expect(issuesOf(DynamicFilter, { column: "", values: [] })).toEqual([[["column"], "must not be empty"]])
    expect(issuesOf(DynamicFilter, { column: "brand" })).toEqual([[["values"], "is missing"]])
  })

  it("reports the rule of the form the values have, not of every alternative", () => {
    expect(issuesOf(DynamicFilter, { column: "price", values: { start: 5, end: 1 } })).toEqual([
      [["values"], "an interval's start must be less than its end"]
    ])
    expect(issuesOf(DynamicFilter, { column: "brand", values: ["a", 1] })).toEqual([
      [["values"], "at 1: Expected string, actual 1"]
    ])
    expect(issuesOf(DynamicFilter, { column: "brand", values: "a" })).toEqual([
      [["values"], "must be an array of strings or an interval object {start?, end?}"]
    ])
  })
})

describe("colour paths", () => {
  it("parses a name and a hex colour in either case", () => {
    expect(parseColorPath("Red > #FF00aa")).toEqual({ name: "Red", hex: "#ff00aa" })
    expect(parseColorPath("navy blue>#000080")).toEqual({ name: "navy blue", hex: "#000080" })
  })

  it.each(["red", "red > FF0000", "red > #FF00", "red > #GG0000", "a > b > #FF0000", "> #FF0000"])(
    "rejects %s",
    (s) => {
      expect(parseColorPath(s)).toBeNull()
    }
  )
})

describe("legacy excluded[]", () => {
  it("parses a column with its comma-separated values", () => {
    expect(parseExcludedClause("brand: Acme, Foo ,")).toEqual({ column: "brand", values: ["Acme", "Foo"] })
    expect(parseExcludedClause("link:https://a.example/x")).toEqual({ column: "link", values: ["https://a.example/x"] })
  })

  it.each(["brand", ":Acme", "brand:", "brand: , "])("rejects %s", (s) => {
    expect(parseExcludedClause(s)).toBeNull()
  })

  it("accepts a single or a repeated parameter and encodes back", () => {
    const decode = Schema.decodeUnknownSync(LegacyExcludedFilters)
    expect(decode("brand:A")).toEqual([{ column: "brand", values: ["A"] }])
    const clauses = decode(["brand:A,B", "color:red"])
    expect(clauses).toEqual([
      { column: "brand", values: ["A", "B"] },
      { column: "color", values: ["red"] }
    ])
    expect(Schema.encodeSync(LegacyExcludedFilters)(clauses)).toEqual(["brand:A,B", "color:red"])
  })

  it("names the malformed entry", () => {
    expect(issuesOf(LegacyExcludedFilters, ["brand:A", "oops"])).toEqual([
      [[], '"oops" must be of the form <column>:<value>,<value>']
    ])
  })
})
