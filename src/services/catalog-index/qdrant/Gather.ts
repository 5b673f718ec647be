import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import { timed } from "../../../platform/ServerTiming.js"
import type { IndexError, SearchQuery } from "../CatalogIndex.js"
import type { VectorName } from "../embedded/EmbeddedIndexOptions.js"
import {
  queryPairs,
  queryWords,
  withJoinedWords,
  withSynonymPhrases,
  type QueryWord,
  headGroup,
  DEFAULT_WORD_MATCHING,
  type WordMatching
} from "../../../text/TextAnalysis.js"
import { wordCoverage, type WordScores } from "./Fusion.js"
import type { Qdrant } from "./Client.js"
import { call } from "./Request.js"
import type { QdrantCondition, QdrantFilter } from "./FilterTranslation.js"
import { IMAGE_VECTOR, LEXICAL_VECTOR, TERMS_KEY, TEXT_VECTOR } from "./Layout.js"
import { fieldTermKey, keyQuery, pairTermKey, type SparseVector } from "./SparseText.js"
import { type Coverage, type Holding, QueryScorer, type SiteTerms } from "./SiteTerms.js"
import { INDEX_TEXT_FIELDS } from "../../../model/IndexDocument.js"

type Request = Schemas["QueryRequest"]
type ScoredPoint = Schemas["ScoredPoint"]
export type MatchQuery = Omit<SearchQuery, "limit">

export interface DenseSignal {
  readonly name: VectorName
  readonly using: string
  readonly vector: Schemas["VectorInput"]
  readonly minSimilarity: number
  /** Similarity by point id: kNN hits at or above minSimilarity, and every other candidate's. */
  readonly found: Map<string, number>
}

export interface WordMatches {
  readonly word: QueryWord
  /** The word's stem in every field: a point holding any of them matches the word exactly. */
  readonly exactKeys: ReadonlyArray<number>
  /** The stem and its ungated variants: a point holding one (in any field) holds the word. */
  readonly heldAs: ReadonlyArray<string>
  /**
   * Weighted keys (fieldWeight × site IDF) of the stem, and of its verified variants (× variant
   * weight): set by gather.
   */
  exactQuery: SparseVector | null
  variantQuery: SparseVector | null
  /** The typos of a word the site knows (gated: they count where the text model agrees). */
  gatedQuery: SparseVector | null
  /** Exact score by point id. */
  readonly exact: Map<string, number>
  /** The exact (variant, gated) list came back full: points beyond its limit may score on it too. */
  exactFull: boolean
  variantsFull: boolean
  gatedFull: boolean
  /** Variant score by point id, for points without an exact match of the word. */
  readonly variants: Map<string, number>
  /** Gated variant score by point id, for points with neither an exact nor an ungated variant match. */
  readonly gated: Map<string, number>
}

/** One pair of neighbouring query words: the points whose title holds it side by side (see `queryPairs`). */
export interface PairMatches {
  readonly holders: Set<string>
}

/** What a text/vector query matched, and every signal of each match. */
export interface Gathered {
  readonly words: ReadonlyArray<WordMatches>
  readonly pairs: ReadonlyArray<PairMatches>
  readonly dense: ReadonlyArray<DenseSignal>
  /**
   * The candidates (lexical matches plus dense hits at or above minSimilarity) by point id, as
   * memory holds them (a point this process has not learnt of is none).
   */
  readonly points: Map<string, Holding>
  /** Some lexical list came back full, so `points` misses matches beyond its limit. */
  readonly saturated: boolean
  /** Which points are lexical matches, beyond the lists too (see `lexicalCoverage`); null without words. */
  readonly coverage: Coverage | null
  /** The typed word a partial match must hold (see `headGroup`). */
  readonly head: number | null
  /** The title pairs' keys, as `pairs` lists them. */
  readonly pairKeys: ReadonlyArray<ReadonlyArray<string>>
}

/** The words the shopper typed (each with its forms). */
export const wordsOf = (query: MatchQuery): Array<QueryWord> => (query.text ? queryWords(query.text) : [])

export const denseSignals = (query: MatchQuery, q: Qdrant): Array<DenseSignal> => {
  const signal = (name: VectorName, using: string, vector: Schemas["VectorInput"]): DenseSignal => ({
    name,
    using,
    vector,
    minSimilarity: query.minSimilarity ?? q.options.minSimilarity[name],
    found: new Map()
  })
  return [
    ...(query.textVector ? [signal("text", TEXT_VECTOR, Array.from(query.textVector))] : []),
    // The image vector is a multivector: the query is a one-vector multivector, so max_sim
    // gives the best of the product's images.
    ...(query.imageVector ? [signal("image", IMAGE_VECTOR, [Array.from(query.imageVector)])] : [])
  ]
}

