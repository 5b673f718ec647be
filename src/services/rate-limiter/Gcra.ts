import type { RateDecision } from "./RateLimiter.js"

/**
 * GCRA (the generic cell rate algorithm, a token bucket in one number), shared by both layers;
 * RedisRateLimiter's Lua script is a line-by-line copy of `gcraStep`, so change them together.
 *
 * Why GCRA and not a sliding-window log: the state per key is ONE timestamp (the "theoretical
 * arrival time", TAT), so memory per key is constant whatever the limit, and the Redis state is
 * a plain string whose TTL is exactly "until the budget is full again". `limit` per `windowMs`
 * means: a burst of up to `limit` requests, refilled at one request every `windowMs / limit`.
 * `retryAfterMs` is exact: the time until the next request fits under the TAT.
 *
 * Time is in integer microseconds and the emission interval is rounded UP to a whole
 * microsecond, so every comparison is exact integer arithmetic in doubles (epoch µs < 2^53);
 * the cost is a window at most `limit` µs longer than asked.
 */
export interface GcraStep extends RateDecision {
  /** The TAT to store when allowed (unchanged state when refused). */
  readonly tatUs: number
}

/** Limits come from configuration; anything else than positive integers is a programming error. */
export const invalidLimits = (limit: number, windowMs: number): string | undefined =>
  Number.isSafeInteger(limit) && limit > 0 && Number.isSafeInteger(windowMs) && windowMs > 0
    ? undefined
    : `rate limit must be positive integers, got limit=${limit} windowMs=${windowMs}`

export const gcraStep = (storedTatUs: number | undefined, nowUs: number, limit: number, windowMs: number): GcraStep => {
  const emissionUs = Math.ceil((windowMs * 1000) / limit)
  const capacityUs = emissionUs * limit
  const tatUs = Math.max(storedTatUs ?? nowUs, nowUs) + emissionUs
  const usedUs = tatUs - nowUs
  if (usedUs > capacityUs) {
    const retryAfterMs = Math.ceil((usedUs - capacityUs) / 1000)
    return { allowed: false, remaining: 0, retryAfterMs, tatUs: storedTatUs ?? nowUs }
  }
  return { allowed: true, remaining: Math.floor((capacityUs - usedUs) / emissionUs), retryAfterMs: 0, tatUs }
}

/**
 * The embedded state: key -> TAT. A key whose TAT has passed carries no information (its budget
 * is full), so `sweep` drops it; memory is bounded by the keys active within their window.
 */
export class GcraStore {
  private readonly tats = new Map<string, number>()

  get size(): number {
    return this.tats.size
  }

  consume(key: string, nowUs: number, limit: number, windowMs: number): RateDecision {
    const step = gcraStep(this.tats.get(key), nowUs, limit, windowMs)
    if (step.allowed) this.tats.set(key, step.tatUs)
    return { allowed: step.allowed, remaining: step.remaining, retryAfterMs: step.retryAfterMs }
  }

  sweep(nowUs: number): void {
    for (const [key, tatUs] of this.tats) if (tatUs <= nowUs) this.tats.delete(key)
  }
}
