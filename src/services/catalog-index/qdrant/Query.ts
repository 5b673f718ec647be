import { columnsOf, productIdOf } from "./Layout.js"
import { Effect } from "effect"
import type {
  FacetAnswer,
  FacetRequest,
  IndexError,
  MatchScope,
  SearchHit,
  SearchQuery,
  SearchResult
} from "../CatalogIndex.js"
import { byCodeUnits } from "../ColumnValues.js"
import { VARIANT_GROUP_COLUMN } from "../../../model/Columns.js"
import { firstOfEachGroup, nextLength, relevancePrefix, sortOrder } from "../Listing.js"
import type { Qdrant } from "./Client.js"
import { toQdrantFilter, type QdrantFilter } from "./FilterTranslation.js"
import { bestLexical, byColumns, fuse, lexicalScores, type Candidate, type Ranking } from "./Fusion.js"
import {
  gather,
  widen,
  wordsOf,
  wordScoresOf,
  denseSignals,
  type Gathered,
  type GatherLimits,
  type MatchQuery
} from "./Gather.js"
import { byProductId } from "./IdOrder.js"
import { bestEntries } from "../TopK.js"
import { COLUMNS_KEY } from "./Layout.js"
import { pointIds } from "./PointIds.js"
import { resultSetOf, scopeOf } from "./ResultSet.js"
import type { SiteTerms } from "./SiteTerms.js"
import type { Tallied } from "./ColumnTally.js"

const filterOf = (query: MatchQuery) =>
  toQdrantFilter(query.siteId, query.filter, {
    exceptIds: pointIds(query.siteId, query.excludeIds ?? []),
    ...(query.onlyIds !== undefined && { onlyIds: pointIds(query.siteId, query.onlyIds) })
  })

/** A query with neither words nor vectors browses: everything in the filter matches. */
const browses = (query: MatchQuery, q: Qdrant) => wordsOf(query).length === 0 && denseSignals(query, q).length === 0

/**
 * The matches of the query, as search counts them, but bounded: a browse gives the first
 * `matchCap` of the scope by product id; a text query the best `matchCap` exact and the best
 * `matchCap` variant-only matches per word (by Qdrant's score, product ids only), plus the
 * dense hits at or above minSimilarity among `denseCandidates` neighbours. Facets over these
 * ids count a common word's best matches, not all of them (facets over a filter are exact).
 */
export const matchIds = (q: Qdrant, query: MatchQuery): Effect.Effect<Array<string>, IndexError> => {
  const filter = filterOf(query)
  const known = browses(query, q) ? fromMemory(q, query) : null
  if (known !== null) return Effect.succeed(known)
  if (browses(query, q)) {
    return byProductId(q, filter, q.options.matchCap, []).pipe(
      Effect.map(({ records }) => records.map((r) => productIdOf(r.payload)))
    )
  }
  return gather(q, query, filter, { lexical: q.options.matchCap, dense: q.options.denseCandidates }).pipe(
    Effect.map((gathered) => scoredOf(q, gathered).map(({ id }) => gathered.points.get(id)!.productId))
  )
}

/**
 * A browse whose candidates memory names (given ids, or item groups: a page's variants), decided
 * there by the rule every backend's filters follow (conditionHolds), by product id; null for
 * any other.
 */
const fromMemory = (q: Qdrant, query: MatchQuery): Array<string> | null => {
  const site = q.terms.memory().site(query.siteId)
  const groups = query.filter.must.find(
    (condition) => condition.column === VARIANT_GROUP_COLUMN && "anyOf" in condition
  )
  const seeds =
    query.onlyIds !== undefined
      ? pointIds(query.siteId, query.onlyIds)
      : groups !== undefined && "anyOf" in groups
        ? groups.anyOf.flatMap((group) => [...site.groupMembers(group)])
        : null
  if (seeds === null) return null
  const accept = scopeOf(query)
  const found = new Set<string>()
  for (const id of seeds) {
    const holding = site.holding(id)
    if (holding !== undefined && accept(holding)) found.add(holding.productId)
  }
  return [...found].sort(byCodeUnits).slice(0, q.options.matchCap)
}

