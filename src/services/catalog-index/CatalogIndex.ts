import { Context, type Effect } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"
import type { Condition, Filter } from "../../model/Filter.js"
import type { ColumnsUpdate, IndexDocument, PayloadValue } from "../../model/IndexDocument.js"
import type { WordMatching } from "../../text/TextAnalysis.js"

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
  /** How the text's words match other words (typos, completions); absent: a submitted search's defaults. */
  readonly words?: WordMatching | undefined
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
  /**
   * Numbers per product from outside the catalog (shoppers' popularity, trending), by name: a
   * `sort` key or a `signalBoosts` entry names one as it would a column. A product without a
   * number in one gets no boost from it and sorts after those with one.
   */
  readonly signals?: ReadonlyMap<string, ReadonlyMap<string, number>> | undefined
  /** Additive scores: `weight` × the product's number in `signals[signal]` (numbers in 0..1). */
  readonly signalBoosts?: ReadonlyArray<{ readonly signal: string; readonly weight: number }> | undefined
  /** Products never returned (e.g. the source product of a recommendation). */
  readonly excludeIds?: ReadonlyArray<string> | undefined
  /**
   * Only these products may match (on top of `filter`): re-ranking or re-filtering a set
   * already found (a refinement preview among a ranking's top, pins within a scope).
   */
  readonly onlyIds?: ReadonlyArray<string> | undefined
  /** Dense-only hits below this cosine similarity do not count as matches. */
  readonly minSimilarity?: number | undefined
  /**
   * A listing's order: numeric columns, first key first; products without a number in a key
   * come after those with one (either order); relevance breaks ties, then product id.
   * Without it, the order is relevance (a browse: boosts and `near`, then product id).
   */
  readonly sort?: ReadonlyArray<SortKey> | undefined
  /** Entries of the order skipped before the page of `limit` (products, or groups with `groupBy`). */
  readonly offset?: number | undefined
  /**
   * Variant grouping: one hit per value of this column (its best-placed product), a product
   * without a value a group of its own. `total` and facet counts then count groups.
   */
  readonly groupBy?: string | undefined
  /** Facets of the whole result set to count with the page (see `facets`): one matching for both. */
  readonly facets?: FacetRequest | undefined
}

export interface SortKey {
  readonly column: string
  readonly order: "asc" | "desc"
}

/** A result set without its order: the scope, the words and vectors its products match, and its grouping. */
export type MatchScope = Omit<
  SearchQuery,
  "limit" | "offset" | "sort" | "weights" | "near" | "boosts" | "facets" | "signals" | "signalBoosts"
>

/** What `prepare` matches ahead: a result set's scope and words, without its vectors. */
export type PreparedScope = Pick<SearchQuery, "siteId" | "text" | "words" | "filter" | "onlyIds" | "excludeIds">

/** The facets of a result set: value counts of some columns, interval counts of numeric ones. */
export interface FacetRequest {
  readonly values: ReadonlyArray<{ readonly column: string; readonly limit: number }>
  /**
   * Up to `buckets` intervals at nice numbers, cut where the set's values are so that each
   * holds a fair share of them (see IntervalEdges.ts); fewer when the values are few.
   */
  readonly intervals: ReadonlyArray<{ readonly column: string; readonly buckets: number }>
}

export interface Intervals {
  readonly min: number
  readonly max: number
  readonly edges: ReadonlyArray<number>
  /** Products (or groups) per interval [edges[i], edges[i+1]). */
  readonly counts: ReadonlyArray<number>
}

export interface FacetAnswer {
  /** Exact counts, most frequent first (ties by value). */
  readonly values: ReadonlyMap<string, ReadonlyArray<FacetCount>>
  /** null when no product of the set has a number in the column. */
  readonly intervals: ReadonlyMap<string, Intervals | null>
}

export interface SearchHit {
  readonly productId: string
  readonly score: number
  readonly lexical: number
  readonly text: number
  readonly image: number
  /**
   * The fusion weights `score` was computed with (score = lexical·wL + text·wT + image·wI +
   * boosts), where the index fused signals: a ranking's explanation reads them.
   */
  readonly weights?: { readonly lexical: number; readonly text: number; readonly image: number } | undefined
  /** The product's filter/facet columns: facets and refinements over a ranking read them here. */
  readonly columns: Readonly<Record<string, PayloadValue>>
  /**
   * The indexed title, where the index holds it in memory (the embedded index): the title-head
   * ranking then reads no record from the catalog store.
   */
  readonly title?: string
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
  /** Number of matching products (lexical matches plus dense hits above minSimilarity), or of their groups. */
  readonly total: number
  /** The facets the query asked for. */
  readonly facets?: FacetAnswer | undefined
}

export class IndexError extends BackendFailure("IndexError") {}

export interface CatalogIndexService {
  readonly upsert: (docs: ReadonlyArray<IndexDocument>) => Effect.Effect<void, IndexError>
  readonly remove: (siteId: number, productIds: ReadonlyArray<string>) => Effect.Effect<void, IndexError>
  /**
   * Sets some columns of held documents, keeping their words, vectors and other columns: a
   * price or stock change without rebuilding the document. Per update, in order: true when
   * applied (or the index holds a newer version already), false when the index does not hold
   * the version the update is based on (absent, older, or another write in between) or the
   * backend takes whole documents only: the caller upserts those documents in full.
   */
  readonly refreshColumns: (updates: ReadonlyArray<ColumnsUpdate>) => Effect.Effect<ReadonlyArray<boolean>, IndexError>
  readonly search: (query: SearchQuery) => Effect.Effect<SearchResult, IndexError>
  /**
   * A hint that a search of these words in this scope follows once its query vectors are
   * computed: the backend may match the words meanwhile (the embedded index does, while the
   * text model runs on another thread), and the next `search` of the same scope and words
   * uses that work if nothing was written in between. Never changes a result.
   */
  readonly prepare: (scope: PreparedScope) => Effect.Effect<void, IndexError>
  /**
   * The full set of matching product ids for `query` (no limit), used for facet counts.
   * Same matching rule as `search`.
   */
  readonly matchIds: (query: Omit<SearchQuery, "limit">) => Effect.Effect<ReadonlyArray<string>, IndexError>
  /**
   * Exact facet counts over a whole result set (every match, not a ranked sample), in one
   * pass over it: what a listing shows beside its page.
   */
  readonly facets: (scope: MatchScope, request: FacetRequest) => Effect.Effect<FacetAnswer, IndexError>
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
  readonly retrieve: (
    siteId: number,
    productIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<IndexDocument>, IndexError>
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
