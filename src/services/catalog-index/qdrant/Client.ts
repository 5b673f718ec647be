import type { QdrantClient } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import { IndexError } from "../CatalogIndex.js"
import type { ColumnIndexes } from "./Collection.js"
import type { ResolvedOptions } from "./Options.js"

/** What every Qdrant-backed operation needs: the client, its collection and the knobs. */
export interface Qdrant {
  readonly client: QdrantClient
  readonly collection: string
  readonly options: ResolvedOptions
  readonly columns: ColumnIndexes
}

/**
 * A Qdrant request as an Effect: rejections (HTTP errors, timeouts, refused connections)
 * become IndexErrors naming the operation, so callers see one error type per backend.
 */
export const call = <A>(what: string, run: () => Promise<A>): Effect.Effect<A, IndexError> =>
  Effect.tryPromise({
    try: run,
    catch: (cause) =>
      new IndexError({ message: `Qdrant ${what} failed: ${cause instanceof Error ? cause.message : String(cause)}`, cause })
  })
