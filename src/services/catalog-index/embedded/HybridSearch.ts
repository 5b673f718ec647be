import type { FacetAnswer, FacetRequest, PreparedScope, SearchHit, SearchQuery, SearchResult } from "../CatalogIndex.js"
import { byCodeUnits } from "../ColumnValues.js"
import { facetsOfSlots } from "./ColumnCounts.js"
import { firstOfEachGroup, nextLength, relevancePrefix, sortKeys, sortPrefix, textTieBreaks } from "../Listing.js"
import type { EmbeddedIndexOptions, VectorName } from "./EmbeddedIndexOptions.js"
import { countMask, type SlotMask } from "./PayloadColumns.js"
import { vectorNames, type PreparedWords, type SiteIndex } from "./SiteIndex.js"
import { kthLargest } from "../TopK.js"
import { queryVector, type QueryVector } from "./VectorIndex.js"

type MatchQuery = Omit<SearchQuery, "limit">

/** One query vector's kNN answer within the allowed documents. */
interface DenseSignal {
  readonly name: VectorName
  readonly query: QueryVector
  readonly found: Map<number, number>
  /** The weakest similarity found: (approximately) a ceiling for every document not found. */
  readonly floor: number
}

interface Matching {
  /** Raw lexical score by slot; null when the query has no words. */
  readonly lexical: Float64Array | null
  readonly dense: ReadonlyArray<DenseSignal>
  readonly slots: ReadonlyArray<number>
}

/**
 * Matches are lexical matches plus dense neighbours at or above `minSimilarity`, all
 * within the filter. A query with neither words nor vectors browses: every document in
 * the filter matches (a category page).
 */
const match = (site: SiteIndex, query: MatchQuery, k: number, options: EmbeddedIndexOptions): Matching => {
  const { allowed, restricted, allowedCount, lexical } =
    site.takePrepared(() => scopeKey(query)) ?? matchWords(site, query)
  // The lexical slot list is this query's own: dense matches are appended to it.
  const slots = lexical?.slots ?? []
  const matched = new Uint8Array(allowed.length)
  for (const slot of slots) matched[slot] = 1
  const dense: Array<DenseSignal> = []
  for (const name of vectorNames) {
    const vector = name === "text" ? query.textVector : query.imageVector
    if (vector === undefined) continue
    const signal = queryVector(vector)
    const found = site.vectors[name].nearest(signal, k, restricted ? allowed : null, allowedCount)
    const minSimilarity = query.minSimilarity ?? options.minSimilarity[name]
    let floor = found.size === 0 ? 0 : 1
    for (const [slot, similarity] of found) {
      floor = Math.min(floor, similarity)
      if (similarity >= minSimilarity && matched[slot]++ === 0) slots.push(slot)
    }
    dense.push({ name, query: signal, found, floor: Math.max(0, floor) })
  }
  if (lexical === null && dense.length === 0) return { lexical: null, dense, slots: maskSlots(allowed) }
  if (lexical === null) return { lexical: null, dense, slots }
  const text = dense.find((signal) => signal.name === "text")
  const cosine = (slot: number) =>
    text === undefined ? -1 : (text.found.get(slot) ?? site.vectors.text.similarity(slot, text.query))
  // Partial matches (EmbeddedIndexOptions.partialGate): fewer of the words, and the meaning.
  for (const [slot, score] of lexical.partial ?? []) {
    if (cosine(slot) < options.partialGate) continue
    lexical.scores[slot] = score
    if (matched[slot]++ === 0) slots.push(slot)
  }
  const gated = lexical.gated
  if (gated === undefined || gated.size === 0) return { lexical: lexical.scores, dense, slots }
  // The variant gate (EmbeddedIndexOptions.variantGate): a match through another word needs the meaning too.
  const dropped = new Set<number>()
  for (const [slot, refused] of gated) {
    if (cosine(slot) >= options.variantGate) continue
    lexical.scores[slot] *= refused
    if (refused === 0 && matched[slot] === 1) dropped.add(slot)
  }
  return {
    lexical: lexical.scores,
    dense,
    slots: dropped.size === 0 ? slots : slots.filter((slot) => !dropped.has(slot))
  }
}

/** The scope's allowed slots and the words' matches in it: what needs no query vector. */
const matchWords = (site: SiteIndex, scope: PreparedScope): PreparedWords => {
  const allowed = site.mask(scope.filter)
  if (scope.onlyIds !== undefined) {
    const only = site.idsMask(scope.onlyIds)
    for (let slot = 0; slot < allowed.length; slot++) allowed[slot] &= only[slot]
  }
  for (const id of scope.excludeIds ?? []) {
    const slot = site.slotOf(id)
    if (slot !== undefined) allowed[slot] = 0
  }
  const restricted =
    scope.onlyIds !== undefined ||
    scope.filter.must.length + scope.filter.mustNot.length + (scope.excludeIds?.length ?? 0) > 0
  const allowedCount = restricted ? countMask(allowed) : site.count
  const lexical = scope.text ? site.lexical.score(scope.text, allowed, scope.words) : null
  return { allowed, restricted, allowedCount, lexical }
}

