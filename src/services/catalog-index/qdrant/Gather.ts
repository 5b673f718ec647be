import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import type { IndexError, SearchQuery } from "../CatalogIndex.js"
import type { PayloadValue } from "../../../model/IndexDocument.js"
import type { VectorName } from "../embedded/Options.js"
import { queryWords, type QueryWord } from "../embedded/TextAnalysis.js"
import { call, type Qdrant } from "./Client.js"
import type { QdrantCondition, QdrantFilter } from "./FilterTranslation.js"
import { GRAMS_VECTOR, IMAGE_VECTOR, LEXICAL_VECTOR, TERMS_KEY, TEXT_KEY, TEXT_VECTOR } from "./Layout.js"
import { columnsOf, productIdOf, textOf } from "./Points.js"
import { analyze, gramQuery, keyQuery, type SparseVector } from "./SparseText.js"
import { keyWeights, termKeys } from "./TermStatistics.js"
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
  /** The word's stem in every field: a point holding any of them matches the word exactly. */
  readonly exactKeys: ReadonlyArray<number>
  /** Weighted keys (fieldWeight × site IDF) of the stem, and of its verified variants (× variant weight). */
  readonly exactQuery: SparseVector | null
  readonly variantQuery: SparseVector | null
  /** Exact score by point id. */
  readonly exact: Map<string, number>
  /** Variant score by point id, for points without an exact match of the word. */
  readonly variants: Map<string, number>
}

