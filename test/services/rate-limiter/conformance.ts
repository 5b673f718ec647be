import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, type Layer } from "effect"
import { RateLimiter, type RateLimiterError } from "../../../src/services/rate-limiter/RateLimiter.js"

/**
 * The behaviour every RateLimiter layer must show, through the interface only. Tests run on
 * the live clock (a Redis layer reads Redis's own TIME), so windows are short. Keys are unique
 * per test because a server-backed layer keeps its state between tests.
 */
export const rateLimiterConformance = (name: string, makeLayer: () => Layer.Layer<RateLimiter, RateLimiterError>) =>
  describe(`RateLimiter conformance: ${name}`, () => {
    const freshKey = (label: string) => `mcp:${label}:${crypto.randomUUID()}`
    const test = (title: string, body: Effect.Effect<void, RateLimiterError, RateLimiter>) =>
      it.live(title, () => Effect.provide(body, makeLayer()))
    const consumeN = (key: string, n: number, limit: number, windowMs: number) =>
      Effect.flatMap(RateLimiter, (limiter) =>
        Effect.forEach(Array.from({ length: n }), () => limiter.consume(key, limit, windowMs))
      )

    test(
      "allows exactly `limit` requests, counting remaining down, then refuses",
      Effect.gen(function* () {
        const decisions = yield* consumeN(freshKey("site:1"), 6, 5, 10_000)
        expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false])
        expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0])
        expect(decisions.slice(0, 5).every((d) => d.retryAfterMs === 0)).toBe(true)
      })
    )

    test(
      "a refusal says how long to wait, and waiting that long is enough",
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const key = freshKey("site:1")
        yield* consumeN(key, 3, 3, 300)
        const refused = yield* limiter.consume(key, 3, 300)
        expect(refused.allowed).toBe(false)
        expect(refused.retryAfterMs).toBeGreaterThan(0)
        expect(refused.retryAfterMs).toBeLessThanOrEqual(300)
        // +2 ms: Node timers may fire up to a millisecond early; the exact boundary is tested
        // on hand-picked instants in embedded.test.ts.
        yield* Effect.sleep(refused.retryAfterMs + 2)
        expect((yield* limiter.consume(key, 3, 300)).allowed).toBe(true)
        // The wait bought one request's worth of budget, not a whole new window.
        expect((yield* limiter.consume(key, 3, 300)).allowed).toBe(false)
      })
    )

    test(
      "a full window of silence restores the whole budget",
      Effect.gen(function* () {
        const key = freshKey("site:1")
        yield* consumeN(key, 4, 3, 300)
        yield* Effect.sleep(320)
        const again = yield* consumeN(key, 4, 3, 300)
        expect(again.map((d) => d.allowed)).toEqual([true, true, true, false])
      })
    )

    test(
      "keys are independent",
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const credential = crypto.randomUUID()
        const site1 = `mcp:site:1:${credential}`
        yield* consumeN(site1, 2, 2, 10_000)
        expect((yield* limiter.consume(site1, 2, 10_000)).allowed).toBe(false)
        expect(yield* limiter.consume(`mcp:site:2:${credential}`, 2, 10_000)).toEqual({
          allowed: true,
          remaining: 1,
          retryAfterMs: 0
        })
      })
    )

    test(
      "50 concurrent requests against a limit of 20 allow exactly 20",
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        const key = freshKey("site:1")
        const decisions = yield* Effect.all(
          Array.from({ length: 50 }, () => limiter.consume(key, 20, 10_000)),
          { concurrency: 50 }
        )
        expect(decisions.filter((d) => d.allowed)).toHaveLength(20)
        expect(
          decisions
            .filter((d) => d.allowed)
            .map((d) => d.remaining)
            .sort((a, b) => a - b)
        ).toEqual(Array.from({ length: 20 }, (_, i) => i))
      })
    )

    test(
      "a limit that is not a positive integer is a defect, not a decision",
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        for (const [limit, windowMs] of [
          [0, 1000],
          [1.5, 1000],
          [10, 0],
          [10, Number.NaN]
        ]) {
          const exit = yield* Effect.exit(limiter.consume(freshKey("bad"), limit, windowMs))
          expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
        }
      })
    )
  })
