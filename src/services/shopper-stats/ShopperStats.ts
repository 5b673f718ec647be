import { Context, type Effect } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"

export const DAY_MS = 86_400_000

export class ShopperStatsError extends BackendFailure("ShopperStatsError") {}

/**
 * What a product's events add up to. `popularity` and `recent` are sums of event weights
 * decayed to `at` (epoch ms) with the half-lives of services/shopper-stats/Decay.ts; two products' figures
 * at different `at` compare through `decayedTo`.
 */
export interface ProductStats {
  readonly productId: string
  /** Orders (purchase events) naming the product. */
  readonly orders: number
  readonly popularity: number
  readonly recent: number
  readonly at: number
}

/** A product bought with another: in how many orders, and the partner's own order count. */
export interface Partner {
  readonly productId: string
  readonly together: number
  readonly orders: number
}

/** A query's figures over some days (normalised query text). */
export interface QueryFigures {
  readonly query: string
  /** Searches served (one per request id). */
  readonly searches: number
  /** Of them, searches that found nothing. */
  readonly zeroResults: number
  /** Clicks on results of these searches, and the sum of their positions (1-based). */
  readonly clicks: number
  readonly positionSum: number
  /** Searches with at least one click. */
  readonly clickedSearches: number
}

/** A search as aggregation remembers it, for the clicks that name its request id later. */
export interface KnownSearch {
  readonly requestId: string
  readonly query: string
  /** UTC day (epoch days) the search was served on: its clicks count on that day. */
  readonly day: number
  readonly clicked: boolean
}

/** What one aggregation step adds; applied whole or not at all, with the cursor. */
export interface StatsDelta {
  /** Per product: orders to add, and event weights decayed to `at` to merge in. */
  readonly products: ReadonlyArray<ProductStats>
  /** Orders naming both products (stored for either side). */
  readonly pairs: ReadonlyArray<{ readonly a: string; readonly b: string; readonly together: number }>
  /** Per day and query, figures to add. */
  readonly queries: ReadonlyArray<QueryFigures & { readonly day: number }>
  /** Searches to remember (new ones, and known ones clicked for the first time). */
  readonly searches: ReadonlyArray<KnownSearch>
}

/**
 * Per site, what aggregation learnt from the event log (learning/Aggregation.ts): product
 * counters, co-purchases, search figures per day, and the log sequence read so far.
 * `apply` is atomic and conditional on the cursor, so a step is never counted twice (a
 * retried job, two workers) and never half-counted (a crash mid-step).
 */
export interface ShopperStatsService {
  /** The last event sequence aggregated (0: none). */
  readonly cursor: (siteId: number) => Effect.Effect<number, ShopperStatsError>
  /** Adds `delta` and moves the cursor from `from` to `to`; false (nothing added) when the cursor is not at `from`. */
  readonly apply: (
    siteId: number,
    from: number,
    to: number,
    delta: StatsDelta
  ) => Effect.Effect<boolean, ShopperStatsError>
  /**
   * Products bought with `productId` in at least `minTogether` orders, most often first (at most
   * `limit`), and its own order count.
   */
  readonly boughtWith: (
    siteId: number,
    productId: string,
    minTogether: number,
    limit: number
  ) => Effect.Effect<{ readonly orders: number; readonly partners: ReadonlyArray<Partner> }, ShopperStatsError>
  /** Stats of these products (absent: no events), in no particular order. */
  readonly products: (
    siteId: number,
    productIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<ProductStats>, ShopperStatsError>
  /** Every product with events (for ranking columns and trending). */
  readonly allProducts: (siteId: number) => Effect.Effect<ReadonlyArray<ProductStats>, ShopperStatsError>
  /** Searches remembered by request id (those not known, or stored more than SEARCH_MEMORY_MS ago, are absent). */
  readonly searches: (
    siteId: number,
    requestIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<KnownSearch>, ShopperStatsError>
  /** Figures per query summed over the UTC days `fromDay`..`toDay` (inclusive). */
  readonly queries: (
    siteId: number,
    fromDay: number,
    toDay: number
  ) => Effect.Effect<ReadonlyArray<QueryFigures>, ShopperStatsError>
}

/** How long a search is remembered (from when aggregation stored it) for the clicks on its results. */
export const SEARCH_MEMORY_MS = 7 * DAY_MS

export const dayOf = (time: number): number => Math.floor(time / DAY_MS)

export class ShopperStats extends Context.Tag("ShopperStats")<ShopperStats, ShopperStatsService>() {}
