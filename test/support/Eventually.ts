import { Effect } from "effect"

/**
 * Reads until `check` holds or `timeoutMs` passes, and returns the last value read, so the
 * caller's `expect` shows what was there instead of a bare timeout. Needs the live clock.
 */
export const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, check: (value: A) => boolean, timeoutMs = 15_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMs
    let value = yield* read
    while (!check(value) && Date.now() < deadline) {
      yield* Effect.sleep("50 millis")
      value = yield* read
    }
    return value
  })