/** Every field key of `term`, held by the site or not: the condition "holds the term". */
export const termKeys = (term: string): Array<number> => INDEX_TEXT_FIELDS.map((field) => fieldTermKey(field, term))

const batch = (q: Qdrant, searches: Array<Request>) =>
  searches.length === 0
    ? Effect.succeed([] as Array<Schemas["QueryResponse"]>)
    : call("query", () => q.sendQuery("POST", "points/query/batch", JSON.stringify({ searches }))).pipe(
        Effect.map((answers) => answers as Array<Schemas["QueryResponse"]>)
      )

/** Variant terms searched per word, the best weighted: a short prefix can complete to hundreds. */
const MAX_VARIANTS = 32

const holdsAny = (keys: ReadonlyArray<number>): QdrantCondition => ({ key: TERMS_KEY, match: { any: [...keys] } })
const without = (filter: QdrantFilter, condition: QdrantCondition): QdrantFilter => ({
  ...filter,
  must_not: [...(filter.must_not ?? []), condition]
})

export interface GatherLimits {
  /** Per word, for its exact and for its variant matches. */
  readonly lexical: number
  readonly dense: number
}

/** A word's query weights: its stem's keys, and its variants' (ungated and gated), from the site's terms. */
const wordQueries = (
  q: Qdrant,
  terms: SiteTerms,
  word: QueryWord,
  isLast: boolean,
  matching: WordMatching
): {
  exact: Map<number, number>
  variants: Map<number, number>
  gated: Map<number, number>
  heldAs: Array<string>
} => {
  const exact = terms.weights(word.stem, q.options.fieldWeights)
  const variants = new Map<number, number>()
  const gated = new Map<number, number>()
  const heldAs = [word.stem]
  // A joined word is known to the site as it is: it has no variants.
  if (word.span > 1) return { exact, variants, gated, heldAs }
  // A word of the language is gated as a word the site knows is (WordMatching.languageWords).
  const known = exact.size > 0 || (matching.languageWords?.includes(word.typed) ?? false)
  const found = [...terms.variants(word, isLast, matching, q.options)]
    .sort((a, b) => b[1].weight - a[1].weight)
    .slice(0, MAX_VARIANTS)
  for (const [term, { weight, typo }] of found) {
    const into = known && typo ? gated : variants
    if (into === variants) heldAs.push(term)
    for (const [key, keyWeight] of terms.weights(term, q.options.fieldWeights))
      into.set(key, Math.max(into.get(key) ?? 0, weight * keyWeight))
  }
  return { exact, variants, gated, heldAs }
}

/**
 * A text/vector query in one batch of requests. The site's terms in memory (SiteTerms.ts) give
 * each word's weights and variants first; then Qdrant lists per word its best `lexical` exact,
 * variant-only and gated matches under the filter, and one kNN list per dense vector
 * (minSimilarity as its threshold), while one more request per dense vector rescores the union
 * of the other lists (Query API prefetch), so every candidate's similarity comes back in the
 * same round. Lists find candidates only: every candidate's lexical scores (and the title pairs
 * it holds) are computed from its lexical vector in memory, as Qdrant would score it on every
 * list, so no score is missing.
 */
