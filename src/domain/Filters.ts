import { ParseResult, Schema } from "effect"
import { parseCategoryPath } from "./CategoryPath.js"
import { optionalField, shapesMessage } from "./Product.js"

/** One column with the values to include or exclude (spec: staticFilters.included/excluded). */
export const FilterClause = Schema.Struct({
  column: Schema.String.pipe(Schema.minLength(1)).annotations({
    description: "A column name (list_relevant_columns names them)"
  }),
  values: Schema.Array(Schema.String).annotations({
    description: "Values of the column; category paths Base64-URL encoded"
  })
})
export type FilterClause = typeof FilterClause.Type

/** The initial scope of a search, set by the shop (or by a campaign). */
export const StaticFilters = Schema.Struct({
  excluded: Schema.optional(Schema.Array(FilterClause)),
  included: Schema.optional(Schema.Array(FilterClause))
}).annotations({
  description: "The scope searched: products with any included value of each column, and none of the excluded"
})
export type StaticFilters = typeof StaticFilters.Type

/** Half-open [start, end); a missing bound leaves that side open. */
export const Interval = Schema.Struct({
  start: optionalField(Schema.Finite),
  end: optionalField(Schema.Finite)
})
  .pipe(
    Schema.filter((i) => {
      if (i.start === undefined && i.end === undefined) return "an interval must have a start or an end"
      if (i.start !== undefined && i.end !== undefined && i.start >= i.end)
        return "an interval's start must be less than its end"
      return true
    })
  )
  .annotations({ identifier: "Interval" })
export type Interval = typeof Interval.Type

/**
 * Values stay plain strings here: whether they are encoded category paths, colour paths or
 * plain values depends on the column, which the search layer knows.
 */
export const DynamicFilter = Schema.Struct({
  column: Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" })),
  values: Schema.Union(Schema.Array(Schema.String), Interval).annotations({
    message: shapesMessage("must be an array of strings or an interval object {start?, end?}")
  })
})
export type DynamicFilter = typeof DynamicFilter.Type

export const DynamicFilters = Schema.Array(DynamicFilter).annotations({
  description: "The shopper's refinements (facet values, or a {start, end} range for numbers such as price)"
})
export type DynamicFilters = typeof DynamicFilters.Type

const HEX_COLOR = /^#[0-9a-f]{6}$/i

/** `<color> > <hex color>` → { name, hex } with hex in lower case; null for any other string. */
export const parseColorPath = (s: string): { readonly name: string; readonly hex: string } | null => {
  const labels = parseCategoryPath(s)
  return labels.length === 2 && HEX_COLOR.test(labels[1]) ? { name: labels[0], hex: labels[1].toLowerCase() } : null
}

/** Legacy `excluded[]` entry `<column>:<value>,<value>`; null when malformed. */
export const parseExcludedClause = (s: string): FilterClause | null => {
  const colon = s.indexOf(":")
  const column = s.slice(0, Math.max(colon, 0)).trim()
  const values = s
    .slice(colon + 1)
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v.length > 0)
  return colon > 0 && column && values.length > 0 ? { column, values } : null
}

/** Legacy query parameter `excluded[]`, given once (a string) or repeated (an array). */
export const LegacyExcludedFilters = Schema.transformOrFail(
  Schema.Union(Schema.String, Schema.Array(Schema.String)),
  Schema.Array(FilterClause),
  {
    strict: true,
    decode: (raw, _, ast) => {
      const entries = typeof raw === "string" ? [raw] : raw
      const clauses = entries.map(parseExcludedClause)
      const bad = entries.find((_, i) => clauses[i] === null)
      return bad === undefined
        ? ParseResult.succeed(clauses.filter((c): c is FilterClause => c !== null))
        : ParseResult.fail(new ParseResult.Type(ast, raw, `"${bad}" must be of the form <column>:<value>,<value>`))
    },
    encode: (clauses) => ParseResult.succeed(clauses.map((c) => `${c.column}:${c.values.join(",")}`))
  }
)
