import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import { timed } from "../../../platform/ServerTiming.js"
import type { IndexError, SearchQuery } from "../CatalogIndex.js"
import type { PayloadValue } from "../../../model/IndexDocument.js"
import type { VectorName } from "../embedded/EmbeddedIndexOptions.js"
import {
  indexTerms,
  queryPairs,
  queryWords,
  withJoinedWords,
  type QueryWord,
  completesPrefix,
  headGroup,
  numberedForm,
  DEFAULT_WORD_MATCHING,
  editBudget,
  fewestEdits,
  type WordMatching
} from "../../../text/TextAnalysis.js"
import { wordCoverage, type WordScores } from "./Fusion.js"
import type { Qdrant } from "./Client.js"
import { call } from "./Request.js"
import { toQdrantFilter, type QdrantCondition, type QdrantFilter } from "./FilterTranslation.js"
import { emptyFilter } from "../../../model/Filter.js"
import { GRAMS_VECTOR, IMAGE_VECTOR, LEXICAL_VECTOR, TERMS_KEY, TEXT_KEY, TEXT_VECTOR } from "./Layout.js"
import { columnsOf, productIdOf, textOf } from "./Points.js"
import { gramQuery, keyQuery, pairTermKey, type SparseVector } from "./SparseText.js"
import { keyWeights, termKeys } from "./TermStatistics.js"
import { type Variant, variantWeights, type WordVariants } from "./Variants.js"

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
  /** No point missing from the kNN list is more similar: minSimilarity, or the full list's last score. */
  ceiling: number
}

export interface WordMatches {
  readonly word: QueryWord
  /** The word's stem in every field: a point holding any of them matches the word exactly. */
  readonly exactKeys: ReadonlyArray<number>
  /**
   * Weighted keys (fieldWeight × site IDF) of the stem, and of its verified variants (× variant
   * weight): set by gather.
   */
  exactQuery: SparseVector | null
  variantQuery: SparseVector | null
  /** The typos of a word the site knows (see WordVariants): set by gather when it has any. */
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
  readonly query: SparseVector
  readonly holders: Set<string>
  /** The list came back full: a match beyond its limit may hold the pair too. */
  full: boolean
}

/** What a text/vector query matched, and what is known about each match. */
export interface Gathered {
  readonly words: ReadonlyArray<WordMatches>
  readonly pairs: ReadonlyArray<PairMatches>
  readonly dense: ReadonlyArray<DenseSignal>
  readonly points: Map<string, { readonly productId: string; readonly columns: Readonly<Record<string, PayloadValue>> }>
  /** Lexical matches plus dense hits at or above minSimilarity. */
  readonly matched: Set<string>
  /** Some lexical list came back full, so `matched` misses matches beyond its limit. */
  readonly saturated: boolean
  /** "Matches some word": the condition that counts every lexical match (see Query.ts total). */
  readonly lexicalCondition: QdrantCondition | null
  /** The typed word a partial match must hold (see `headGroup`). */
  readonly head: number | null
}

/** The words the shopper typed (each with its forms). */
export const wordsOf = (query: MatchQuery): Array<QueryWord> => (query.text ? queryWords(query.text) : [])

