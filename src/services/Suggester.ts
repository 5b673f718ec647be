import { Context, Effect, Layer, Schedule } from "effect"
import { Sqlite } from "./Sqlite.js"
import { complete, type Suggestion } from "./suggest/complete.js"
import { normalize } from "./suggest/normalize.js"
import { productPhrases, type CatalogKind, type ProductText } from "./suggest/phrases.js"
import { QueryLog } from "./suggest/QueryLog.js"
import { Vocabulary } from "./suggest/Vocabulary.js"

export type { Suggestion, SuggestionSource } from "./suggest/complete.js"
export type { ProductText } from "./suggest/phrases.js"

/** Completions for POST /auto-suggest, from each site's catalog vocabulary and past searches. */
export interface SuggesterService {
  /** Idempotent: re-indexing a product replaces everything it contributed before. */
  readonly indexProduct: (siteId: number, productId: string, source: ProductText) => Effect.Effect<void>
  readonly removeProduct: (siteId: number, productId: string) => Effect.Effect<void>
  /** Called by text search; only searches that found something become suggestions. */
  readonly recordQuery: (siteId: number, query: string, resultCount: number) => Effect.Effect<void>
  readonly suggest: (siteId: number, prefix: string, limit: number) => Effect.Effect<ReadonlyArray<Suggestion>>
}

/** Longer searches are pasted text or sentences, not something worth completing to. */
const MAX_QUERY_CHARS = 100
const FLUSH_EVERY = "500 millis"
const KINDS = 3

/** One site's world: nothing in it is ever consulted for another site. */
interface Site {
  readonly vocabulary: Vocabulary
  /** Per product, the phrases it added, each as id × 3 + source, so removal needs no re-parsing. */
  readonly products: Map<string, Array<number>>
}

const make = Effect.gen(function*() {
  const log = new QueryLog(yield* Sqlite)
  const sites = new Map<number, Site>()
  const site = (siteId: number): Site => {
    let found = sites.get(siteId)
    if (found === undefined) {
      found = { vocabulary: new Vocabulary(), products: new Map() }
      sites.set(siteId, found)
    }
    return found
  }
  // The catalog side is re-fed by the indexer at startup; only the searches come from disk.
  for (const row of log.loadAll()) site(row.siteId).vocabulary.addSearches(row.query, row.count, row.lastSeen)

  const flush = Effect.try(() => log.flush()).pipe(
    Effect.catchAll((error) => Effect.logWarning("suggest: query log flush failed, will retry", error.error))
  )
  // Registered before the flusher is forked, so it runs after the flusher stops: a last flush.
  yield* Effect.addFinalizer(() => flush)
  yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced(FLUSH_EVERY)))

  const removeRefs = (vocabulary: Vocabulary, refs: ReadonlyArray<number> | undefined) => {
    for (const ref of refs ?? []) vocabulary.removeCatalog(Math.floor(ref / KINDS), (ref % KINDS) as CatalogKind)
  }

  return Suggester.of({
    indexProduct: (siteId, productId, source) =>
      Effect.sync(() => {
        const { vocabulary, products } = site(siteId)
        // Add the new contribution before removing the old one, so phrases the product keeps
        // never drop to zero and get rebuilt.
        const refs = productPhrases(source).map(([phrase, kind]) => vocabulary.addCatalog(phrase, kind) * KINDS + kind)
        removeRefs(vocabulary, products.get(productId))
        products.set(productId, refs)
      }),
    removeProduct: (siteId, productId) =>
      Effect.sync(() => {
        const { vocabulary, products } = site(siteId)
        removeRefs(vocabulary, products.get(productId))
        products.delete(productId)
      }),
    recordQuery: (siteId, query, resultCount) =>
      Effect.sync(() => {
        const normalized = normalize(query)
        if (resultCount <= 0 || normalized.length === 0 || normalized.length > MAX_QUERY_CHARS) return
        const now = Date.now()
        site(siteId).vocabulary.addSearches(normalized, 1, now)
        log.record(siteId, normalized, now)
      }),
    suggest: (siteId, prefix, limit) =>
      Effect.sync(() => {
        const found = sites.get(siteId)
        return found === undefined ? [] : complete(found.vocabulary, prefix, limit, Date.now())
      })
  })
})

export class Suggester extends Context.Tag("Suggester")<Suggester, SuggesterService>() {
  /** Embedded implementation: catalog vocabulary in memory, searched queries in SQLite. */
  static readonly layer = Layer.scoped(Suggester, make)
}
