import { Schema } from "effect"

/** One column with the values to include or exclude (spec: staticFilters.included/excluded). */
export const FilterClause = Schema.Struct({
  column: Schema.String.pipe(Schema.minLength(1)),
  values: Schema.Array(Schema.String)
})
export type FilterClause = typeof FilterClause.Type

/** The initial scope of a search, set by the shop (or by a campaign). */
export const StaticFilters = Schema.Struct({
  excluded: Schema.optional(Schema.Array(FilterClause)),
  included: Schema.optional(Schema.Array(FilterClause))
})
export type StaticFilters = typeof StaticFilters.Type
