import { Effect, Layer, Schedule } from "effect"
import { Sqlite } from "../../platform/Sqlite.js"
import { QueryLog } from "./QueryLog.js"
import { recordableQuery, SiteVocabularies } from "./SiteVocabularies.js"
import { Suggester } from "./Suggester.js"

const FLUSH_EVERY = "500 millis"

const make = Effect.gen(function* () {
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
    indexProducts: (products) =>
      Effect.sync(() => products.forEach((p) => vocabularies.indexProduct(p.siteId, p.productId, p.source))),
    removeProducts: (siteId, productIds) =>
      Effect.sync(() => productIds.forEach((id) => vocabularies.removeProduct(siteId, id))),
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

/** Catalog vocabulary in memory, searched queries in SQLite. */
export const EmbeddedSuggester = {
  layer: Layer.scoped(Suggester, make)
}
