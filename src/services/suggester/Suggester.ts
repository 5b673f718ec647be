import { Context, Effect, Layer, Schedule } from "effect"
import { Sqlite } from "../../platform/Sqlite.js"
import type { Suggestion } from "./Complete.js"
import type { ProductText } from "./Phrases.js"
import { QueryLog } from "./QueryLog.js"
import { recordableQuery, SiteVocabularies } from "./SiteVocabularies.js"
import { BackendFailure } from "../../platform/BackendFailure.js"

export type { Suggestion, SuggestionSource } from "./Complete.js"
export type { ProductText } from "./Phrases.js"

/** A catalog change could not be shared with the other processes (the distributed layer only). */
export class SuggestError extends BackendFailure("SuggestError") {}

/** Completions for POST /auto-suggest, from each site's catalog vocabulary and past searches. */
export interface SuggesterService {
  /** Idempotent: re-indexing a product replaces everything it contributed before. */
  readonly indexProduct: (siteId: number, productId: string, source: ProductText) => Effect.Effect<void, SuggestError>
  readonly removeProduct: (siteId: number, productId: string) => Effect.Effect<void, SuggestError>
  /** Called by text search; only searches that found something become suggestions. */
  readonly recordQuery: (siteId: number, query: string, resultCount: number) => Effect.Effect<void>
  readonly suggest: (siteId: number, prefix: string, limit: number) => Effect.Effect<ReadonlyArray<Suggestion>>
}

const FLUSH_EVERY = "500 millis"

const make = Effect.gen(function*() {
  const log = new QueryLog(yield* Sqlite)
  const vocabularies = new SiteVocabularies()
  // The catalog side is re-fed by the indexer at startup; only the searches come from disk.
  for (const row of log.loadAll()) vocabularies.addSearches(row.siteId, row.query, row.count, row.lastSeen)

  const flush = Effect.try(() => log.flush()).pipe(
    Effect.catchAll((error) => Effect.logWarning("suggest: query log flush failed, will retry", error.error))
  )
  // Registered before the flusher is forked, so it runs after the flusher stops: a last flush.
  yield* Effect.addFinalizer(() => flush)
  yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced(FLUSH_EVERY)))

  return Suggester.of({
    indexProduct: (siteId, productId, source) => Effect.sync(() => vocabularies.indexProduct(siteId, productId, source)),
    removeProduct: (siteId, productId) => Effect.sync(() => vocabularies.removeProduct(siteId, productId)),
    recordQuery: (siteId, query, resultCount) =>
      Effect.sync(() => {
        const normalized = recordableQuery(query, resultCount)
        if (normalized === null) return
        const now = Date.now()
        vocabularies.addSearches(siteId, normalized, 1, now)
        log.record(siteId, normalized, now)
      }),
    suggest: (siteId, prefix, limit) => Effect.sync(() => vocabularies.suggest(siteId, prefix, limit, Date.now()))
  })
})

export class Suggester extends Context.Tag("Suggester")<Suggester, SuggesterService>() {
  /** Embedded implementation: catalog vocabulary in memory, searched queries in SQLite. */
  static readonly layer = Layer.scoped(Suggester, make)
}
