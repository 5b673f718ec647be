import { Effect } from "effect"
import { ShopperStats } from "../services/shopper-stats/ShopperStats.js"

/**
 * Frequently bought together, from the site's co-purchase counts (learning/Aggregation.ts).
 * A partner needs MIN_TOGETHER orders with the source: one shared basket is chance. Partners
 * rank by orders together, discounted by the partner's own orders to the power
 * POPULARITY_DISCOUNT, so a best-seller that lands in every basket does not top every list
 * (the discount was chosen on a validation split of the train orders of `npm run eval:baskets`:
 * 0 favours best-sellers, 1, lift-like, favours rare one-off pairs).
 */
export const MIN_TOGETHER = 2
export const POPULARITY_DISCOUNT = 0.3
/** Partners read per source before ranking. */
const CANDIDATES = 500

/** Up to `limit` × 3 partner ids, best first (the caller filters them to its scope and takes `limit`). */
export const boughtTogether = (siteId: number, productId: string, limit: number) =>
  Effect.gen(function* () {
    const stats = yield* ShopperStats
    const { partners } = yield* stats.boughtWith(siteId, productId, MIN_TOGETHER, CANDIDATES)
    return partners
      .map((p) => ({
        productId: p.productId,
        score: p.together / Math.max(p.orders, p.together) ** POPULARITY_DISCOUNT
      }))
      .sort((a, b) => b.score - a.score || (a.productId < b.productId ? -1 : 1))
      .slice(0, limit * 3)
      .map((p) => p.productId)
  })
