import { Effect } from "effect"
import { CatalogIndex, type CatalogIndexService } from "../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../src/model/Filter.js"
import { TextEmbedder } from "../../src/services/text-embedder/TextEmbedder.js"
import { textSearch } from "../../src/search/TextSearch.js"
import type { EvalQuery } from "./Dataset.js"
import { DEFAULT_WORD_MATCHING, withLanguageWords } from "../../src/text/TextAnalysis.js"

export type Rankings = Map<string, ReadonlyArray<string>>

export interface Timed {
  readonly rankings: Rankings
  readonly ms: number
}

/** A direct run also knows how many products each query matched in all. */
export interface Counted extends Timed {
  readonly totals: Map<string, number>
}

/** The product path: POST /text-search's handler, as a shopper's request runs it. */
export const productRankings = (siteId: number, queries: ReadonlyArray<EvalQuery>, resultsCount = 100) =>
  Effect.gen(function* () {
    const rankings: Rankings = new Map()
    const started = performance.now()
    for (const q of queries) {
      const response = yield* textSearch(siteId, { query: q.text, resultsCount }).pipe(Effect.orDie)
      rankings.set(
        q.id,
        response.data.products.flatMap((p) => (p.productId === undefined ? [] : [p.productId]))
      )
    }
    return { rankings, ms: performance.now() - started } satisfies Timed
  })

/** Query vectors as textSearch gets them (the embedder's query path, served from its cache). */
export const queryVectors = (queries: ReadonlyArray<EvalQuery>) =>
  Effect.gen(function* () {
    const embedder = yield* TextEmbedder
    const vectors = new Map<string, Float32Array>()
    for (const q of queries) vectors.set(q.id, yield* embedder.embedQuery(q.text).pipe(Effect.orDie))
    return vectors
  })

/**
 * A configuration of a direct CatalogIndex.search call. With no overrides it is the same
 * call textSearch makes for the default campaign (text, text vector, empty filter, no boosts).
 */
export interface DirectConfig {
  readonly label: string
  readonly lexical?: boolean
  readonly dense?: boolean
  readonly weights?: { readonly lexical?: number; readonly text?: number }
  readonly minSimilarity?: number
}

export const directRankings = (
  index: CatalogIndexService,
  siteId: number,
  queries: ReadonlyArray<EvalQuery>,
  vectors: ReadonlyMap<string, Float32Array>,
  config: DirectConfig,
  limit = 100
) =>
  Effect.gen(function* () {
    const rankings: Rankings = new Map()
    const totals = new Map<string, number>()
    const embedder = yield* TextEmbedder
    const started = performance.now()
    for (const q of queries) {
      const result = yield* index
        .search({
          siteId,
          text: config.lexical === false ? undefined : q.text,
          words: withLanguageWords(DEFAULT_WORD_MATCHING, q.text, embedder.isWord),
          textVector: config.dense === false ? undefined : vectors.get(q.id),
          filter: emptyFilter,
          limit,
          weights: config.weights,
          minSimilarity: config.minSimilarity
        })
        .pipe(Effect.orDie)
      rankings.set(
        q.id,
        result.hits.map((h) => h.productId)
      )
      totals.set(q.id, result.total)
    }
    return { rankings, totals, ms: performance.now() - started } satisfies Counted
  })

export const withIndex = <A, E, R>(f: (index: CatalogIndexService) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(CatalogIndex, f)

/** Queries whose top `k` of `a` is the top `k` of `b`, or (with `within`) held in its top `within`. */
export const sameTop = (a: Rankings, b: Rankings, k = 10, within?: number): number => {
  let same = 0
  for (const [id, ranking] of a) {
    const other = b.get(id) ?? []
    const top = ranking.slice(0, k)
    if (within !== undefined) {
      const held = new Set(other.slice(0, within))
      if (top.every((p) => held.has(p))) same++
    } else if (top.every((p, i) => other[i] === p) && other.slice(0, k).length === top.length) same++
  }
  return same
}
