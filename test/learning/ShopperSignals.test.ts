import { describe, expect, it } from "vitest"
import { decayedTo, HALF_LIFE_MS } from "../../src/services/shopper-stats/Decay.js"
import { signalsAt, trendOf } from "../../src/learning/ShopperSignals.js"
import type { ProductStats } from "../../src/services/shopper-stats/ShopperStats.js"

const DAY = 86_400_000
const now = 1_800_000_000_000

/** A product's sums after `perDay` weight every day for `days` days up to now. */
const steady = (productId: string, perDay: number, days: number): ProductStats => {
  let popularity = 0
  let recent = 0
  for (let d = 0; d < days; d++) {
    popularity += decayedTo(perDay, now - d * DAY, now, HALF_LIFE_MS.popularity)
    recent += decayedTo(perDay, now - d * DAY, now, HALF_LIFE_MS.recent)
  }
  return { productId, orders: 0, popularity, recent, at: now }
}

describe("shopper signals", () => {
  it("a product drawing steadily trends about 1; a surge trends; a first handful of views does not", () => {
    const s = steady("s", 50, 60)
    expect(trendOf(s.popularity, s.recent)).toBeGreaterThan(0.8)
    expect(trendOf(s.popularity, s.recent)).toBeLessThan(1.5)
    const signals = signalsAt(
      [
        s,
        { productId: "surge", orders: 0, popularity: 40, recent: 40, at: now },
        { productId: "few", orders: 0, popularity: 3, recent: 3, at: now }
      ],
      now
    )
    expect([...signals.trending.keys()]).toEqual(["surge"])
  })

  it("popularity is on a log scale against the site's most popular product, decayed to the moment", () => {
    const signals = signalsAt(
      [
        { productId: "top", orders: 3, popularity: 100, recent: 0, at: now },
        { productId: "old", orders: 0, popularity: 100, recent: 0, at: now - HALF_LIFE_MS.popularity },
        { productId: "none", orders: 0, popularity: 0, recent: 0, at: now }
      ],
      now
    )
    expect(signals.popularity.get("top")).toBe(1)
    expect(signals.popularity.get("old")).toBeCloseTo(Math.log1p(50) / Math.log1p(100), 9)
    expect(signals.popularity.has("none")).toBe(false)
    // An hour later nothing new happened: the order stays, the top stays 1.
    expect(
      signalsAt([{ productId: "top", orders: 0, popularity: 100, recent: 0, at: now }], now + 3_600_000).popularity.get(
        "top"
      )
    ).toBe(1)
  })
})
