import { DAY_MS } from "./ShopperStats.js"

/**
 * Popularity and trending are sums of event weights that halve with age. Stored with the time
 * they are decayed to, so merging is exact whatever order events arrive in (past orders sent
 * after today's views included).
 */
export const HALF_LIFE_MS = {
  /** Popularity: what a product drew over the last weeks. */
  popularity: 14 * DAY_MS,
  /** The recent rate trending compares with popularity. */
  recent: DAY_MS
} as const

/** What each event is worth to a product's popularity: the closer to buying, the more. */
export const EVENT_WEIGHTS = { view: 1, click: 2, add_to_cart: 5, purchase: 10, search: 0 } as const

/** `value` held at `from`, decayed to `to` (to ≥ from; a later `from` grows it back). */
export const decayedTo = (value: number, from: number, to: number, halfLife: number): number =>
  value === 0 ? 0 : value * 2 ** (-(to - from) / halfLife)
