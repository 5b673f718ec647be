import { Effect } from "effect"
import { SIGNAL_COLUMNS } from "../model/Columns.js"
import type { SearchQuery, SortKey } from "../services/catalog-index/CatalogIndex.js"
import { ShopperSignals } from "./ShopperSignals.js"

/**
 * The part of a listing's query that shoppers' behaviour decides: the site's popularity and
 * trend numbers when the order names one or popularity lifts relevance by `lift` (nothing
 * otherwise, and no statistics read).
 */
export const shopperRanking = (siteId: number, sort: ReadonlyArray<SortKey> | undefined, lift: number) =>
  Effect.gen(function* () {
    const sorted = sort?.some((key) => SIGNAL_COLUMNS.has(key.column)) ?? false
    if (!sorted && lift <= 0) return {} satisfies Partial<SearchQuery>
    const signals = yield* Effect.flatMap(ShopperSignals, (s) => s.forSite(siteId))
    if (signals.popularity.size === 0) return {} satisfies Partial<SearchQuery>
    return {
      signals: new Map([
        ["popularity", signals.popularity],
        ["trending", signals.trending]
      ]),
      ...(lift > 0 ? { signalBoosts: [{ signal: "popularity", weight: lift }] } : {})
    } satisfies Partial<SearchQuery>
  })
