import { Clock, Effect, Layer, Schedule } from "effect"
import { RateLimiter } from "./RateLimiter.js"
import { GcraStore, invalidLimits } from "./Gcra.js"

/** Effect's clock is monotonic (hrtime), so a wall-clock jump cannot refill or drain budgets. */
const nowUs = Effect.map(Clock.currentTimeNanos, (nanos) => Number(nanos / 1000n))

/**
 * The single-process limiter: GCRA state in a Map. Consumes are synchronous, so concurrent
 * fibers cannot interleave inside one decision. A background fiber drops keys whose budget is
 * full again; the interval only bounds how long an idle key lingers past its window.
 */
const make = Effect.gen(function* () {
  const store = new GcraStore()
  yield* nowUs.pipe(
    Effect.map((now) => store.sweep(now)),
    Effect.repeat(Schedule.spaced("1 minute")),
    Effect.forkScoped
  )
  return RateLimiter.of({
    consume: (key, limit, windowMs) => {
      const invalid = invalidLimits(limit, windowMs)
      if (invalid !== undefined) return Effect.dieMessage(invalid)
      return Effect.map(nowUs, (now) => store.consume(key, now, limit, windowMs))
    }
  })
})

export const EmbeddedRateLimiter = {
  layer: Layer.scoped(RateLimiter, make)
}
