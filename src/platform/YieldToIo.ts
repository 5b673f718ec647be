import { Effect } from "effect"

/**
 * Lets the event loop serve I/O (other requests) before going on: a long stretch of
 * synchronous work, such as indexing a bulk push's batch, is cut into slices with this
 * between them, so a search arriving meanwhile waits for a slice, not the batch. Effect's own
 * yield resumes from the microtask queue, before any I/O; setImmediate resumes after it.
 */
export const yieldToIo: Effect.Effect<void> = Effect.async<void>((resume) => {
  const immediate = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(immediate))
})

/** Runs `f` on slices of `items` of at most `size`, yielding to I/O between them. */
export const inSlices = <A, E, R>(
  items: ReadonlyArray<A>,
  size: number,
  f: (slice: ReadonlyArray<A>) => Effect.Effect<void, E, R>
) =>
  Effect.gen(function* () {
    for (let i = 0; i < items.length; i += size) {
      if (i > 0) yield* yieldToIo
      yield* f(items.slice(i, i + size))
    }
  })