const rankingOf = (query: SearchQuery, q: Qdrant): Ranking => ({
  weights: {
    lexical: query.weights?.lexical ?? q.options.weights.lexical,
    text: query.weights?.text ?? q.options.weights.text,
    image: query.weights?.image ?? q.options.weights.image
  },
  boosts: query.boosts ?? [],
  near: query.near,
  signalBoosts: (query.signalBoosts ?? []).flatMap(({ signal, weight }) => {
    const values = query.signals?.get(signal)
    return values === undefined || values.size === 0 ? [] : [{ values, weight }]
  })
})

/**
 * A browse ranks by boosts and `near`, then product id. Without them the page is the scope's
 * first `limit` product ids (exact, any scope size); with them, the first `matchCap` ids are
 * ranked (Qdrant cannot order by a boost sum and an id at once).
 */
const browse = (q: Qdrant, query: SearchQuery, filter: QdrantFilter, ranking: Ranking) =>
  Effect.gen(function* () {
    const ranked = byColumns(ranking)
    const { records } = yield* byProductId(
      q,
      filter,
      ranked ? Math.max(q.options.matchCap, query.limit) : query.limit,
      [COLUMNS_KEY]
    )
    const candidates = records.map(
      (r): Candidate => ({ productId: productIdOf(r.payload), columns: columnsOf(r.payload), lexical: 0 })
    )
    return fuse(candidates, ranking, query.limit)
  })

/** A result set's size (products, or groups with `groupBy`) and facets, counted over its members. */
const setFacts = (
  site: SiteTerms,
  members: ReadonlyArray<Tallied>,
  groupBy: string | undefined,
  request: FacetRequest | undefined
): { readonly total: number; readonly facets?: FacetAnswer } => {
  if (groupBy === undefined && request === undefined) return { total: members.length }
  const slots = Int32Array.from(members, (member) => member.slot)
  const total = groupBy === undefined ? members.length : site.tally.groups(slots, groupBy).count
  return request === undefined ? { total } : { total, facets: site.tally.facets(slots, request, groupBy) }
}

/** Signals by point id: what fusion needs besides a point's product id and columns. */
type Scored = Omit<Candidate, "productId" | "columns"> & { readonly id: string }

/**
 * Every match with the signals known so far (a similarity not yet known is absent): a point
 * listed for enough of the words (see lexicalScores), or a dense hit at or above its
 * minSimilarity. A point listed for too few words only is no match.
 */
const scoredOf = (q: Qdrant, gathered: Gathered): Array<Scored> => {
  const signal = (name: "text" | "image", id: string) => gathered.dense.find((s) => s.name === name)?.found.get(id)
  const partial = new Map<string, number>()
  const lexical = lexicalScores(
    wordScoresOf(gathered.words),
    q.options.fuzzyWeight,
    { pairs: gathered.pairs.map((pair) => pair.holders), weight: q.options.phraseWeight },
    // The embedded index's variant gate: a typo of a known word counts where the text model agrees.
    (id) => (signal("text", id) ?? -1) < q.options.variantGate,
    { into: partial, head: gathered.head }
  )
  // The embedded index's partial matches: fewer of the words, and the meaning.
  for (const [id, score] of bestEntries(partial, q.options.partialCandidates))
    if ((signal("text", id) ?? -1) >= q.options.partialGate) lexical.set(id, score)
  const denseHit = (id: string) =>
    gathered.dense.some((s) => (s.found.get(id) ?? Number.NEGATIVE_INFINITY) >= s.minSimilarity)
  return [...gathered.points.keys()].flatMap((id) =>
    lexical.has(id) || denseHit(id)
      ? [{ id, lexical: lexical.get(id) ?? 0, text: signal("text", id), image: signal("image", id) }]
      : []
  )
}

/** The scored points as fusion's candidates, with the slots a tally counts them by. */
const candidatesOf = (gathered: Gathered, scored: ReadonlyArray<Scored>): Array<Candidate & Tallied> =>
  scored.map((point) => {
    const { productId, columns, slot } = gathered.points.get(point.id)!
    return { productId, columns, slot, lexical: point.lexical, text: point.text, image: point.image }
  })

