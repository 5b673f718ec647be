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
  /** Per backend, each request's start and end: how many dependent rounds the request made of them. */
  private readonly requests = new Map<string, Array<readonly [number, number]>>()

  /** One request to a backend (e.g. "qdrant"), from `start` to `end` (performance.now()). */
  request(backend: string, start: number, end: number) {
    const known = this.requests.get(backend)
    if (known === undefined) this.requests.set(backend, [[start, end]])
    else known.push([start, end])
  }

  /**
   * A backend's requests in dependent rounds: a round begins with a request sent after every
   * earlier one was answered (requests sent side by side share one). With the time they spanned.
   */
  rounds(backend: string): { readonly rounds: number; readonly requests: number; readonly ms: number } {
    const spans = [...(this.requests.get(backend) ?? [])].sort((a, b) => a[0] - b[0])
    let rounds = 0
    let ms = 0
    let roundStart = Number.NEGATIVE_INFINITY
    let answered = Number.NEGATIVE_INFINITY
    for (const [start, end] of spans) {
      if (start >= answered) {
        if (rounds > 0) ms += answered - roundStart
        rounds++
        roundStart = start
      }
      answered = Math.max(answered, end)
    }
    if (rounds > 0) ms += answered - roundStart
    return { rounds, requests: spans.length, ms }
  }

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
    return [
      ...[...this.stages].map(
        ([stage, { ms, count }]) => `${stage};dur=${ms.toFixed(1)}${count > 1 ? `;desc="${count}"` : ""}`
      ),
      // `qdrant-rounds;dur=24.1;desc="2 rounds, 3 requests"`: the time spent waiting on the backend.
      ...[...this.requests.keys()].map((backend) => {
        const { rounds, requests, ms } = this.rounds(backend)
        return `${backend}-rounds;dur=${ms.toFixed(1)};desc="${rounds} rounds, ${requests} requests"`
      })
    ].join(", ")
  }
}

/** The current request's collector; none outside a request (workers, the CLI), where timing is skipped. */
export const CurrentTimings = FiberRef.unsafeMake<Timings | null>(null)

/**
 * Runs `effect`, adding its wall time to `stage` of the current request's timings; with
 * `backend`, it is one request to that backend (e.g. "qdrant"), and its span counts towards the
 * backend's rounds (see Timings.rounds).
 */
export const timed =
  (stage: string, backend?: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(CurrentTimings), (timings) => {
      if (timings === null) return effect
      return Effect.suspend(() => {
        const started = performance.now()
        return Effect.ensuring(
          effect,
          Effect.sync(() => {
            const ended = performance.now()
            timings.add(stage, ended - started)
            if (backend !== undefined) timings.request(backend, started, ended)
          })
        )
      })
    })

/** A backend's rounds and requests as the header gives them (`desc="2 rounds, 3 requests"`), by backend. */
export const parseRounds = (header: string): Map<string, { rounds: number; requests: number }> => {
  const found = new Map<string, { rounds: number; requests: number }>()
  for (const match of header.matchAll(/([\w-]+)-rounds;dur=[\d.]+;desc="(\d+) rounds, (\d+) requests"/g))
    found.set(match[1], { rounds: Number(match[2]), requests: Number(match[3]) })
  return found
}

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