const scopeKey = (scope: PreparedScope): string =>
  JSON.stringify([scope.text ?? "", scope.words ?? null, scope.filter, scope.onlyIds ?? null, scope.excludeIds ?? null])

/**
 * Matches the scope's words ahead of its search (CatalogIndex.prepare): the text model
 * embeds the query on another thread meanwhile, so a text search waits for the longer of
 * the two instead of their sum.
 */
export const prepare = (site: SiteIndex, scope: PreparedScope): void =>
  site.keepPrepared(scopeKey(scope), matchWords(site, scope))

const maskSlots = (mask: SlotMask): Array<number> => {
  const slots: Array<number> = []
  for (let slot = 0; slot < mask.length; slot++) if (mask[slot] === 1) slots.push(slot)
  return slots
}

export const matchIds = (site: SiteIndex, query: MatchQuery, options: EmbeddedIndexOptions): Array<string> =>
  match(site, query, options.denseCandidates, options).slots.map((slot) => site.docAt(slot).productId)

/** How one query scores a matching slot: the base (lexical, boosts, near) and dense similarities. */
interface Scorer {
  readonly base: (slot: number) => number
  readonly lexicalShare: (slot: number) => number
  readonly weights: { readonly lexical: number; readonly text: number; readonly image: number }
  /** The slot's exact score and cosines (a dot product for a similarity the kNN list lacks). */
  readonly exact: (slot: number) => { readonly score: number; readonly text: number; readonly image: number }
}

const scorerOf = (
  site: SiteIndex,
  query: SearchQuery,
  options: EmbeddedIndexOptions,
  { lexical, dense, slots }: Matching
): Scorer => {
  const weights = {
    lexical: query.weights?.lexical ?? options.weights.lexical,
    text: query.weights?.text ?? options.weights.text,
    image: query.weights?.image ?? options.weights.image
  }
  let bestLexical = 0
  if (lexical !== null) for (const slot of slots) bestLexical = Math.max(bestLexical, lexical[slot])
  const lexicalShare = (slot: number) => (lexical === null || bestLexical === 0 ? 0 : lexical[slot] / bestLexical)
  const boosts = (query.boosts ?? []).map(({ condition, weight }) => ({
    accepted: site.columns.conditionMask(condition, site.slotCount),
    weight
  }))
  const near = query.near
  const signalBoosts = (query.signalBoosts ?? []).flatMap(({ signal, weight }) => {
    const values = query.signals?.get(signal)
    return values === undefined || values.size === 0 ? [] : [{ values, weight }]
  })
  const base = (slot: number): number => {
    let score = weights.lexical * lexicalShare(slot)
    for (const boost of boosts) if (boost.accepted[slot] === 1) score += boost.weight
    if (signalBoosts.length > 0) {
      const productId = site.docAt(slot).productId
      for (const { values, weight } of signalBoosts) score += weight * (values.get(productId) ?? 0)
    }
    if (near !== undefined) {
      const x = site.columns.numberAt(near.column, slot)
      if (!Number.isNaN(x))
        score += near.weight * (1 - Math.min(1, Math.abs(x - near.value) / (Math.abs(near.value) || 1)))
    }
    return score
  }
  const exact = (slot: number) => {
    const cosine = { text: 0, image: 0 }
    for (const signal of dense) {
      const similarity = signal.found.get(slot) ?? site.vectors[signal.name].similarity(slot, signal.query)
      cosine[signal.name] = Math.max(0, similarity)
    }
    return { score: base(slot) + weights.text * cosine.text + weights.image * cosine.image, ...cosine }
  }
  return { base, lexicalShare, weights, exact }
}

const hitAt = (site: SiteIndex, scorer: Scorer, slot: number): SearchHit => {
  const { score, text, image } = scorer.exact(slot)
  return {
    productId: site.docAt(slot).productId,
    score,
    lexical: scorer.lexicalShare(slot),
    text,
    image,
    weights: scorer.weights,
    columns: site.payloadAt(slot),
    title: site.titleAt(slot)
  }
}

/**
 * The best `limit` matches by score = wL·(bm25 / best bm25 of the query) + wT·text cosine +
 * wI·image cosine + boosts + near bonus. Exact cosines cost a dot product each, so they are
 * computed only for matches whose upper bound (unknown cosines at their kNN floor) can still
 * reach the top `limit`. Weights are assumed non-negative, as the bounds rely on it.
 */