export const gather = (
  q: Qdrant,
  query: MatchQuery,
  filter: QdrantFilter,
  limits: GatherLimits
): Effect.Effect<Gathered, IndexError> =>
  Effect.gen(function* () {
    const terms = q.terms.memory().site(query.siteId)
    const typedForms = wordsOf(query)
    const matching = query.words ?? DEFAULT_WORD_MATCHING
    const known = (stem: string) => terms.knows(stem)
    const words = withSynonymPhrases(withJoinedWords(typedForms, known), matching.synonyms, known)
    const dense = denseSignals(query, q)
    const last = typedForms[typedForms.length - 1]
    const points: Gathered["points"] = new Map()

    const gathered: Array<WordMatches> = words.map((word) => {
      const queries = wordQueries(q, terms, word, word === last, matching)
      return {
        word,
        exactKeys: termKeys(word.stem),
        heldAs: queries.heldAs,
        exactQuery: queries.exact.size === 0 ? null : keyQuery(queries.exact),
        variantQuery: queries.variants.size === 0 ? null : keyQuery(queries.variants),
        gatedQuery: queries.gated.size === 0 ? null : keyQuery(queries.gated),
        exact: new Map(),
        variants: new Map(),
        gated: new Map(),
        exactFull: false,
        variantsFull: false,
        gatedFull: false
      }
    })

    // The lexical lists: exact matches take precedence over variants of the same word (as in
    // the embedded index), and ungated variants over gated ones.
    interface List {
      readonly request: Request
      readonly full: () => void
    }
    const lexical: Array<List> = []
    const lexicalList = (vector: SparseVector, listFilter: QdrantFilter, full: () => void) =>
      lexical.push({
        request: { query: vector, using: LEXICAL_VECTOR, filter: listFilter, limit: limits.lexical },
        full
      })
    for (const word of gathered) {
      if (word.exactQuery !== null) lexicalList(word.exactQuery, filter, () => (word.exactFull = true))
      if (word.variantQuery !== null)
        lexicalList(word.variantQuery, without(filter, holdsAny(word.exactKeys)), () => (word.variantsFull = true))
      if (word.gatedQuery !== null)
        lexicalList(word.gatedQuery, without(filter, holdsAny(ungatedKeys(word))), () => (word.gatedFull = true))
    }
    // The words together: a match holding several of them scores high on their sum without
    // making any one word's list (a common word's list is cut at its best holders of that word).
    const together = new Map<number, number>()
    for (const word of gathered)
      for (const query of [word.exactQuery, word.variantQuery])
        query?.indices.forEach((key, i) => together.set(key, (together.get(key) ?? 0) + query.values[i]))
    if (gathered.length > 1 && together.size > 0) lexicalList(keyQuery(together), filter, () => {})
    const knn = dense.map(
      (signal): Request => ({
        query: signal.vector,
        using: signal.using,
        filter,
        limit: limits.dense,
        // A hair below the bound: the threshold's inclusiveness is the server's; ours is >=.
        score_threshold: signal.minSimilarity - 1e-6
      })
    )
    // Each dense vector's similarity of every candidate the other lists find.
    const rescores = dense.flatMap((signal, i) => {
      const others = [...lexical.map((list) => list.request), ...knn.filter((_, j) => j !== i)]
      if (others.length === 0) return []
      const request: Request = {
        prefetch: others,
        query: signal.vector,
        using: signal.using,
        limit: others.reduce((sum, other) => sum + (other.limit ?? 0), 0)
      }
      return [{ signal, request }]
    })
    // With a text vector the lexical lists are asked for once: its rescoring of their union returns
    // every candidate that has a text vector, and those without one (pushed, not embedded yet)
    // come from one list of the words together restricted to them (when the site has any, as the
    // term memory knows). Without a text vector, each list is asked.
    const carried = rescores.some(({ signal }) => signal.name === "text") && lexical.length > 0
    const textless: Request | null =
      carried && together.size > 0 && terms.unembedded > 0
        ? {
            query: keyQuery(together),
            using: LEXICAL_VECTOR,
            filter: without(filter, { has_vector: TEXT_VECTOR }),
            limit: limits.lexical
          }
        : null
    const plain = carried ? [] : lexical.map((list) => list.request)
    const searches = [...plain, ...(textless === null ? [] : [textless]), ...knn, ...rescores.map((r) => r.request)]
    const responses = yield* batch(
      q,
      searches.map((request) => ({ ...request, with_payload: false }))
    ).pipe(timed("lists"))
    const [plainFound, textlessFound, knnFound, rescored] = [
      responses.slice(0, plain.length),
      textless === null ? [] : responses[plain.length].points,
      responses.slice(
        plain.length + (textless === null ? 0 : 1),
        plain.length + (textless === null ? 0 : 1) + knn.length
      ),
      responses.slice(plain.length + (textless === null ? 0 : 1) + knn.length)
    ]

    const keep = (point: ScoredPoint) => {
      const id = String(point.id)
      const holding = terms.holding(id)
      // Written to Qdrant, not yet learnt here (another process's write still on its way): no candidate yet.
      if (holding === undefined) return
      points.set(id, holding)
    }
    plainFound.forEach((response, i) => {
      if (response.points.length >= limits.lexical) lexical[i].full()
      response.points.forEach(keep)
    })
    textlessFound.forEach(keep)
    dense.forEach((signal, i) => {
      for (const point of knnFound[i].points) {
        if (point.score < signal.minSimilarity) continue
        keep(point)
        signal.found.set(String(point.id), point.score)
      }
    })
    rescores.forEach(({ signal }, i) => {
      for (const point of rescored[i].points) {
        // The union of the lexical lists comes back here when they are not asked for alone.
        if (carried && signal.name === "text") keep(point)
        signal.found.set(String(point.id), point.score)
      }
    })

    const pairs: Array<PairMatches> = queryPairs(typedForms).map(() => ({ holders: new Set() }))
    scoreCandidates(points.values(), gathered, queryPairs(typedForms), pairs)
    if (carried) {
      // A list not cut came back whole, so the candidates hold all its matches, fewer than its
      // limit; a cut one gave that many. So the candidates say which lists were cut.
      for (const word of gathered) {
        word.exactFull = word.exact.size >= limits.lexical
        word.variantsFull = word.variants.size >= limits.lexical
        word.gatedFull = word.gated.size >= limits.lexical
      }
    }
    const saturated = gathered.some((word) => word.exactFull || word.variantsFull || word.gatedFull)
    return {
      words: gathered,
      pairs,
      dense,
      points,
      saturated,
      coverage: lexicalCoverage(gathered),
      head: headGroup(typedForms),
      pairKeys: queryPairs(typedForms)
    }
  })