/**
 * How many points each list asks for. Ranked by signals alone, a point only the kNN list could
 * find is outranked by the `limit` more similar points ahead of it (each scores at least its
 * similarity), so that list needs `limit` (and at least denseCandidates, the embedded index's
 * minimum); a word's list keeps denseCandidates beyond the page for matches that another
 * word or a similarity lifts. Boosts and `near` can lift any point: the embedded index's
 * max(denseCandidates, 4 × limit) for both then. Shorter lists are faster searches.
 */
const listLengths = (q: Qdrant, limit: number, byColumns: boolean): Pick<GatherLimits, "lexical" | "dense"> => {
  const wide = Math.max(q.options.denseCandidates, 4 * limit)
  return byColumns
    ? { lexical: wide, dense: wide }
    : { lexical: limit + q.options.denseCandidates, dense: Math.max(q.options.denseCandidates, limit) }
}

/**
 * Hybrid search in one round of Qdrant requests. One batch finds the candidates with all their
 * signals (Gather.ts); their columns are in memory (SiteTerms.ts), so they are fused here with
 * the embedded index's arithmetic (Fusion.ts). When no list was cut they are the whole result
 * set; when one was, the set's members are counted in memory to the last (ResultSet.ts). Either
 * way groups, totals and facets take no further request. With `groupBy` the hits are every
 * candidate, ranked (the caller keeps one per group); `everyMatch` says whether they are every
 * match, `everyMember` ranks every member (words from memory, no similarity beyond the
 * candidates').
 */
const ranked = (
  q: Qdrant,
  query: SearchQuery,
  facetRequest: FacetRequest | undefined
): Effect.Effect<
  SearchResult & { readonly everyMatch: boolean; readonly everyMember?: () => Array<SearchHit> },
  IndexError
> =>
  Effect.gen(function* () {
    const filter = filterOf(query)
    const ranking = rankingOf(query, q)
    const site = q.terms.memory().site(query.siteId)
    if (browses(query, q)) {
      const hits = yield* browse(q, query, filter, ranking)
      return {
        hits,
        ...setFacts(site, resultSetOf(site, query, null, []), query.groupBy, facetRequest),
        everyMatch: false
      }
    }
    const grouped = query.groupBy !== undefined
    const gathered = yield* gather(q, query, filter, listLengths(q, query.limit, byColumns(ranking)))
    const scored = scoredOf(q, gathered)
    const best = bestLexical(scored)
    const found = candidatesOf(gathered, scored)
    const hits = fuse(found, ranking, grouped ? found.length : query.limit, best)
    if (!gathered.saturated) return { hits, ...setFacts(site, found, query.groupBy, facetRequest), everyMatch: true }
    const members = resultSetOf(
      site,
      query,
      gathered,
      scored.map(({ id }) => id)
    )
    const everyMember = () => {
      widen(
        q,
        query.siteId,
        gathered,
        members.map((member) => member.pointId)
      )
      const all = candidatesOf(gathered, scoredOf(q, gathered))
      return fuse(all, ranking, all.length, bestLexical(all))
    }
    return { hits, ...setFacts(site, members, query.groupBy, facetRequest), everyMatch: false, everyMember }
  })

/** The result set of `scope` (see resultSetOf), the site's memory it came from, and what gathering its words and vectors learnt (null for a browse). */
const resultSet = (q: Qdrant, scope: MatchScope, lexical: number) =>
  Effect.gen(function* () {
    const site = q.terms.memory().site(scope.siteId)
    if (browses(scope, q)) return { site, members: resultSetOf(site, scope, null, []), gathered: null }
    const gathered = yield* gather(q, scope, filterOf(scope), { lexical, dense: q.options.denseCandidates })
    const scored = scoredOf(q, gathered).map(({ id }) => id)
    return { site, members: resultSetOf(site, scope, gathered, scored), gathered }
  })

/**
 * One page of the query's matches: by relevance, or by `sort`, from `offset`, one per group
 * with `groupBy`, with the facets asked for. A sorted or grouped listing reads its whole result
 * set's ids and columns (Qdrant orders by one indexed number at a time and cannot group a
 * fused ranking), so its cost grows with the set; a plain ranking asks for the page's depth only.
 */
