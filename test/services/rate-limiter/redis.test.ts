import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Exit, Layer } from "effect"
import { RateLimiter } from "../../../src/services/rate-limiter/RateLimiter.js"
import { RedisRateLimiter } from "../../../src/services/rate-limiter/RedisRateLimiter.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { scopedRedis, unreachableRedisUrl, whileReconnecting } from "../../support/RedisServer.js"
import { rateLimiterConformance } from "./conformance.js"

const redis = redisForThisFile()

rateLimiterConformance("redis", () => RedisRateLimiter.layer(redis.url))

/** A limiter from its own layer instance, i.e. its own client, like one api replica. */
const replica = (url: string) => Effect.map(Layer.build(RedisRateLimiter.layer(url)), Context.get(RateLimiter))

describe("RedisRateLimiter", () => {
  it.scopedLive("two replicas (two clients) share one budget", () =>
    Effect.gen(function* () {
      const [a, b] = [yield* replica(redis.url), yield* replica(redis.url)]
      const key = `mcp:site:1:${crypto.randomUUID()}`
      const decisions = yield* Effect.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).consume(key, 10, 10_000)),
        { concurrency: 30 }
      )
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10)
    })
  )

  it.scopedLive("stores state under rl:<key> and lets it expire once the budget is full again", () =>
    Effect.gen(function* () {
      const limiter = yield* replica(redis.url)
      const key = `mcp:site:1:${crypto.randomUUID()}`
      yield* limiter.consume(key, 2, 200)
      const ttl = yield* Effect.promise(() => redis.client().pttl(`rl:${key}`))
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(100) // one of two requests' worth of a 200 ms window
      yield* Effect.sleep(150)
      expect(yield* Effect.promise(() => redis.client().exists(`rl:${key}`))).toBe(0)
    })
  )

  it.scopedLive("reloads the script when Redis has forgotten it (EVALSHA falls back to EVAL)", () =>
    Effect.gen(function* () {
      const limiter = yield* replica(redis.url)
      const key = `mcp:site:1:${crypto.randomUUID()}`
      expect((yield* limiter.consume(key, 2, 10_000)).remaining).toBe(1)
      yield* Effect.promise(() => redis.client().script("FLUSH"))
      expect((yield* limiter.consume(key, 2, 10_000)).remaining).toBe(0)
    })
  )

  it.live("an unreachable Redis fails the layer quickly", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Effect.scoped(replica(yield* unreachableRedisUrl)))
      expect(Exit.isFailure(exit)).toBe(true)
    }).pipe(Effect.timeout("2 seconds"))
  )

  it.scopedLive("a stopped Redis makes consume fail within 2 s, and a restarted one serves again", () =>
    Effect.gen(function* () {
      // Its own server: stopping the shared one would break the other tests.
      const own = yield* scopedRedis()
      const limiter = yield* replica(own.url)
      const key = `mcp:site:1:${crypto.randomUUID()}`
      expect((yield* limiter.consume(key, 5, 10_000)).allowed).toBe(true)

      yield* Effect.promise(own.stop)
      const [elapsed, error] = yield* Effect.timed(Effect.flip(limiter.consume(key, 5, 10_000)))
      expect(error._tag).toBe("RateLimiterError")
      expect(Duration.toMillis(elapsed)).toBeLessThan(2_000)

      // ioredis keeps reconnecting in the background; the AOF kept the budget already spent.
      yield* Effect.promise(own.restart)
      const back = yield* limiter.consume(key, 5, 10_000).pipe(Effect.retry(whileReconnecting))
      expect(back).toEqual({ allowed: true, remaining: 3, retryAfterMs: 0 })
    })
  )
})
