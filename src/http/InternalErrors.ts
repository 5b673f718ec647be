import { Effect } from "effect"
import { ServiceUnavailable } from "../domain/Errors.js"

/** Backend failures (index, store, model, queue) the caller can do nothing about but retry. */
type Internal = { readonly _tag: "IndexError" | "StoreError" | "EmbedError" | "QueueError" | "AnalyzeError" | "SessionStoreError"; readonly message: string }

const isInternal = (e: unknown): e is Internal =>
  typeof e === "object" && e !== null && "_tag" in e &&
  ["IndexError", "StoreError", "EmbedError", "QueueError", "AnalyzeError", "SessionStoreError"].includes((e as { _tag: string })._tag)

/** Maps backend failures to 503 once, leaving the caller-facing errors (400/403/404) as they are. */
export const orUnavailable = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, Internal> | ServiceUnavailable, R> =>
  Effect.catchIf(
    effect,
    isInternal,
    (e) => Effect.logError("backend failure", e).pipe(
      Effect.zipRight(Effect.fail(new ServiceUnavailable({ message: `temporarily unavailable: ${e.message}` })))
    )
  ) as Effect.Effect<A, Exclude<E, Internal> | ServiceUnavailable, R>
