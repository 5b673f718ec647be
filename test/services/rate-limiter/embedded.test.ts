import { describe, expect, it } from "@effect/vitest"
import { GcraStore } from "../../../src/services/rate-limiter/Gcra.js"
import { EmbeddedRateLimiter } from "../../../src/services/rate-limiter/EmbeddedRateLimiter.js"
import { rateLimiterConformance } from "./conformance.js"

rateLimiterConformance("embedded", () => EmbeddedRateLimiter.layer)

// The store takes time as an argument, so these run on exact, hand-picked instants.
describe("GcraStore", () => {
  const t0 = 1_700_000_000_000_000 // epoch µs: the magnitude the Redis script works at too

  it("is exact when the window does not divide by the limit", () => {
    const store = new GcraStore()
    const burst = Array.from({ length: 8 }, () => store.consume("k", t0, 7, 1000))
    expect(burst.map((d) => d.allowed)).toEqual([true, true, true, true, true, true, true, false])
    const { retryAfterMs } = burst[7]
    expect(retryAfterMs).toBe(143) // 1000 / 7 ms, rounded up
    expect(store.consume("k", t0 + (retryAfterMs - 1) * 1000, 7, 1000).allowed).toBe(false)
    expect(store.consume("k", t0 + retryAfterMs * 1000, 7, 1000)).toEqual({
      allowed: true,
      remaining: 0,
      retryAfterMs: 0
    })
  })

  it("sweep forgets only keys whose budget is full again", () => {
    const store = new GcraStore()
    store.consume("short", t0, 10, 100)
    store.consume("long", t0, 10, 10_000)
    // One request each: "short" is refilled after 10 ms, "long" after 1 s.
    store.sweep(t0 + 9_999)
    expect(store.size).toBe(2)
    store.sweep(t0 + 10_000)
    expect(store.size).toBe(1)
    store.sweep(t0 + 1_000_000)
    expect(store.size).toBe(0)
    // Forgetting a key loses nothing: it starts again with its full budget.
    expect(store.consume("long", t0 + 10_000_000, 10, 10_000).remaining).toBe(9)
  })
})
