import { Context, Effect, Layer } from "effect"
import { DAY_MS, type ProductStats, ShopperStats } from "../services/shopper-stats/ShopperStats.js"
import { decayedTo, HALF_LIFE_MS } from "../services/shopper-stats/Decay.js"

/**
 * What ranking reads of shoppers' behaviour, per site: products' popularity and trend as
 * numbers the index sorts and boosts by (CatalogIndex SearchQuery.signals). Computed from
 * ShopperStats at a moment and held per process; a site's figures are recomputed when its
 * statistics moved (the aggregation cursor) at most every REFRESH_MS, and every MAX_AGE_MS as
 * the decay goes on; meanwhile the held figures serve (the first read of a site waits).
 */
export interface SiteSignals {
  /** Decayed popularity on a log scale, the site's most popular product 1. */
  readonly popularity: ReadonlyMap<string, number>
  /** Products trending now: recent rate over their baseline (see trendOf), at least TRENDING.minTrend. */
  readonly trending: ReadonlyMap<string, number>
  readonly asOf: number
}

export const TRENDING = {
  /**
   * Recent weight (services/shopper-stats/Decay.ts EVENT_WEIGHTS decayed with the one-day
   * half-life) a product needs: five views, or a cart.
   */
  minRecent: 5,
  /** How much faster than its baseline a product must be drawing now. */
  minTrend: 1.5,
  /** Baseline weight a day assumed for every product, so a first handful of views is no surge. */
  prior: 1
} as const

const REFRESH_MS = 2_000
const MAX_AGE_MS = 60_000

/**
 * Recent rate (per day, from the one-day sum) over the baseline rate (per day, from the
 * 14-day popularity sum) plus the prior: about 1 for a product drawing steadily, higher for one
 * rising now.
 */
export const trendOf = (popularity: number, recent: number): number =>
  (recent * HALF_LIFE_MS.popularity) /
  HALF_LIFE_MS.recent /
  (popularity + (TRENDING.prior * HALF_LIFE_MS.popularity) / DAY_MS)

export const signalsAt = (products: ReadonlyArray<ProductStats>, now: number): SiteSignals => {
  const current = products.map((p) => ({
    productId: p.productId,
    popularity: decayedTo(p.popularity, p.at, Math.max(now, p.at), HALF_LIFE_MS.popularity),
    recent: decayedTo(p.recent, p.at, Math.max(now, p.at), HALF_LIFE_MS.recent)
  }))
  const top = current.reduce((max, p) => Math.max(max, p.popularity), 0)
  const popularity = new Map<string, number>()
  const trending = new Map<string, number>()
  for (const p of current) {
    if (p.popularity > 0 && top > 0) popularity.set(p.productId, Math.log1p(p.popularity) / Math.log1p(top))
    const trend = trendOf(p.popularity, p.recent)
    if (p.recent >= TRENDING.minRecent && trend >= TRENDING.minTrend) trending.set(p.productId, trend)
  }
  return { popularity, trending, asOf: now }
}

const EMPTY: SiteSignals = { popularity: new Map(), trending: new Map(), asOf: 0 }

export class ShopperSignals extends Context.Tag("ShopperSignals")<
  ShopperSignals,
  {
    /** The site's signals; empty (logged) when the statistics cannot be read. */
    readonly forSite: (siteId: number) => Effect.Effect<SiteSignals>
  }
>() {}

interface Held {
  readonly signals: SiteSignals
  readonly cursor: number
  readonly loadedAt: number
  /** When the cursor was last read: at most every REFRESH_MS, so a busy api reads it a few times a minute. */
  checkedAt: number
  refreshing: boolean
}

export const ShopperSignalsLive = Layer.effect(
  ShopperSignals,
  Effect.gen(function* () {
    const stats = yield* ShopperStats
    const held = new Map<number, Held>()
    const load = (siteId: number, cursor: number) =>
      Effect.map(stats.allProducts(siteId), (products) => {
        const now = Date.now()
        const entry: Held = {
          signals: signalsAt(products, now),
          cursor,
          loadedAt: now,
          checkedAt: now,
          refreshing: false
        }
        held.set(siteId, entry)
        return entry.signals
      })
    const forSite = (siteId: number): Effect.Effect<SiteSignals> =>
      Effect.gen(function* () {
        const entry = held.get(siteId)
        const now = Date.now()
        if (entry !== undefined && (entry.refreshing || now - entry.checkedAt < REFRESH_MS)) return entry.signals
        if (entry !== undefined) entry.checkedAt = now
        const cursor = yield* stats.cursor(siteId)
        if (entry === undefined) {
          if (cursor > 0) return yield* load(siteId, cursor)
          held.set(siteId, { signals: EMPTY, cursor, loadedAt: now, checkedAt: now, refreshing: false })
          return EMPTY
        }
        if (cursor === entry.cursor && now - entry.loadedAt < MAX_AGE_MS) return entry.signals
        entry.refreshing = true
        yield* Effect.forkDaemon(
          load(siteId, cursor).pipe(
            Effect.catchAll((error) => Effect.logWarning("shopper signals not refreshed", error)),
            Effect.ensuring(
              Effect.sync(() => {
                entry.refreshing = false
              })
            )
          )
        )
        return entry.signals
      }).pipe(
        Effect.catchAll((error) =>
          Effect.as(
            Effect.logWarning("shopper signals unavailable; ranking without them", error),
            held.get(siteId)?.signals ?? EMPTY
          )
        )
      )
    return { forSite }
  })
)