export const search = (q: Qdrant, query: SearchQuery): Effect.Effect<SearchResult, IndexError> =>
  Effect.gen(function* () {
    const offset = Math.max(0, query.offset ?? 0)
    const end = offset + Math.max(0, query.limit)
    const sorted = query.sort !== undefined && query.sort.length > 0
    const withFacets = (result: SearchResult, counted: FacetAnswer | undefined): SearchResult =>
      counted === undefined ? result : { ...result, facets: counted }
    if (!sorted && query.groupBy === undefined) {
      // Deeper rankings until duplicates spread apart settle the page (the first one mostly does).
      let counted: FacetAnswer | undefined
      for (let length = nextLength(null, end); ; length = nextLength(length, end)) {
        const result = yield* ranked(q, { ...query, limit: length }, counted === undefined ? query.facets : undefined)
        counted ??= result.facets
        const prefix = relevancePrefix(result.hits, length, result.total, end, undefined)
        if (prefix !== null) return withFacets({ hits: prefix.slice(offset), total: result.total }, counted)
      }
    }
    if (!sorted) {
      // Every candidate ranked, one kept per group: enough groups for the page, or all matches.
      const result = yield* ranked(q, { ...query, limit: end }, query.facets)
      const available = result.everyMatch ? result.hits.length : Number.POSITIVE_INFINITY
      const settled =
        relevancePrefix(result.hits, result.hits.length, available, end, query.groupBy) ??
        (result.everyMember === undefined
          ? null
          : relevancePrefix(result.everyMember(), Number.POSITIVE_INFINITY, 0, end, query.groupBy))
      if (settled !== null) return withFacets({ hits: settled.slice(offset), total: result.total }, result.facets)
    }
    const { site, members, gathered } = yield* resultSet(q, query, end + q.options.denseCandidates)
    const { total, facets: counted } = setFacts(site, members, query.groupBy, query.facets)
    if (!sorted) {
      for (let length = nextLength(null, end); ; length = nextLength(length, end)) {
        const { hits } = yield* ranked(q, { ...query, limit: Math.min(length, members.length) }, undefined)
        const prefix = relevancePrefix(hits, length, members.length, end, query.groupBy)
        if (prefix !== null) return withFacets({ hits: prefix.slice(offset), total }, counted)
      }
    }
    // Ties of the order go by relevance: what was gathered scored (a member beyond it scores 0 on words).
    const scored = new Map((gathered === null ? [] : scoredOf(q, gathered)).map((point) => [point.id, point]))
    const candidates = members.map((member): Candidate => {
      const point = scored.get(member.pointId)
      return {
        productId: member.productId,
        columns: member.columns,
        lexical: point?.lexical ?? 0,
        text: point?.text,
        image: point?.image
      }
    })
    const fused = fuse(candidates, rankingOf(query, q), candidates.length)
    const byProduct = new Map(fused.map((hit) => [hit.productId, hit]))
    // Per-product numbers sort like columns.
    const signals = query.signals
    const sortable =
      signals === undefined || !query.sort!.some((key) => signals.has(key.column))
        ? members
        : members.map((member) => ({
            ...member,
            columns: {
              ...member.columns,
              ...Object.fromEntries(
                query.sort!.flatMap((key) =>
                  signals.has(key.column) ? [[key.column, signals.get(key.column)!.get(member.productId) ?? null]] : []
                )
              )
            }
          }))
    const order = sortOrder(
      sortable,
      query.sort!,
      (i) => byProduct.get(members[i].productId)!.score,
      query.groupBy === undefined ? end : members.length
    )
    const hits = Array.from(order, (i) => byProduct.get(members[i].productId)!)
    const page = query.groupBy === undefined ? hits.slice(0, end) : firstOfEachGroup(hits, query.groupBy).slice(0, end)
    return withFacets({ hits: page.slice(offset), total }, counted)
  })

/** Exact facets of the query's matches. */
export const facets = (q: Qdrant, scope: MatchScope, request: FacetRequest): Effect.Effect<FacetAnswer, IndexError> =>
  Effect.map(
    resultSet(q, scope, q.options.denseCandidates),
    ({ site, members }) => setFacts(site, members, scope.groupBy, request).facets!
  )
