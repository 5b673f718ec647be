import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import type { IndexError, SearchQuery } from "../CatalogIndex.js"
import type { PayloadValue } from "../../../model/IndexDocument.js"
import type { VectorName } from "../embedded/Options.js"
import { queryWords, type QueryWord } from "../embedded/TextAnalysis.js"
import { call, type Qdrant } from "./Client.js"
import type { QdrantFilter } from "./FilterTranslation.js"
import { COLUMNS_KEY, GRAMS_VECTOR, IMAGE_VECTOR, LEXICAL_VECTOR, PRODUCT_KEY, TEXT_KEY, TEXT_VECTOR } from "./Layout.js"
import { columnsOf, productIdOf, textOf } from "./Points.js"
import { analyze, gramQuery, termQuery } from "./SparseText.js"
import { variantWeights } from "./Variants.js"

type Request = Schemas["QueryRequest"]
type ScoredPoint = Schemas["ScoredPoint"]
export type MatchQuery = Omit<SearchQuery, "limit">

export interface DenseSignal {
  readonly name: VectorName
  readonly using: string
  readonly vector: Schemas["VectorInput"]
  readonly minSimilarity: number
  /** Similarity by point id: kNN hits at or above minSimilarity, later filled in for every match. */
  readonly found: Map<string, number>
}

export interface WordMatches {
  readonly word: QueryWord
  /** Exact (stem) score by point id. */
  readonly exact: Map<string, number>
  /** Verified variant terms and their weights by point id, for points without an exact match. */
  readonly variants: Map<string, Map<string, number>>
}

/** Round one of a text/vector query: what matched, and what is known about each match. */
export interface Gathered {
  readonly words: ReadonlyArray<WordMatches>
  readonly dense: ReadonlyArray<DenseSignal>
  readonly points: Map<string, { readonly productId: string; readonly columns: Readonly<Record<string, PayloadValue>> }>
  /** Lexical matches plus dense hits at or above minSimilarity. */
  readonly matched: Set<string>
  /** Some list came back full, so `matched` may miss matches beyond its limit. */
  readonly saturated: boolean
}

export const wordsOf = (query: MatchQuery): Array<QueryWord> => (query.text ? queryWords(query.text) : [])

export const denseSignals = (query: MatchQuery, q: Qdrant): Array<DenseSignal> => {
  const signal = (name: VectorName, using: string, vector: Schemas["VectorInput"]): DenseSignal => ({
    name, using, vector, minSimilarity: query.minSimilarity ?? q.options.minSimilarity[name], found: new Map()
  })
  return [
    ...(query.textVector ? [signal("text", TEXT_VECTOR, Array.from(query.textVector))] : []),
    // The image vector is a multivector: the query is a one-vector multivector, so max_sim
    // gives the best of the product's images.
    ...(query.imageVector ? [signal("image", IMAGE_VECTOR, [Array.from(query.imageVector)])] : [])
  ]
}

const docTerms = (text: ReturnType<typeof textOf>): Set<string> => {
  const terms = new Set<string>()
  for (const value of Object.values(text ?? {})) for (const term of analyze(String(value)).keys()) terms.add(term)
  return terms
}

const PAYLOAD = [PRODUCT_KEY, COLUMNS_KEY]

/**
 * One batch of Qdrant queries (callers send browses elsewhere, so there is at least one), all
 * under the same filter: per query word an exact sparse
 * query and a trigram query whose candidates are verified here for typo/prefix variants, and
 * one kNN query per dense vector with minSimilarity as its score threshold.
 */
export const gather = (
  q: Qdrant,
  query: MatchQuery,
  filter: QdrantFilter,
  limits: { readonly lexical: number; readonly dense: number }
): Effect.Effect<Gathered, IndexError> => {
  const searches: Array<Request> = []
  const handlers: Array<(points: ReadonlyArray<ScoredPoint>) => void> = []
  const points: Gathered["points"] = new Map()
  const matched = new Set<string>()
  let saturated = false
  /** `lexical`: a full list means missed matches (dense lists are cut at k by design). */
  const ask = (request: Request, lexical: boolean, handle: (point: ScoredPoint) => boolean) => {
    searches.push(request)
    handlers.push((found) => {
      if (lexical && found.length >= (request.limit ?? 10)) saturated = true
      for (const point of found) {
        if (!handle(point)) continue
        const id = String(point.id)
        matched.add(id)
        points.set(id, { productId: productIdOf(point.payload), columns: columnsOf(point.payload) })
      }
    })
  }
  const words = wordsOf(query).map((word, i, all): WordMatches => {
    const matches: WordMatches = { word, exact: new Map(), variants: new Map() }
    const exact = termQuery(new Map([[word.stem, 1]]))
    ask({ query: exact, using: LEXICAL_VECTOR, filter, limit: limits.lexical, with_payload: PAYLOAD }, true, (point) => {
      matches.exact.set(String(point.id), point.score)
      return true
    })
    const isLast = i === all.length - 1
    const grams = gramQuery(word, isLast)
    if (grams === null) return matches
    // Shared trigram counts are whole numbers: half below the bound avoids float edge cases.
    const request = { query: grams.vector, using: GRAMS_VECTOR, filter, limit: limits.lexical, score_threshold: grams.threshold - 0.5 }
    ask({ ...request, with_payload: [...PAYLOAD, TEXT_KEY] }, true, (point) => {
      const variants = variantWeights(word, isLast, docTerms(textOf(point.payload)), q.options)
      if (variants.size === 0) return false
      matches.variants.set(String(point.id), variants)
      return true
    })
    return matches
  })
  const dense = denseSignals(query, q)
  for (const signal of dense) {
    // A hair below the bound: the threshold's inclusiveness is the server's; ours is >=.
    const request = { query: signal.vector, using: signal.using, filter, limit: limits.dense, score_threshold: signal.minSimilarity - 1e-6 }
    ask({ ...request, with_payload: PAYLOAD }, false, (point) => {
      if (point.score < signal.minSimilarity) return false
      signal.found.set(String(point.id), point.score)
      return true
    })
  }
  // Exact matches take precedence over variants of the same word (as in the embedded index).
  const settle = () => {
    for (const { exact, variants } of words) for (const id of exact.keys()) variants.delete(id)
  }
  return call("query", () => q.client.queryBatch(q.collection, { searches })).pipe(
    Effect.map((responses) => {
      responses.forEach((response, i) => handlers[i](response.points))
      settle()
      return { words, dense, points, matched, saturated }
    })
  )
}