const bestHits = (site: SiteIndex, matching: Matching, scorer: Scorer, limit: number): Array<SearchHit> => {
  const { dense, slots } = matching
  const baseScores = slots.map(scorer.base)
  const lower = Float64Array.from(baseScores)
  const upper = Float64Array.from(baseScores)
  slots.forEach((slot, i) => {
    for (const signal of dense) {
      const similarity = signal.found.get(slot)
      lower[i] += similarity === undefined ? 0 : scorer.weights[signal.name] * Math.max(0, similarity)
      upper[i] += scorer.weights[signal.name] * Math.max(0, similarity ?? signal.floor)
    }
  })
  // At least `limit` matches score at least this, so a match whose ceiling is below it cannot place.
  const threshold = kthLargest(lower, limit)
  if (limit === 0) return []
  // Those that can place, sorted: a deep page (offset 10,000) sorts ~10,000, not 10,000 insertions.
  const top: Array<SearchHit> = []
  slots.forEach((slot, i) => {
    if (upper[i] >= threshold) top.push(hitAt(site, scorer, slot))
  })
  return top.sort((a, b) => b.score - a.score || byCodeUnits(a.productId, b.productId)).slice(0, limit)
}

/** Distinct groups among the slots: the column's values held, plus each slot without one. */
const groupCount = (site: SiteIndex, slots: ReadonlyArray<number>, groupBy: string): number => {
  const mask = new Uint8Array(site.slotCount)
  for (const slot of slots) mask[slot] = 1
  const groups = site.columns.groupNumbers(groupBy, mask)
  let alone = 0
  for (const slot of slots) if (groups.of[slot] < 0) alone++
  return groups.count + alone
}

/**
 * One page of the query's matches: by relevance (see bestHits) or by `sort`, from `offset`,
 * one per group with `groupBy`. `total` counts every match (or group).
 */
export const search = (site: SiteIndex, query: SearchQuery, options: EmbeddedIndexOptions): SearchResult => {
  // Dense neighbours beyond the page add nothing a deeper ranking would show: a page of 20
  // needs 200 of them, not 1,200 (an HNSW walk's cost grows with its ef).
  const matching = match(
    site,
    query,
    Math.max(options.denseCandidates, Math.max(0, query.offset ?? 0) + Math.max(0, query.limit)),
    options
  )
  const result = page(site, query, options, matching)
  return query.facets === undefined
    ? result
    : { ...result, facets: facetsOfSlots(site, matching.slots, query.facets, query.groupBy) }
}

const page = (site: SiteIndex, query: SearchQuery, options: EmbeddedIndexOptions, matching: Matching): SearchResult => {
  const offset = Math.max(0, query.offset ?? 0)
  const end = offset + Math.max(0, query.limit)
  const scorer = scorerOf(site, query, options, matching)
  const { slots } = matching
  const groupBy = query.groupBy
  const total = groupBy === undefined ? slots.length : groupCount(site, slots, groupBy)
  const sort = query.sort
  if (sort !== undefined && sort.length > 0) {
    const signals = query.signals
    const numbers = new Map(
      sort.filter(({ column }) => !signals?.has(column)).map(({ column }) => [column, site.columns.numbers(column)])
    )
    const keys = sortKeys(sort, slots.length, (i, column) => {
      const signal = signals?.get(column)
      if (signal !== undefined) return signal.get(site.docAt(slots[i]).productId) ?? NaN
      const values = numbers.get(column)!
      return slots[i] < values.length ? values[slots[i]] : NaN
    })
    const tieBreaks = textTieBreaks(sort, (i, column) => {
      const value = site.payloadAt(slots[i])[column]
      return typeof value === "string" ? value : undefined
    })
    const hits = (length: number) =>
      Array.from(
        sortPrefix(
          keys,
          slots.length,
          length,
          (i) => scorer.exact(slots[i]).score,
          (i) => site.docAt(slots[i]).productId,
          tieBreaks
        ),
        (i) => hitAt(site, scorer, slots[i])
      )
    if (groupBy === undefined) return { hits: hits(end).slice(offset), total }
    for (let length = nextLength(null, end); ; length = nextLength(length, end)) {
      const firsts = firstOfEachGroup(hits(Math.min(length, slots.length)), groupBy)
      if (firsts.length >= end || length >= slots.length) return { hits: firsts.slice(offset, end), total }
    }
  }
  for (let length = nextLength(null, end); ; length = nextLength(length, end)) {
    const prefix = relevancePrefix(bestHits(site, matching, scorer, length), length, slots.length, end, groupBy)
    if (prefix !== null) return { hits: prefix.slice(offset), total }
  }
}

/** The members of the scope's result set, for exact facet counts. */
export const facets = (
  site: SiteIndex,
  scope: MatchQuery,
  request: FacetRequest,
  options: EmbeddedIndexOptions
): FacetAnswer =>
  facetsOfSlots(site, match(site, scope, options.denseCandidates, options).slots, request, scope.groupBy)
