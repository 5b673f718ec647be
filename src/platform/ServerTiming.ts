import { Effect, FiberRef } from "effect"

/**
 * Where a request's time went, for its `Server-Timing` response header (shown by browsers'
 * developer tools, read by the benchmarks): per stage its total duration and how often it ran.
 * Stages may overlap (lists run beside counts), so durations need not add up to the response
 * time. Collected per request: the HTTP layer puts a fresh collector in place, and fibers forked
 * within the request share it.
 */
export class Timings {
  private readonly stages = new Map<string, { ms: number; count: number }>()

  add(stage: string, ms: number) {
    const known = this.stages.get(stage)
    if (known === undefined) this.stages.set(stage, { ms, count: 1 })
    else {
      known.ms += ms
      known.count++
    }
  }

  /** `embed;dur=11.2, qdrant-query;dur=30.5;desc="3"`: the description is the count when above one. */
  header(): string {
    return [...this.stages]
      .map(([stage, { ms, count }]) => `${stage};dur=${ms.toFixed(1)}${count > 1 ? `;desc="${count}"` : ""}`)
      .join(", ")
  }
}

/** The current request's collector; none outside a request (workers, the CLI), where timing is skipped. */
export const CurrentTimings = FiberRef.unsafeMake<Timings | null>(null)

/** Runs `effect`, adding its wall time to `stage` of the current request's timings. */
export const timed =
  (stage: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(CurrentTimings), (timings) => {
      if (timings === null) return effect
      return Effect.suspend(() => {
        const started = performance.now()
        return Effect.ensuring(
          effect,
          Effect.sync(() => timings.add(stage, performance.now() - started))
        )
      })
    })

/** The header parsed back: duration by stage (benchmarks; the format is the one `header` writes). */
export const parseServerTiming = (header: string): Map<string, number> => {
  const stages = new Map<string, number>()
  for (const entry of header.split(",")) {
    const [name, ...params] = entry.trim().split(";")
    const dur = params.find((p) => p.startsWith("dur="))
    if (name && dur) stages.set(name, Number(dur.slice(4)))
  }
  return stages
}
