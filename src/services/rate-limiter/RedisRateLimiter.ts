import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { RateLimiter, RateLimiterError } from "./RateLimiter.js"
import { invalidLimits } from "./Gcra.js"

/**
 * `gcraStep` from Gcra.ts, run atomically inside Redis so every api replica shares one budget.
 * The clock is Redis's own `TIME`, so replicas with skewed clocks still agree. `SET .. PX`
 * stores the TAT and expires it exactly when the budget is full again, so idle keys vanish.
 * `%.0f` because Lua's default number format (%.14g) would round epoch microseconds.
 */
const GCRA_LUA = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local limit = tonumber(ARGV[1])
local emission = math.ceil(tonumber(ARGV[2]) * 1000 / limit)
local capacity = emission * limit
local stored = tonumber(redis.call('GET', KEYS[1]))
local tat = math.max(stored or now, now) + emission
local used = tat - now
if used > capacity then
  return {0, 0, math.ceil((used - capacity) / 1000)}
end
redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil(used / 1000))
return {1, math.floor((capacity - used) / emission), 0}
`
const GCRA_SHA = createHash("sha1").update(GCRA_LUA).digest("hex")

const toError = (message: string) => (cause: unknown) => new RateLimiterError({ message, cause })

// The caller (the MCP endpoint) fails open on RateLimiterError, so a request must never queue
// behind a dead connection.
const connect = (url: string) =>
  connectFailFast(url, { commandTimeoutMs: 1_000 }, toError("cannot connect to the rate limiter's Redis"))

const make = (url: string) =>
  Effect.gen(function* () {
    const client = yield* connect(url)
    // EVALSHA saves resending the script; a Redis that restarted or ran SCRIPT FLUSH answers
    // NOSCRIPT, and EVAL both runs and caches it again.
    const run = async (key: string, limit: number, windowMs: number): Promise<unknown> => {
      try {
        return await client.evalsha(GCRA_SHA, 1, key, limit, windowMs)
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error
        return await client.eval(GCRA_LUA, 1, key, limit, windowMs)
      }
    }
    return RateLimiter.of({
      consume: (key, limit, windowMs) => {
        const invalid = invalidLimits(limit, windowMs)
        if (invalid !== undefined) return Effect.dieMessage(invalid)
        return Effect.tryPromise({
          try: () => run(`rl:${key}`, limit, windowMs),
          catch: toError(`rate limiter Redis failed for ${key}`)
        }).pipe(
          Effect.map((reply) => {
            const [allowed, remaining, retryAfterMs] = reply as [number, number, number]
            return { allowed: allowed === 1, remaining, retryAfterMs }
          })
        )
      }
    })
  })

export const RedisRateLimiter = {
  /** Scoped: one ioredis client per layer, quit on release. Fails if Redis is unreachable at start. */
  layer: (url: string): Layer.Layer<RateLimiter, RateLimiterError> => Layer.scoped(RateLimiter, make(url))
}
