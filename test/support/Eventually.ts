import { Effect } from "effect"

/**
 * Retries `check` (typically a block of `expect`s) until it stops throwing or `timeoutMs`
 * passes, then throws its last failure: for work that happens asynchronously by design
 * (indexing, file watchers, other processes). Returns what `check` returned.
 */
export const eventually = async <A>(check: () => Promise<A> | A, timeoutMs = 20_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (e) {
      if (Date.now() > deadline) throw e
      await new Promise((r) => setTimeout(r, 50))
    }
  }
}

/**
 * The Effect flavour: reads until `check` holds or `timeoutMs` passes, and returns the last
 * value read, so the caller's `expect` shows what was there instead of a bare timeout. Needs
 * the live clock (it.live / it.scopedLive).
 */
export const readUntil = <A, E, R>(read: Effect.Effect<A, E, R>, check: (value: A) => boolean, timeoutMs = 15_000) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    let value = yield* read
    while (!check(value) && Date.now() < deadline) {
      yield* Effect.sleep("50 millis")
      value = yield* read
    }
    return value
  })
