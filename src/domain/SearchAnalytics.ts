import { Schema } from "effect"

/**
 * GET /analytics/searches (a design of ours: the spec shows none): what shoppers searched
 * over a range of UTC days, from the searches the server answered and the events shoppers
 * sent (learning/Aggregation.ts).
 */
export const ANALYTICS_LIMITS = { days: 366, queries: 1_000, defaultQueries: 20, defaultDays: 30 } as const

export const AnalyticsDay = Schema.String.pipe(
  Schema.filter(
    (s) =>
      /^\d{4}-\d{2}-\d{2}$/.test(s) &&
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
      new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: () => "must be a date YYYY-MM-DD (UTC)"
    }
  )
)
const limitRule = {
  message: () => `must be an integer from 1 to ${ANALYTICS_LIMITS.queries}`
}
const isLimit = (n: number) => Number.isInteger(n) && n >= 1 && n <= ANALYTICS_LIMITS.queries

const dayFields = {
  /** First day (inclusive); default: 29 days before `to`. */
  from: Schema.optionalWith(AnalyticsDay, { exact: true }),
  /** Last day (inclusive); default: today (UTC). */
  to: Schema.optionalWith(AnalyticsDay, { exact: true })
}

/** The query string of GET /analytics/searches; `limit`: queries per list (default 20). */
export const SearchAnalyticsParams = Schema.Struct({
  ...dayFields,
  limit: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.filter(isLimit, limitRule)), { exact: true })
})
/** The same as an MCP tool's arguments (JSON numbers). */
export const SearchAnalyticsInput = Schema.Struct({
  ...dayFields,
  limit: Schema.optionalWith(Schema.Number.pipe(Schema.filter(isLimit, limitRule)), { exact: true })
})
export type SearchAnalyticsParams = typeof SearchAnalyticsInput.Type

export const QueryAnalytics = Schema.Struct({
  query: Schema.String,
  searches: Schema.Int,
  zeroResults: Schema.Int,
  clicks: Schema.Int,
  /** Searches with at least one click, of the searches that found something (null: none found anything). */
  clickThroughRate: Schema.NullOr(Schema.Number),
  /** Mean 1-based position of the clicked results (null: no clicks). */
  averageClickPosition: Schema.NullOr(Schema.Number)
})
export type QueryAnalytics = typeof QueryAnalytics.Type

export const SearchAnalyticsResponse = Schema.Struct({
  data: Schema.Struct({
    from: Schema.String,
    to: Schema.String,
    totals: Schema.Struct({
      searches: Schema.Int,
      zeroResults: Schema.Int,
      clicks: Schema.Int,
      clickThroughRate: Schema.NullOr(Schema.Number)
    }),
    /** Most searched first. */
    topQueries: Schema.Array(QueryAnalytics),
    /** Queries that found nothing, most often first. */
    zeroResultQueries: Schema.Array(QueryAnalytics),
    /** Queries that found something and were never clicked, most searched first. */
    noClickQueries: Schema.Array(QueryAnalytics),
    /** Each day of the range, oldest first: searches, those that found nothing, clicks. */
    days: Schema.Array(
      Schema.Struct({ day: Schema.String, searches: Schema.Int, zeroResults: Schema.Int, clicks: Schema.Int })
    )
  })
}).annotations({ identifier: "SearchAnalyticsResponse" })
export type SearchAnalyticsResponse = typeof SearchAnalyticsResponse.Type
