import { Effect } from "effect"
import { BadRequest } from "../domain/Errors.js"
import {
  ANALYTICS_LIMITS,
  type QueryAnalytics,
  type SearchAnalyticsParams,
  type SearchAnalyticsResponse
} from "../domain/SearchAnalytics.js"
import { DAY_MS, dayOf, type QueryFigures, ShopperStats } from "../services/shopper-stats/ShopperStats.js"

const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)
const dayNumber = (text: string) => dayOf(Date.parse(`${text}T00:00:00Z`))
const round = (n: number) => Math.round(n * 10_000) / 10_000

const rate = (clicked: number, found: number) => (found === 0 ? null : round(clicked / found))

const row = (q: QueryFigures): QueryAnalytics => ({
  query: q.query,
  searches: q.searches,
  zeroResults: q.zeroResults,
  clicks: q.clicks,
  clickThroughRate: rate(q.clickedSearches, q.searches - q.zeroResults),
  averageClickPosition: q.clicks === 0 ? null : round(q.positionSum / q.clicks)
})

const top = (list: ReadonlyArray<QueryFigures>, by: (q: QueryFigures) => number, limit: number) =>
  [...list]
    .sort((a, b) => by(b) - by(a) || (a.query < b.query ? -1 : 1))
    .slice(0, limit)
    .map(row)

/** Figures of the same query (on different days) added up: every figure is a count or a sum. */
const summed = (list: ReadonlyArray<QueryFigures>): Array<QueryFigures> => {
  const byQuery = new Map<string, QueryFigures>()
  for (const q of list) {
    const known = byQuery.get(q.query)
    byQuery.set(
      q.query,
      known === undefined
        ? q
        : {
            query: q.query,
            searches: known.searches + q.searches,
            zeroResults: known.zeroResults + q.zeroResults,
            clicks: known.clicks + q.clicks,
            positionSum: known.positionSum + q.positionSum,
            clickedSearches: known.clickedSearches + q.clickedSearches
          }
    )
  }
  return [...byQuery.values()]
}

/** A site's search analytics over the days of `params` (see domain/SearchAnalytics.ts). */
export const searchAnalytics = (siteId: number, params: SearchAnalyticsParams, now = Date.now()) =>
  Effect.gen(function* () {
    const toDay = params.to === undefined ? dayOf(now) : dayNumber(params.to)
    const fromDay = params.from === undefined ? toDay - (ANALYTICS_LIMITS.defaultDays - 1) : dayNumber(params.from)
    if (fromDay > toDay) return yield* new BadRequest({ message: "from: must not be after to" })
    if (toDay - fromDay + 1 > ANALYTICS_LIMITS.days)
      return yield* new BadRequest({ message: `from: the range holds at most ${ANALYTICS_LIMITS.days} days` })
    const limit = params.limit ?? ANALYTICS_LIMITS.defaultQueries
    const stats = yield* ShopperStats
    // Read day by day (a chart of searches over time); the range's figures are their sums.
    const daily = yield* Effect.forEach(
      Array.from({ length: toDay - fromDay + 1 }, (_, i) => fromDay + i),
      (day) => stats.queries(siteId, day, day),
      { concurrency: 8 }
    )
    const figures = summed(daily.flat())
    const days = daily.map((list, i) => ({
      day: dayText(fromDay + i),
      searches: list.reduce((n, q) => n + q.searches, 0),
      zeroResults: list.reduce((n, q) => n + q.zeroResults, 0),
      clicks: list.reduce((n, q) => n + q.clicks, 0)
    }))
    const sum = (f: (q: QueryFigures) => number) => figures.reduce((n, q) => n + f(q), 0)
    const searches = sum((q) => q.searches)
    const zeroResults = sum((q) => q.zeroResults)
    const response: SearchAnalyticsResponse = {
      data: {
        from: dayText(fromDay),
        to: dayText(toDay),
        totals: {
          searches,
          zeroResults,
          clicks: sum((q) => q.clicks),
          clickThroughRate: rate(
            sum((q) => q.clickedSearches),
            searches - zeroResults
          )
        },
        topQueries: top(
          figures.filter((q) => q.searches > 0),
          (q) => q.searches,
          limit
        ),
        zeroResultQueries: top(
          figures.filter((q) => q.zeroResults > 0),
          (q) => q.zeroResults,
          limit
        ),
        noClickQueries: top(
          figures.filter((q) => q.searches > q.zeroResults && q.clicks === 0),
          (q) => q.searches - q.zeroResults,
          limit
        ),
        days
      }
    }
    return response
  })
