import { Context, type Effect } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"
import type { Condition, Filter } from "../../model/Filter.js"
import type { IndexDocument, PayloadValue } from "../../model/IndexDocument.js"

/**
 * The searchable, derived view of one site's catalog. Everything here can be rebuilt from
 * the CatalogStore, so the index may lag behind acknowledged writes but never loses them.
 *
 * The shape follows what Qdrant offers so a Qdrant layer can implement it 1:1:
 * named dense vectors ("text", "image"), a sparse lexical part, payload filters, facets,
 * retrieve and scroll. Every call is scoped to one site (the tenant key).
 */

export interface SearchQuery {
  readonly siteId: number
  /** Free text for lexical retrieval (stemmed, typo tolerant). */
  readonly text?: string | undefined
  /** Dense query vectors; a query may carry several and the index fuses them. */
  readonly textVector?: Float32Array | undefined
  readonly imageVector?: Float32Array | undefined
  readonly filter: Filter
  readonly limit: number
  /** Relative weight of each signal in the fused score (defaults chosen by the index). */
  readonly weights?: { readonly lexical?: number; readonly text?: number; readonly image?: number } | undefined
  /** Numeric column preference: products closer to `value` of `column` score higher. */
  readonly near?: { readonly column: string; readonly value: number; readonly weight: number } | undefined
  /** Per-product additive boosts (campaign boosts/pins). */
  readonly boosts?: ReadonlyArray<{ readonly condition: Condition; readonly weight: number }> | undefined
  /** Products never returned (e.g. the source product of a recommendation). */
  readonly excludeIds?: ReadonlyArray<string> | undefined
  /**
   * Only these products may match (on top of `filter`): re-ranking or re-filtering a set
   * already found (a refinement preview among a ranking's top, pins within a scope).
   */
  readonly onlyIds?: ReadonlyArray<string> | undefined
  /** Dense-only hits below this cosine similarity do not count as matches. */
  readonly minSimilarity?: number | undefined
}

export interface SearchHit {
  readonly productId: string
  readonly score: number
  readonly lexical: number
  readonly text: number
  readonly image: number
  /** The product's filter/facet columns: facets and refinements over a ranking read them here. */
  readonly columns: Readonly<Record<string, PayloadValue>>
}

export interface FacetCount {
  readonly value: string
  readonly count: number
}

export interface NumericStats {
  readonly min: number
  readonly max: number
  readonly count: number
}

export interface SearchResult {
  readonly hits: ReadonlyArray<SearchHit>
  /** Number of matching products (lexical matches plus dense hits above minSimilarity). */
  readonly total: number
}

export class IndexError extends BackendFailure("IndexError") {}

export interface CatalogIndexService {
  readonly upsert: (docs: ReadonlyArray<IndexDocument>) => Effect.Effect<void, IndexError>
  readonly remove: (siteId: number, productIds: ReadonlyArray<string>) => Effect.Effect<void, IndexError>
  readonly search: (query: SearchQuery) => Effect.Effect<SearchResult, IndexError>
  /**
   * The full set of matching product ids for `query` (no limit), used for facet counts.
   * Same matching rule as `search`.
   */
  readonly matchIds: (query: Omit<SearchQuery, "limit">) => Effect.Effect<ReadonlyArray<string>, IndexError>
  /** Value counts of string/boolean columns over the products a filter accepts (exact). */
  readonly facet: (
    siteId: number,
    column: string,
    scope: { readonly filter: Filter },
    limit: number
  ) => Effect.Effect<ReadonlyArray<FacetCount>, IndexError>
  /** min/max/count of a numeric column over a scope. */
  readonly numericStats: (
    siteId: number,
    column: string,
    scope: { readonly filter: Filter }
  ) => Effect.Effect<NumericStats | null, IndexError>
  /**
   * Counts of a numeric column per interval [edges[i], edges[i+1]) over a scope: the price
   * facet's buckets. Returns edges.length - 1 counts.
   */
  readonly histogram: (
    siteId: number,
    column: string,
    scope: { readonly filter: Filter },
    edges: ReadonlyArray<number>
  ) => Effect.Effect<ReadonlyArray<number>, IndexError>
  readonly retrieve: (siteId: number, productIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<IndexDocument>, IndexError>
  /** Pages through a site's documents matching `filter`, ordered by product id. */
  readonly scroll: (
    siteId: number,
    filter: Filter,
    limit: number,
    after?: string
  ) => Effect.Effect<{ readonly docs: ReadonlyArray<IndexDocument>; readonly next: string | null }, IndexError>
  readonly count: (siteId: number, filter: Filter) => Effect.Effect<number, IndexError>
  /** Durably persist whatever the backend buffers (called on shutdown). */
  readonly flush: Effect.Effect<void, IndexError>
}

export class CatalogIndex extends Context.Tag("CatalogIndex")<CatalogIndex, CatalogIndexService>() {}