/**
 * Adds `ids` (members of the result set beyond the lists, e.g. read by a grouped listing) to
 * what was gathered, scored on the words from memory; no similarity is known for them.
 */
export const widen = (q: Qdrant, siteId: number, gathered: Gathered, ids: Iterable<string>): void => {
  const terms = q.terms.memory().site(siteId)
  const added: Array<Holding> = []
  for (const id of ids) {
    const holding = terms.holding(id)
    if (holding === undefined || gathered.points.has(id)) continue
    added.push(holding)
    gathered.points.set(id, holding)
  }
  scoreCandidates(added, gathered.words, gathered.pairKeys, gathered.pairs)
}

const asMap = (vector: SparseVector | null): Map<number, number> =>
  new Map(vector === null ? [] : vector.indices.map((index, i) => [index, vector.values[i]]))

/**
 * Each candidate's scores on every word, as the lists would give them (exact; else ungated
 * variants, gated ones added; else gated variants), and the title pairs it holds: from its
 * lexical vector in memory. A candidate this process has not learnt of yet scores on no word.
 */
const scoreCandidates = (
  candidates: Iterable<Holding>,
  words: ReadonlyArray<WordMatches>,
  pairKeys: ReadonlyArray<ReadonlyArray<string>>,
  pairs: ReadonlyArray<PairMatches>
): void => {
  const scorer = new QueryScorer([
    ...words.flatMap((word) => [asMap(word.exactQuery), asMap(word.variantQuery), asMap(word.gatedQuery)]),
    ...pairKeys.map((keys) => new Map(keys.map((key) => [pairTermKey(key), 1])))
  ])
  const scores = new Float64Array(scorer.queries.length)
  for (const holding of candidates) {
    const id = holding.pointId
    scorer.score(holding, scores)
    for (let w = 0; w < words.length; w++) {
      const exact = scores[3 * w]
      const variant = scores[3 * w + 1]
      const gated = scores[3 * w + 2]
      if (exact > 0) words[w].exact.set(id, exact)
      else if (variant > 0) words[w].variants.set(id, variant + gated)
      else if (gated > 0) words[w].gated.set(id, gated)
    }
    for (let p = 0; p < pairs.length; p++) if (scores[3 * words.length + p] > 0) pairs[p].holders.add(id)
  }
}

/** The keys of a word's exact and ungated variant matches: a point holding one is no gated match. */
export const ungatedKeys = (word: WordMatches): Array<number> => [
  ...word.exactKeys,
  ...(word.variantQuery?.indices ?? [])
]

/** Each word's matches as fusion scores them, with the typed word it is a form of. */
export const wordScoresOf = (words: ReadonlyArray<WordMatches>): Array<WordScores> =>
  words.map((word) => ({
    exact: word.exact,
    variants: word.variants,
    gated: word.gated,
    group: word.word.group,
    span: word.word.span
  }))

/**
 * "Matches enough of the words" (see `requiredWords`): per typed word, a point holds one of its
 * forms or a searched variant, and at least the required number of those hold. How many words
 * the best match holds is read from the lists (a full list may hide a point that holds more; the
 * count then errs towards more matches). Gated variants need the text model's word, which
 * memory cannot ask for a point not listed: the coverage leaves them out.
 */
const lexicalCoverage = (words: ReadonlyArray<WordMatches>): Coverage | null => {
  if (words.length === 0) return null
  const { typed, required } = wordCoverage(wordScoresOf(words))
  const groups = Array.from({ length: typed }, () => [] as Array<string>)
  for (const { word, heldAs } of words) {
    for (let group = word.group; group < word.group + word.span; group++) groups[group].push(...heldAs)
  }
  return { groups, required }
}
