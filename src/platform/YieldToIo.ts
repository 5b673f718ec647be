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

/** One write slice at a time in the process (see inWriteSlices). */
const writeSlice = Effect.unsafeMakeSemaphore(1)

/**
 * `inSlices` for a write's synchronous work (decoding a bulk batch, building and analysing its
 * documents, applying them to an in-memory index), each slice alone among the process's other
 * write slices. Several writes at once (a bulk push's batches in flight, concurrent PUTs) then
 * queue one slice, not one each, before a search's next step: the search waits a slice. `f` must
 * not wait on I/O (the other writes would wait with it) nor start write slices of its own.
 */
export const inWriteSlices = <A, E, R>(
  items: ReadonlyArray<A>,
  size: number,
  f: (slice: ReadonlyArray<A>) => Effect.Effect<void, E, R>
) => inSlices(items, size, (slice) => writeSlice.withPermits(1)(f(slice)))
