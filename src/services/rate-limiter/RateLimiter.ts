import { Context, type Effect } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"

export class RateLimiterError extends BackendFailure("RateLimiterError") {}

export interface RateDecision {
  readonly allowed: boolean
  /** Requests left in the current window. */
  readonly remaining: number
  /** When refused: milliseconds until a request would be allowed again. */
  readonly retryAfterMs: number
}

export interface RateLimiterService {
  /** Counts one request for `key` (e.g. "mcp:site:1:cred:s1-ab12") against `limit` per `windowMs`. */
  readonly consume: (key: string, limit: number, windowMs: number) => Effect.Effect<RateDecision, RateLimiterError>
}

export class RateLimiter extends Context.Tag("RateLimiter")<RateLimiter, RateLimiterService>() {}
