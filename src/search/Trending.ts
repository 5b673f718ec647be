import { Effect } from "effect"
import { loadEntities } from "./Products.js"
import { dayOf, ShopperStats } from "../services/shopper-stats/ShopperStats.js"
import { ShopperSignals, TRENDING } from "../learning/ShopperSignals.js"

/** Days a query's baseline spans, before the two recent days it is compared with. */
const BASELINE_DAYS = 14
const RECENT_DAYS = 2
/** Searches a query needs in the recent days to trend. */
const MIN_RECENT_SEARCHES = 3

/** The site's products trending now, most rising first (see ShopperSignals.trendOf), with their entities. */
export const trendingProducts = (siteId: number, limit: number) =>
  Effect.gen(function* () {
    const signals = yield* Effect.flatMap(ShopperSignals, (s) => s.forSite(siteId))
    const ranked = [...signals.trending].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit)
    const entities = yield* loadEntities(
      siteId,
      ranked.map(([id]) => id)
    )
    const trend = new Map(ranked)
    // A product deleted since is not listed.
    return entities.map((product) => ({
      trend: Math.round((trend.get(product.productId ?? "") ?? 0) * 100) / 100,
      product
    }))
  })

/**
 * Queries searched more in the last two days (today included) than over the fourteen before,
 * per day, with the same prior as products: the rate must be TRENDING.minTrend times the
 * baseline's and come from MIN_RECENT_SEARCHES searches at least.
 */
export const trendingQueries = (siteId: number, limit: number, now = Date.now()) =>
  Effect.gen(function* () {
    const stats = yield* ShopperStats
    const today = dayOf(now)
    const [recent, before] = yield* Effect.all([
      stats.queries(siteId, today - RECENT_DAYS + 1, today),
      stats.queries(siteId, today - RECENT_DAYS - BASELINE_DAYS + 1, today - RECENT_DAYS)
    ])
    const baseline = new Map(before.map((q) => [q.query, q.searches / BASELINE_DAYS]))
    return recent
      .filter((q) => q.searches >= MIN_RECENT_SEARCHES)
      .map((q) => {
        const perDay = q.searches / RECENT_DAYS
        const usual = baseline.get(q.query) ?? 0
        return {
          query: q.query,
          recentSearchesPerDay: perDay,
          baselineSearchesPerDay: Math.round(usual * 100) / 100,
          trend: Math.round((perDay / (usual + TRENDING.prior)) * 100) / 100
        }
      })
      .filter((q) => q.trend >= TRENDING.minTrend)
      .sort((a, b) => b.trend - a.trend || (a.query < b.query ? -1 : 1))
      .slice(0, limit)
  })
