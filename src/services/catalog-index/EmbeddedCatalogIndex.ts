import { Effect, Layer } from "effect"
import { CatalogIndex, IndexError, type CatalogIndexService } from "./CatalogIndex.js"
import type { Filter } from "../../model/Filter.js"
import type { ColumnsUpdate, IndexDocument } from "../../model/IndexDocument.js"
import { facetCounts, histogram, numericStats, scopeSlots } from "./embedded/ColumnCounts.js"
import { facets, matchIds, prepare, search } from "./embedded/HybridSearch.js"
import { countMask } from "./embedded/PayloadColumns.js"
import { resolveOptions, type EmbeddedIndexOverrides } from "./embedded/EmbeddedIndexOptions.js"
import { SiteIndex } from "./embedded/SiteIndex.js"
import { inSlices } from "../../platform/YieldToIo.js"

/** Documents applied between two chances for other requests to run. */
const UPSERT_SLICE = 16

/** Column updates applied between two chances for other requests to run (each a few microseconds). */
const REFRESH_SLICE = 128

/** Runs a synchronous index operation, turning a thrown native error into an IndexError. */
const attempt = <A>(what: string, run: () => A): Effect.Effect<A, IndexError> =>
  Effect.try({ try: run, catch: (cause) => new IndexError({ message: `${what} failed: ${String(cause)}`, cause }) })

export interface EmbeddedCatalogIndexService extends CatalogIndexService {
  /**
   * Fails exactly as `upsert(docs)` would, without writing: a replica checks a batch against
   * its local copy before publishing it to the other processes.
   */
  readonly validate: (docs: ReadonlyArray<IndexDocument>) => Effect.Effect<void, IndexError>
  /** What `refreshColumns(updates)` would answer, without writing (a replica asks before publishing). */
  readonly columnsFit: (updates: ReadonlyArray<ColumnsUpdate>) => ReadonlyArray<boolean>
}

const bySite = (docs: ReadonlyArray<IndexDocument>): Map<number, Array<IndexDocument>> => {
  const groups = new Map<number, Array<IndexDocument>>()
  for (const doc of docs) {
    const group = groups.get(doc.siteId)
    if (group === undefined) groups.set(doc.siteId, [doc])
    else group.push(doc)
  }
  return groups
}

/**
 * Told of every write as it is applied, slice by slice and in the order applied: a search
 * replica (topology/replica/) replays the same writes in the same order.
 */
export interface IndexWriteObserver {
  readonly upserted: (docs: ReadonlyArray<IndexDocument>) => void
  readonly removed: (siteId: number, productIds: ReadonlyArray<string>) => void
  readonly refreshed: (updates: ReadonlyArray<ColumnsUpdate>) => void
}

/** One in-memory index (the layers below wrap it; a replicated index keeps one per process). */
export const makeEmbeddedCatalogIndex = (
  overrides?: EmbeddedIndexOverrides,
  observer?: IndexWriteObserver
): EmbeddedCatalogIndexService => {
  const options = resolveOptions(overrides)
  const sites = new Map<number, SiteIndex>()
  const site = (siteId: number): SiteIndex => {
    let index = sites.get(siteId)
    if (index === undefined) sites.set(siteId, (index = new SiteIndex(options)))
    return index
  }

  const check = (groups: Map<number, Array<IndexDocument>>): Effect.Effect<void, IndexError> => {
    for (const [siteId, siteDocs] of groups) {
      const rejection = site(siteId).rejection(siteDocs)
      if (rejection !== null) return Effect.fail(new IndexError({ message: rejection }))
    }
    return Effect.void
  }

  // Validate every site's batch before writing any, so a bad batch changes nothing. Applied in
  // slices (a few milliseconds each), between which other requests are served: a bulk push's
  // batch arrives whole. Searches meanwhile see part of it, as they would see earlier batches.
  const upsert = (docs: ReadonlyArray<IndexDocument>) =>
    Effect.suspend(() => {
      const groups = bySite(docs)
      return check(groups).pipe(
        Effect.zipRight(
          inSlices(docs, UPSERT_SLICE, (slice) =>
            attempt("upsert", () => {
              for (const doc of slice) site(doc.siteId).upsert(doc)
              observer?.upserted(slice)
            })
          )
        )
      )
    })

  return {
    validate: (docs) => Effect.suspend(() => check(bySite(docs))),
    columnsFit: (updates) => updates.map((update) => site(update.siteId).columnsFit(update) !== "refuse"),
    upsert,
    refreshColumns: (updates) =>
      Effect.suspend(() => {
        const applied: Array<boolean> = []
        return Effect.as(
          inSlices(updates, REFRESH_SLICE, (slice) =>
            attempt("refreshColumns", () => {
              for (const update of slice) applied.push(site(update.siteId).refreshColumns(update))
              observer?.refreshed(slice)
            })
          ),
          applied
        )
      }),
    remove: (siteId, productIds) =>
      attempt("remove", () => {
        productIds.forEach((id) => site(siteId).remove(id))
        observer?.removed(siteId, productIds)
      }),
    search: (query) => attempt("search", () => search(site(query.siteId), query, options)),
    prepare: (scope) => attempt("prepare", () => prepare(site(scope.siteId), scope)),
    matchIds: (query) => attempt("matchIds", () => matchIds(site(query.siteId), query, options)),
    facets: (scope, request) => attempt("facets", () => facets(site(scope.siteId), scope, request, options)),
    facet: (siteId, column, scope, limit) =>
      attempt("facet", () => facetCounts(site(siteId), column, scopeSlots(site(siteId), scope), limit)),
    numericStats: (siteId, column, scope) =>
      attempt("numericStats", () => numericStats(site(siteId), column, scopeSlots(site(siteId), scope))),
    histogram: (siteId, column, scope, edges) =>
      attempt("histogram", () => histogram(site(siteId), column, scopeSlots(site(siteId), scope), edges)),
    retrieve: (siteId, productIds) => attempt("retrieve", () => site(siteId).retrieve(productIds)),
    scroll: (siteId, filter, limit, after) => attempt("scroll", () => site(siteId).scroll(filter, limit, after)),
    count: (siteId, filter) => attempt("count", () => countOf(site(siteId), filter)),
    // The durable record store re-feeds this in-memory index at startup: nothing to persist.
    flush: Effect.void
  }
}

const countOf = (index: SiteIndex, filter: Filter): number =>
  filter.must.length + filter.mustNot.length === 0 ? index.count : countMask(index.mask(filter))

/**
 * The in-process CatalogIndex: one SiteIndex per site, MiniSearch for words, HNSW graphs
 * for vectors. `layerWith` takes the tuning knobs the relevance evaluation adjusts.
 */
export const EmbeddedCatalogIndex = {
  layer: Layer.sync(CatalogIndex, () => makeEmbeddedCatalogIndex()),
  layerWith: (overrides: EmbeddedIndexOverrides): Layer.Layer<CatalogIndex> =>
    Layer.sync(CatalogIndex, () => makeEmbeddedCatalogIndex(overrides))
} as const