export const denseSignals = (query: MatchQuery, q: Qdrant): Array<DenseSignal> => {
  const signal = (name: VectorName, using: string, vector: Schemas["VectorInput"]): DenseSignal => ({
    name,
    using,
    vector,
    minSimilarity: query.minSimilarity ?? q.options.minSimilarity[name],
    found: new Map(),
    ceiling: 0
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
  for (const value of Object.values(text ?? {})) for (const term of indexTerms(String(value))) terms.add(term)
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
  /**
   * Payload keys returned with matches: the product id, and the columns when ranking; none
   * when the caller reads the payload of the few it keeps (Query.ts). Qdrant reads a point's
   * whole payload to return any key of it, so a long list with the product id and columns
   * takes several times as long as one without.
   */
  readonly payload: ReadonlyArray<string>
}

/**
 * A text/vector query, every list bounded, along two paths run side by side. Exact: the
 * words' per-site statistics, then one batch of per word its best `lexical` exact matches
 * under the filter (scored by Qdrant with the query's per-site weights) and one kNN list per
 * dense vector (minSimilarity as its threshold). Variants: trigram candidates of the words'
 * typo and prefix variants, the statistics of the verified ones, then per word its best
 * `lexical` variant-only matches. The variants a word has in a site are remembered with the
 * site's statistics, so a word seen lately costs one round on each path.
 */
export const gather = (
  q: Qdrant,
  query: MatchQuery,
  filter: QdrantFilter,
  limits: GatherLimits
): Effect.Effect<Gathered, IndexError> =>
  Effect.gen(function* () {
    const typedForms = wordsOf(query)
    // Every join of two typed words is asked for: one the site does not know has no statistics,
    // so no list, and no point holds its keys (see `withJoinedWords`).
    const words = withJoinedWords(typedForms, () => true)
    const dense = denseSignals(query, q)
    const points: Gathered["points"] = new Map()
    const matched = new Set<string>()
    const keep = (point: ScoredPoint) => {
      const id = String(point.id)
      matched.add(id)
      if (point.payload != null && !points.has(id))
        points.set(id, { productId: productIdOf(point.payload), columns: columnsOf(point.payload) })
      return id
    }
    const withPayload = limits.payload.length === 0 ? false : [...limits.payload]
    interface Ask {
      readonly request: Request
      readonly handle: (found: ReadonlyArray<ScoredPoint>) => void
    }
    const list = (
      vector: SparseVector,
      listFilter: QdrantFilter,
      into: Map<string, number>,
      full: () => void
    ): Ask => ({
      request: {
        query: vector,
        using: LEXICAL_VECTOR,
        filter: listFilter,
        limit: limits.lexical,
        with_payload: withPayload
      },
      handle: (found: ReadonlyArray<ScoredPoint>) => {
        if (found.length >= limits.lexical) full()
        for (const point of found) into.set(keep(point), point.score)
      }
    })
    const run = (asks: ReadonlyArray<Ask>) =>
      batch(
        q,
        asks.map((ask) => ask.request)
      ).pipe(Effect.map((responses) => responses.forEach((response, i) => asks[i].handle(response.points))))

    const gathered: Array<WordMatches> = words.map((word) => ({
      word,
      exactKeys: termKeys(word.stem),
      exactQuery: null,
      variantQuery: null,
      gatedQuery: null,
      exact: new Map(),
      variants: new Map(),
      gated: new Map(),
      exactFull: false,
      variantsFull: false,
      gatedFull: false
    }))

    const pairs: Array<PairMatches> = queryPairs(typedForms).map((keys) => ({
      query: keyQuery(new Map(keys.map((key) => [pairTermKey(key), 1]))),
      holders: new Set(),
      full: false
    }))

    // The words' statistics: the exact path weighs with them, the variant path asks whether a short word is known.
    const stemStatistics = yield* Effect.cached(
      keyWeights(
        q,
        query.siteId,
        words.map((word) => word.stem)
      ).pipe(timed("statistics"))
    )
    const exactPath = Effect.gen(function* () {
      const stems = yield* stemStatistics
      const asks = gathered.flatMap((word): Array<Ask> => {
        const weights = stems.get(word.word.stem)!
        if (weights.size === 0) return []
        word.exactQuery = keyQuery(weights)
        return [list(word.exactQuery, filter, word.exact, () => (word.exactFull = true))]
      })
      for (const pair of pairs) {
        // Holders are no matches by holding a pair: only the word lists say what matches.
        asks.push({
          request: { query: pair.query, using: LEXICAL_VECTOR, filter, limit: limits.lexical, with_payload: false },
          handle: (found) => {
            if (found.length >= limits.lexical) pair.full = true
            for (const point of found) if (point.score > 0) pair.holders.add(String(point.id))
          }
        })
      }
      for (const signal of dense) {
        // A hair below the bound: the threshold's inclusiveness is the server's; ours is >=.
        const request: Request = {
          query: signal.vector,
          using: signal.using,
          filter,
          limit: limits.dense,
          score_threshold: signal.minSimilarity - 1e-6,
          with_payload: withPayload
        }
        asks.push({
          request,
          handle: (found) => {
            for (const point of found)
              if (point.score >= signal.minSimilarity) signal.found.set(keep(point), point.score)
            signal.ceiling = found.length >= limits.dense ? found[found.length - 1].score : signal.minSimilarity
          }
        })
      }
      yield* run(asks).pipe(timed("lists"))
    })

    const variantPath = Effect.gen(function* () {
      // A word the site knows has no typo variants (see editBudget).
      const matching = query.words ?? DEFAULT_WORD_MATCHING
      // A word of the language is gated as a known word is (WordMatching.languageWords).
      const known = (word: QueryWord) =>
        Effect.map(
          stemStatistics,
          (stems) => stems.get(word.stem)!.size > 0 || (matching.languageWords?.includes(word.typed) ?? false)
        )
      const last = typedForms[typedForms.length - 1]
      const variantTerms = yield* Effect.forEach(
        words,
        (word) =>
          word.span > 1
            ? Effect.succeed<WordVariants>(new Map())
            : variantsOf(
                q,
                query.siteId,
                word,
                completesPrefix(word.typed, word === last, matching),
                matching,
                known(word)
              ),
        {
          concurrency: "unbounded"
        }
      ).pipe(timed("variants"))
      const variantStats = yield* keyWeights(q, query.siteId, [
        ...new Set(variantTerms.flatMap((terms) => [...terms.keys()]))
      ]).pipe(timed("variant-statistics"))
      const asks = gathered.flatMap((word, i): Array<Ask> => {
        const variants = new Map<number, number>()
        const gated = new Map<number, number>()
        for (const [term, variant] of variantTerms[i]) {
          const into = variant.gated ? gated : variants
          for (const [key, keyWeight] of variantStats.get(term)!)
            into.set(key, Math.max(into.get(key) ?? 0, variant.weight * keyWeight))
        }
        const asked: Array<Ask> = []
        // Exact matches take precedence over variants of the same word (as in the embedded index),
        // and ungated variants over gated ones.
        if (variants.size > 0) {
          word.variantQuery = keyQuery(variants)
          asked.push(
            list(word.variantQuery, without(filter, holdsAny(word.exactKeys)), word.variants, () => {
              word.variantsFull = true
            })
          )
        }
        if (gated.size > 0) {
          word.gatedQuery = keyQuery(gated)
          asked.push(
            list(word.gatedQuery, without(filter, holdsAny(ungatedKeys(word))), word.gated, () => {
              word.gatedFull = true
            })
          )
        }
        return asked
      })
      yield* run(asks).pipe(timed("variant-lists"))
    })

    yield* Effect.all([exactPath, variantPath], { concurrency: 2, discard: true })
    const saturated = gathered.some((word) => word.exactFull || word.variantsFull || word.gatedFull)
    return {
      words: gathered,
      pairs,
      dense,
      points,
      matched,
      saturated,
      lexicalCondition: lexicalCondition(gathered),
      head: headGroup(typedForms)
    }
  })

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
 * "Matches enough of the words" (see `requiredWords`) as one Qdrant condition: per typed word,
 * it holds one of its forms or a searched variant, and at least the required number of those
 * hold. How many words the best match holds is read from the lists (a full list may hide a
 * point that holds more; the count then errs towards more matches). Gated variants need the
 * text model's word, which a count cannot ask: the count leaves them out.
 */
const lexicalCondition = (words: ReadonlyArray<WordMatches>): QdrantCondition | null => {
  if (words.length === 0) return null
  const { typed, required } = wordCoverage(wordScoresOf(words))
  const keys = Array.from({ length: typed }, () => [] as Array<number>)
  for (const { word, exactKeys, variantQuery } of words) {
    for (let group = word.group; group < word.group + word.span; group++)
      keys[group].push(...exactKeys, ...(variantQuery?.indices ?? []))
  }
  return required <= 1 ? holdsAny(keys.flat()) : { min_should: { conditions: keys.map(holdsAny), min_count: required } }
}

/**
 * A word's verified typo and prefix variants in the site, best weighted first (at most
 * MAX_VARIANTS): proposed by the trigram query (the closest spellings, never points holding
 * the word itself), decided by the embedded index's rules (Variants.ts); the typos of a word
 * the site knows are gated. Remembered with the site's statistics: the trigram query is the
 * costliest request of a search, even when it proposes nothing.
 */
const variantsOf = (
  q: Qdrant,
  siteId: number,
  word: QueryWord,
  prefix: boolean,
  matching: WordMatching,
  known: Effect.Effect<boolean, IndexError>
): Effect.Effect<WordVariants, IndexError> =>
  // Nothing to look up: no statistics asked for (a submitted search of short or known words).
  !prefix && editBudget(word.typed, false, matching) === 0
    ? Effect.succeed(new Map())
    : Effect.flatMap(known, (isKnown) => knownVariantsOf(q, siteId, word, prefix, matching, isKnown))

const knownVariantsOf = (
  q: Qdrant,
  siteId: number,
  word: QueryWord,
  prefix: boolean,
  matching: WordMatching,
  known: boolean
): Effect.Effect<WordVariants, IndexError> => {
  const gram = gramQuery(word, prefix, editBudget(word.typed, false, matching))
  if (gram === null) return Effect.succeed(new Map())
  const exactKeys = termKeys(word.stem)
  const discover = Effect.gen(function* () {
    // Shared trigram counts are whole numbers: half below the bound avoids float edge cases.
    const [response] = yield* batch(q, [
      {
        query: gram.vector,
        using: GRAMS_VECTOR,
        filter: without(toQdrantFilter(siteId, emptyFilter), holdsAny(exactKeys)),
        limit: GRAM_CANDIDATES,
        score_threshold: gram.threshold - 0.5,
        with_payload: [TEXT_KEY]
      }
    ])
    const found = new Map<string, { weight: number; gated: boolean }>()
    const typos: Array<Variant> = []
    for (const point of response.points) {
      for (const variant of variantWeights(word, prefix, docTerms(textOf(point.payload)), q.options, matching)) {
        typos.push(variant)
      }
    }
    for (const { term, weight, edits } of fewestEdits(typos, matching)) {
      const before = found.get(term)
      // A term that completes the word is no typo of it, whatever else it is.
      const gated = known && edits > 0 && !numberedForm(word.typed, term) && (before?.gated ?? true)
      found.set(term, { weight: Math.max(weight, before?.weight ?? Number.NEGATIVE_INFINITY), gated })
    }
    return new Map([...found].sort((a, b) => b[1].weight - a[1].weight).slice(0, MAX_VARIANTS))
  })
  return q.statistics.remember(
    siteId,
    `variants:${prefix ? "prefix" : "whole"}:${known ? "known" : "new"}:${JSON.stringify([
      matching.typoTolerance,
      matching.minWordSizeFor1Typo,
      matching.minWordSizeFor2Typos
    ])}:${word.typed}:${word.stem}`,
    discover
  )
}