/** What a text/vector query matched, and what is known about each match. */
export interface Gathered {
  readonly words: ReadonlyArray<WordMatches>
  readonly dense: ReadonlyArray<DenseSignal>
  readonly points: Map<string, { readonly productId: string; readonly columns: Readonly<Record<string, PayloadValue>> }>
  /** Lexical matches plus dense hits at or above minSimilarity. */
  readonly matched: Set<string>
  /** Some lexical list came back full, so `matched` misses matches beyond its limit. */
  readonly saturated: boolean
  /** "Matches some word": the condition that counts every lexical match (see Query.ts total). */
  readonly lexicalCondition: QdrantCondition | null
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

/**
 * Points proposed by the trigram query (the closest spellings, never points holding the word
 * itself) whose terms reveal a word's variants. Only terms are learnt from them: each variant
 * is then searched site-wide, so this many candidates only bound how many spellings are found.
 */
const GRAM_CANDIDATES = 50
/** Variant terms searched per word, the best weighted (the embedded index takes all). */
const MAX_VARIANTS = 8

const holdsAny = (keys: ReadonlyArray<number>): QdrantCondition => ({ key: TERMS_KEY, match: { any: [...keys] } })
const without = (filter: QdrantFilter, condition: QdrantCondition): QdrantFilter => ({
  ...filter,
  must_not: [...(filter.must_not ?? []), condition]
})

const docTerms = (text: ReturnType<typeof textOf>): Set<string> => {
  const terms = new Set<string>()
  for (const value of Object.values(text ?? {})) for (const term of analyze(String(value)).keys()) terms.add(term)
  return terms
}

const batch = (q: Qdrant, searches: Array<Request>) =>
  searches.length === 0
    ? Effect.succeed([] as Array<Schemas["QueryResponse"]>)
    : call("query", () => q.client.queryBatch(q.collection, { searches }))

export interface GatherLimits {
  /** Per word, for its exact and for its variant matches. */
  readonly lexical: number
  readonly dense: number
  /** Payload keys returned with matches: the product id, and the columns when ranking. */
  readonly payload: ReadonlyArray<string>
}

/**
 * A text/vector query in three rounds, every list bounded. One: the words' per-site
 * statistics, trigram candidates for their variants, and one kNN list per dense vector (with
 * minSimilarity as its threshold). Two: the statistics of the verified variants. Three: per
 * word, the best `lexical` exact matches and the best `lexical` variant-only matches under
 * the filter, scored by Qdrant with the query's per-site weights.
 */
export const gather = (q: Qdrant, query: MatchQuery, filter: QdrantFilter, limits: GatherLimits): Effect.Effect<Gathered, IndexError> =>
  Effect.gen(function*() {
    const words = wordsOf(query)
    const dense = denseSignals(query, q)
    const points: Gathered["points"] = new Map()
    const matched = new Set<string>()
    const keep = (point: ScoredPoint) => {
      const id = String(point.id)
      matched.add(id)
      if (!points.has(id)) points.set(id, { productId: productIdOf(point.payload), columns: columnsOf(point.payload) })
      return id
    }
    const exactKeys = words.map((word) => termKeys(word.stem))
    const grams = words.map((word, i) => gramQuery(word, i === words.length - 1))
    const candidates: Array<Request> = []
    grams.forEach((gram, i) => {
      if (gram === null) return
      // Shared trigram counts are whole numbers: half below the bound avoids float edge cases.
      candidates.push({
        query: gram.vector, using: GRAMS_VECTOR, filter: without(filter, holdsAny(exactKeys[i])), limit: GRAM_CANDIDATES,
        score_threshold: gram.threshold - 0.5, with_payload: [TEXT_KEY]
      })
    })
    for (const signal of dense) {
      // A hair below the bound: the threshold's inclusiveness is the server's; ours is >=.
      candidates.push({
        query: signal.vector, using: signal.using, filter, limit: limits.dense, score_threshold: signal.minSimilarity - 1e-6,
        with_payload: [...limits.payload]
      })
    }
    const [stems, firstRound] = yield* Effect.all([keyWeights(q, query.siteId, words.map((word) => word.stem)), batch(q, candidates)], {
      concurrency: 2
    })
    const gramResponses = firstRound.slice(0, candidates.length - dense.length)
    dense.forEach((signal, i) => {
      for (const point of firstRound[gramResponses.length + i].points) {
        if (point.score >= signal.minSimilarity) signal.found.set(keep(point), point.score)
      }
    })
    // Verified variants of each word, best weighted first.
    let gramResponse = 0
    const variantTerms = words.map((word, i) => {
      if (grams[i] === null) return new Map<string, number>()
      const weights = new Map<string, number>()
      for (const point of gramResponses[gramResponse++].points) {
        for (const [term, weight] of variantWeights(word, i === words.length - 1, docTerms(textOf(point.payload)), q.options)) {
          if (!(weights.get(term)! >= weight)) weights.set(term, weight)
        }
      }
      return new Map([...weights].sort((a, b) => b[1] - a[1]).slice(0, MAX_VARIANTS))
    })
    const variantStats = yield* keyWeights(q, query.siteId, [...new Set(variantTerms.flatMap((terms) => [...terms.keys()]))])

    const gathered: Array<WordMatches> = words.map((word, i) => {
      const exact = stems.get(word.stem)!
      const variants = new Map<number, number>()
      for (const [term, weight] of variantTerms[i]) {
        for (const [key, keyWeight] of variantStats.get(term)!) variants.set(key, Math.max(variants.get(key) ?? 0, weight * keyWeight))
      }
      return {
        word,
        exactKeys: exactKeys[i],
        exactQuery: exact.size === 0 ? null : keyQuery(exact),
        variantQuery: variants.size === 0 ? null : keyQuery(variants),
        exact: new Map(),
        variants: new Map()
      }
    })
    const searches: Array<Request> = []
    const handlers: Array<(found: ReadonlyArray<ScoredPoint>) => void> = []
    let saturated = false
    const ask = (query: SparseVector, listFilter: QdrantFilter, into: Map<string, number>) => {
      searches.push({ query, using: LEXICAL_VECTOR, filter: listFilter, limit: limits.lexical, with_payload: [...limits.payload] })
      handlers.push((found) => {
        if (found.length >= limits.lexical) saturated = true
        for (const point of found) into.set(keep(point), point.score)
      })
    }
    for (const word of gathered) {
      if (word.exactQuery !== null) ask(word.exactQuery, filter, word.exact)
      // Exact matches take precedence over variants of the same word (as in the embedded index).
      if (word.variantQuery !== null) ask(word.variantQuery, without(filter, holdsAny(word.exactKeys)), word.variants)
    }
    const responses = yield* batch(q, searches)
    responses.forEach((response, i) => handlers[i](response.points))
    const lexicalKeys = gathered.flatMap((word) => [...word.exactKeys, ...(word.variantQuery?.indices ?? [])])
    return { words: gathered, dense, points, matched, saturated, lexicalCondition: lexicalKeys.length === 0 ? null : holdsAny(lexicalKeys) }
  })
