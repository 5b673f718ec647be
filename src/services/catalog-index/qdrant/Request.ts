import { QdrantClientTimeoutError } from "@qdrant/js-client-rest"
import { Effect, Schedule } from "effect"
import { timed } from "../../../platform/ServerTiming.js"
import { IndexError } from "../CatalogIndex.js"

/** How a rejected request failed, as the client library reports it. */
type Failure =
  | { readonly kind: "status"; readonly status: number; readonly reason: string }
  | { readonly kind: "connection"; readonly reason: string }
  | { readonly kind: "timeout" }
  | { readonly kind: "other"; readonly reason: string }

const describe = (cause: unknown): Failure => {
  if (cause instanceof QdrantClientTimeoutError) return { kind: "timeout" }
  if (typeof cause !== "object" || cause === null) return { kind: "other", reason: String(cause) }
  const error = cause as { status?: unknown; statusText?: unknown; data?: unknown; message?: unknown; cause?: unknown }
  // The client's ApiError says only the status text; Qdrant's reason is in the body.
  if (typeof error.status === "number") {
    const body = error.data as { status?: { error?: unknown } } | string | undefined
    const detail = typeof body === "string" ? body : body?.status?.error
    const reason = [
      `${error.status} ${String(error.statusText ?? error.message ?? "")}`.trim(),
      typeof detail === "string" ? detail : undefined
    ]
    return { kind: "status", status: error.status, reason: reason.filter(Boolean).join(": ") }
  }
  // fetch rejects with "fetch failed" and the socket error as its cause.
  if (error.message === "fetch failed" && typeof error.cause === "object" && error.cause !== null) {
    const socket = error.cause as { code?: unknown; message?: unknown }
    return { kind: "connection", reason: String(socket.message ?? socket.code) }
  }
  return { kind: "other", reason: String(error.message ?? cause) }
}

/**
 * Worth another attempt: the connection failed (refused, reset), the server is overloaded or
 * restarting, or too slow.
 */
const transient = (failure: Failure): boolean =>
  failure.kind === "connection" ||
  failure.kind === "timeout" ||
  (failure.kind === "status" && [502, 503, 504].includes(failure.status))

const explain = (failure: Failure): string => {
  switch (failure.kind) {
    case "status":
      return failure.reason
    case "connection":
      return `the connection failed (${failure.reason})`
    case "timeout":
      return "no answer within the timeout"
    case "other":
      return failure.reason
  }
}

/** Attempts after the first for a transient failure; 100, 200, 400 ms apart (jittered). */
const RETRIES = 3
/** A timeout costs a whole timeout per attempt: it is retried once, so a search fails in ~2 timeouts. */
const TIMEOUT_RETRIES = 1
const retrySchedule = Schedule.exponential("100 millis").pipe(
  Schedule.jittered,
  Schedule.intersect(Schedule.recurs(RETRIES))
)

/**
 * A collection just created in a cluster is announced before every node has opened its shards:
 * for a few seconds reads answer 500 ("0 of 0 read operations failed"). Start-up reads retry
 * any 5xx for this long, a quarter second apart, before the process gives up.
 */
const settlingSchedule = Schedule.spaced("250 millis").pipe(Schedule.upTo("60 seconds"))
const settling = (failure: Failure): boolean =>
  transient(failure) || (failure.kind === "status" && failure.status >= 500)

/**
 * A Qdrant request as an Effect: rejections become IndexErrors naming the operation and
 * carrying the server's reason, so callers see one error type per backend. Transient
 * failures are retried a few times (every request here is idempotent: point ids derive from
 * the product, index and collection creation are checked), a 4xx never is.
 */
export const call = <A>(
  what: string,
  run: () => Promise<A>,
  options: { readonly settling?: boolean } = {}
): Effect.Effect<A, IndexError> =>
  Effect.suspend(() => {
    let attempts = 0
    let timeouts = 0
    return Effect.tryPromise({
      try: () => (attempts++, run()),
      catch: (cause) => ({ cause, failure: describe(cause) })
    }).pipe(
      Effect.retry(
        options.settling === true
          ? { schedule: settlingSchedule, while: ({ failure }) => settling(failure) }
          : {
              schedule: retrySchedule,
              while: ({ failure }) =>
                transient(failure) && (failure.kind !== "timeout" || ++timeouts <= TIMEOUT_RETRIES)
            }
      ),
      Effect.mapError(({ cause, failure }) => {
        const tries = attempts > 1 ? ` (${attempts} attempts)` : ""
        return new IndexError({ message: `Qdrant ${what} failed: ${explain(failure)}${tries}`, cause })
      }),
      timed(`qdrant-${what}`, "qdrant")
    )
  })
