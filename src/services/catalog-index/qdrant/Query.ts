import { createHash } from "node:crypto"
import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import { timed } from "../../../platform/ServerTiming.js"
import type { FacetAnswer, FacetRequest, IndexError, MatchScope, SearchQuery, SearchResult } from "../CatalogIndex.js"
import { tallyFacets } from "../ColumnValues.js"
import { countGroups, firstOfEachGroup, nextLength, relevancePrefix, sortOrder } from "../Listing.js"
import { facetOver, intervalsOver } from "./Aggregates.js"
import { emptyFilter } from "../../../model/Filter.js"
import type { Qdrant } from "./Client.js"
import { call } from "./Request.js"
import { andAlso, toQdrantFilter, type QdrantCondition, type QdrantFilter } from "./FilterTranslation.js"
import { bestLexical, byColumns, fuse, lexicalScores, signalScore, type Candidate, type Ranking } from "./Fusion.js"
import {
  gather,
  wordsOf,
  wordScoresOf,
  ungatedKeys,
  denseSignals,
  type Gathered,
  type GatherLimits,
  type MatchQuery
} from "./Gather.js"
import { byProductId } from "./IdOrder.js"
import { bestEntries, kthLargest } from "../TopK.js"
import { COLUMNS_KEY, LEXICAL_VECTOR, PRODUCT_KEY, TERMS_KEY } from "./Layout.js"
import { columnsOf, productIdOf, scrollAll } from "./Points.js"
import { pointIds } from "./PointIds.js"

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
  if (browses(query, q)) {
    return byProductId(q, filter, q.options.matchCap, []).pipe(
      Effect.map(({ records }) => records.map((r) => productIdOf(r.payload)))
    )
  }
  return gather(q, query, filter, {
    lexical: q.options.matchCap,
    dense: q.options.denseCandidates,
    payload: [PRODUCT_KEY]
  }).pipe(Effect.map((gathered) => scoredOf(q, gathered).map(({ id }) => gathered.points.get(id)!.productId)))
}

/**
 * The scores the lists could not give: a match missing from a word's list (it fell below the
 * list's cut, or came from another list) gets that word's exact or variant score, and a match
 * missing from a dense list its exact similarity. One batch, each query restricted (`has_id`)
 * to the matches it lacks. With `page` (a ranking by signals alone) and lexical scores the
 * lists gave in full, a similarity is only asked for where it can still lift a match onto the
 * page (see `mayReach`).
 */
const complete = (
  q: Qdrant,
  siteId: number,
  gathered: Gathered,
  page?: { readonly ranking: Ranking; readonly limit: number }
): Effect.Effect<void, IndexError> => {
  const searches: Array<Schemas["QueryRequest"]> = []
  const handlers: Array<(points: ReadonlyArray<Schemas["ScoredPoint"]>) => void> = []
  const restricted = (ids: ReadonlyArray<string>, except?: QdrantCondition): QdrantFilter => {
    const filter = toQdrantFilter(siteId, emptyFilter, { onlyIds: ids })
    return except === undefined ? filter : { ...filter, must_not: [except] }
  }
  const fill = (request: Schemas["QueryRequest"], into: Map<string, number>) => {
    searches.push(request)
    handlers.push((points) => points.forEach((point) => into.set(String(point.id), point.score)))
  }
  // A list that came back short holds every point that scores on it: a point missing from it scores 0 there.
  for (const word of gathered.words) {
    const noExact = [...gathered.matched].filter((id) => !word.exact.has(id))
    if (word.exactQuery !== null && word.exactFull && noExact.length > 0) {
      fill(
        { query: word.exactQuery, using: LEXICAL_VECTOR, filter: restricted(noExact), limit: noExact.length },
        word.exact
      )
    }
    const noVariant = noExact.filter((id) => !word.variants.has(id))
    if (word.variantQuery !== null && word.variantsFull && noVariant.length > 0) {
      const holdsWord: QdrantCondition = { key: TERMS_KEY, match: { any: [...word.exactKeys] } }
      fill(
        {
          query: word.variantQuery,
          using: LEXICAL_VECTOR,
          filter: restricted(noVariant, holdsWord),
          limit: noVariant.length
        },
        word.variants
      )
    }
    const noGated = noVariant.filter((id) => !word.gated.has(id))
    if (word.gatedQuery !== null && word.gatedFull && noGated.length > 0) {
      fill(
        {
          query: word.gatedQuery,
          using: LEXICAL_VECTOR,
          filter: restricted(noGated, { key: TERMS_KEY, match: { any: ungatedKeys(word) } }),
          limit: noGated.length
        },
        word.gated
      )
    }
  }
  for (const pair of gathered.pairs) {
    const unknown = [...gathered.matched].filter((id) => !pair.holders.has(id))
    if (!pair.full || unknown.length === 0) continue
    searches.push({ query: pair.query, using: LEXICAL_VECTOR, filter: restricted(unknown), limit: unknown.length })
    handlers.push((points) => {
      for (const point of points) if (point.score > 0) pair.holders.add(String(point.id))
    })
  }
  const lexicalKnown = searches.length === 0
  // The variant gate asks the text model about every gated match: each similarity is needed then,
  // as it is for every partial match offered to it.
  const reaches =
    page !== undefined && lexicalKnown && !gates(gathered)
      ? mayReach(q, gathered, page.ranking, page.limit)
      : () => true
  const partial = partialCandidates(q, gathered)
  const needed = (id: string) => partial.has(id) || reaches(id)
  for (const signal of gathered.dense) {
    const missing = [...gathered.matched].filter((id) => !signal.found.has(id) && needed(id))
    if (missing.length === 0) continue
    fill(
      {
        query: signal.vector,
        using: signal.using,
        filter: restricted(missing),
        limit: missing.length,
        params: { exact: true }
      },
      signal.found
    )
  }
  if (searches.length === 0) return Effect.void
  return call("query", () => q.client.queryBatch(q.collection, { searches })).pipe(
    Effect.map((responses) => responses.forEach((response, i) => handlers[i](response.points)))
  )
}

/**
 * Whether a match may still make the page of `limit` once its missing similarities are known.
 * A missing similarity lies between 0 (cosines count from 0) and its list's ceiling, so a
 * match's score lies between its score without them and that plus weight × ceiling each; one
 * whose highest possible score is below the `limit`-th best lowest score cannot make the page,
 * so a hybrid search does not ask for a similarity of every match.
 */
const mayReach = (q: Qdrant, gathered: Gathered, ranking: Ranking, limit: number): ((id: string) => boolean) => {
  if (limit === 0) return () => false
  if (gathered.matched.size <= limit) return () => true
  const scored = scoredOf(q, gathered)
  const best = bestLexical(scored)
  const lowest = scored.map((point) => signalScore(point, ranking.weights, best))
  const highest = new Map(
    scored.map((point, i) => {
      let high = lowest[i]
      for (const signal of gathered.dense)
        if (!signal.found.has(point.id)) high += ranking.weights[signal.name] * Math.max(0, signal.ceiling)
      return [point.id, high]
    })
  )
  const cut = kthLargest(lowest, limit)
  return (id) => highest.get(id)! >= cut
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

const countOf = (q: Qdrant, filter: QdrantFilter) =>
  call("count", () => q.client.count(q.collection, { filter, exact: true })).pipe(Effect.map((result) => result.count))

/**
 * A browse ranks by boosts and `near`, then product id. Without them the page is the scope's
 * first `limit` product ids (exact, any scope size); with them, the first `matchCap` ids are
 * ranked (Qdrant cannot order by a boost sum and an id at once).
 */
const browse = (q: Qdrant, query: SearchQuery, filter: QdrantFilter, ranking: Ranking) =>
  Effect.gen(function* () {
    const ranked = byColumns(ranking)
    const [{ records }, total] = yield* Effect.all(
      [
        byProductId(q, filter, ranked ? Math.max(q.options.matchCap, query.limit) : query.limit, [COLUMNS_KEY]),
        countOf(q, filter)
      ],
      { concurrency: 2 }
    )
    const candidates = records.map(
      (r): Candidate => ({ productId: productIdOf(r.payload), columns: columnsOf(r.payload), lexical: 0 })
    )
    return { hits: fuse(candidates, ranking, query.limit), total }
  })

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
  return [...gathered.matched].flatMap((id) =>
    lexical.has(id) || denseHit(id)
      ? [{ id, lexical: lexical.get(id) ?? 0, text: signal("text", id), image: signal("image", id) }]
      : []
  )
}

/**
 * The points that can make the page: without boosts or `near` a score needs no payload, so
 * these are the best `limit` and every point tied with the last of them (ties go by product
 * id, which only the payload holds).
 */
const contenders = (scored: ReadonlyArray<Scored>, ranking: Ranking, limit: number, best: number): Array<Scored> => {
  if (limit === 0) return []
  const scores = scored.map((point) => signalScore(point, ranking.weights, best))
  const cut = kthLargest(scores, limit)
  return scored.filter((_, i) => scores[i] >= cut)
}

/** The product ids and columns of `ids`, into `points`. */
const readPayloads = (q: Qdrant, ids: ReadonlyArray<string>, points: Gathered["points"]) =>
  ids.length === 0
    ? Effect.void
    : call("retrieve", () =>
        q.client.retrieve(q.collection, { ids: [...ids], with_payload: [PRODUCT_KEY, COLUMNS_KEY], with_vector: false })
      ).pipe(
        Effect.map((records) =>
          records.forEach((record) =>
            points.set(String(record.id), {
              productId: productIdOf(record.payload),
              columns: columnsOf(record.payload)
            })
          )
        )
      )

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
 * Hybrid search: candidates from Qdrant (per word its best exact and variant matches, scored
 * with per-site BM25 statistics; kNN per vector; all under the filter), completed and fused
 * client-side with the embedded index's arithmetic (see Fusion.ts). Every request is bounded
 * by the candidate count; a saturated list makes the total an exact count instead. Lists
 * carry ids and scores only unless boosts or `near` rank by columns: the payload of the page
 * (and its ties) is read once the scores are known.
 */
const ranked = (q: Qdrant, query: SearchQuery): Effect.Effect<SearchResult, IndexError> =>
  Effect.gen(function* () {
    const filter = filterOf(query)
    const ranking = rankingOf(query, q)
    if (browses(query, q)) return yield* browse(q, query, filter, ranking)
    const lifted = byColumns(ranking)
    const gathered = yield* gather(q, query, filter, {
      ...listLengths(q, query.limit, lifted),
      payload: lifted ? [PRODUCT_KEY, COLUMNS_KEY] : []
    })
    const rank = Effect.gen(function* () {
      yield* complete(q, query.siteId, gathered, lifted ? undefined : { ranking, limit: query.limit }).pipe(
        timed("complete")
      )
      const scored = scoredOf(q, gathered)
      const best = bestLexical(scored)
      const page = lifted ? scored : contenders(scored, ranking, query.limit, best)
      yield* readPayloads(
        q,
        page.filter((point) => !gathered.points.has(point.id)).map((point) => point.id),
        gathered.points
      ).pipe(timed("payload"))
      // A point deleted since it was listed has no payload any more: it is no hit.
      const found = page.flatMap((point) => {
        const payload = gathered.points.get(point.id)
        return payload === undefined
          ? []
          : [{ ...payload, lexical: point.lexical, text: point.text, image: point.image }]
      })
      return fuse(found, ranking, query.limit, best)
    })
    if (byMeaning(q, gathered)) {
      // Which gated matches count is known once the similarities are: the count comes after.
      const hits = yield* rank
      const matches = gathered.saturated
        ? yield* total(q, query.siteId, filter, gathered).pipe(timed("total"))
        : scoredOf(q, gathered).length
      return { hits, total: matches }
    }
    // The count needs only what was gathered (completing scores adds no match), so it runs beside.
    const [hits, matches] = yield* Effect.all(
      [
        rank,
        gathered.saturated
          ? total(q, query.siteId, filter, gathered).pipe(timed("total"))
          : Effect.sync(() => scoredOf(q, gathered).length)
      ],
      { concurrency: 2 }
    )
    return { hits, total: matches }
  })

/**
 * Every lexical match (a point holding enough of the words or their searched variants) or dense
 * hit, counted by Qdrant. The slowest request of a common word's search, so it is remembered
 * with the site's statistics, by a digest of the count's filter.
 */
const total = (q: Qdrant, siteId: number, filter: QdrantFilter, gathered: Gathered) => {
  const matches = matchFilter(q, filter, gathered)
  const digest = createHash("sha256").update(JSON.stringify(matches)).digest("base64")
  return q.statistics
    .counts(siteId, [{ name: `total:${digest}`, count: countOf(q, matches) }])
    .pipe(Effect.map(([count]) => count))
}

/** The partial matches offered to the text model (see lexicalScores): the best by their words' score. */
const partialCandidates = (q: Qdrant, gathered: Gathered): ReadonlyMap<string, number> => {
  const partial = new Map<string, number>()
  lexicalScores(wordScoresOf(gathered.words), q.options.fuzzyWeight, undefined, () => false, {
    into: partial,
    head: gathered.head
  })
  return bestEntries(partial, q.options.partialCandidates)
}

/** Whether the text model decides some matches (gated variants, partial matches): they count once it has. */
const byMeaning = (q: Qdrant, gathered: Gathered): boolean => gates(gathered) || partialCandidates(q, gathered).size > 0

/** Whether some word has gated variants (see WordMatches.gated): matches the text model decides on. */
const gates = (gathered: Gathered): boolean => gathered.words.some((word) => word.gatedQuery !== null)

/**
 * Every match of a text/vector query as one filter: in the scope, and a lexical match, a dense
 * hit, or a gated match the text model accepted (known once `complete` has run).
 */
const matchFilter = (q: Qdrant, filter: QdrantFilter, gathered: Gathered): QdrantFilter => {
  const decided = new Set([
    ...gathered.words.flatMap((word) => [...word.gated.keys()]),
    ...partialCandidates(q, gathered).keys()
  ])
  const accepted = decided.size === 0 ? [] : scoredOf(q, gathered).flatMap(({ id }) => (decided.has(id) ? [id] : []))
  const denseHits = [
    ...new Set([
      ...gathered.dense.flatMap((signal) =>
        [...signal.found].filter(([, score]) => score >= signal.minSimilarity).map(([id]) => id)
      ),
      ...accepted
    ])
  ]
  const any: Array<QdrantCondition> = [
    ...(gathered.lexicalCondition === null ? [] : [gathered.lexicalCondition]),
    ...(denseHits.length === 0 ? [] : [{ has_id: denseHits }])
  ]
  return andAlso(filter, { should: any })
}

/** The result set of `scope` as one filter, and what gathering its words and vectors learnt (null for a browse). */
const resultSet = (q: Qdrant, scope: MatchScope, lexical: number) =>
  Effect.gen(function* () {
    const filter = filterOf(scope)
    if (browses(scope, q)) return { filter, gathered: null }
    const gathered = yield* gather(q, scope, filter, { lexical, dense: q.options.denseCandidates, payload: [] })
    if (byMeaning(q, gathered)) yield* complete(q, scope.siteId, gathered)
    return { filter: matchFilter(q, filter, gathered), gathered }
  })

/** Every member of a result set with its columns: what a sorted or grouped listing orders client-side. */
const membersOf = (q: Qdrant, filter: QdrantFilter) =>
  scrollAll(q, filter, [PRODUCT_KEY, COLUMNS_KEY], Number.MAX_SAFE_INTEGER).pipe(
    Effect.map((records) =>
      records.map((record) => ({
        id: String(record.id),
        productId: productIdOf(record.payload),
        columns: columnsOf(record.payload)
      }))
    )
  )

/**
 * One page of the query's matches: by relevance, or by `sort`, from `offset`, one per group
 * with `groupBy`. A sorted or grouped listing reads its whole result set's ids and columns
 * (Qdrant orders by one indexed number at a time and cannot group a fused ranking), so its
 * cost grows with the set; a plain ranking asks for the page's depth only.
 */
export const search = (q: Qdrant, query: SearchQuery): Effect.Effect<SearchResult, IndexError> =>
  query.facets === undefined
    ? listing(q, query)
    : Effect.all([listing(q, query), facets(q, query, query.facets)], { concurrency: 2 }).pipe(
        Effect.map(([result, counted]) => ({ ...result, facets: counted }))
      )

const listing = (q: Qdrant, query: SearchQuery): Effect.Effect<SearchResult, IndexError> =>
  Effect.gen(function* () {
    const offset = Math.max(0, query.offset ?? 0)
    const end = offset + Math.max(0, query.limit)
    const sorted = query.sort !== undefined && query.sort.length > 0
    if (!sorted && query.groupBy === undefined) {
      // Deeper rankings until duplicates spread apart settle the page (the first one mostly does).
      for (let length = nextLength(null, end); ; length = nextLength(length, end)) {
        const { hits, total } = yield* ranked(q, { ...query, limit: length })
        const prefix = relevancePrefix(hits, length, total, end, undefined)
        if (prefix !== null) return { hits: prefix.slice(offset), total }
      }
    }
    const { filter, gathered } = yield* resultSet(q, query, end + q.options.denseCandidates)
    const members = yield* membersOf(q, filter)
    const total = query.groupBy === undefined ? members.length : countGroups(members, query.groupBy)
    if (!sorted) {
      for (let length = nextLength(null, end); ; length = nextLength(length, end)) {
        const { hits } = yield* ranked(q, { ...query, limit: Math.min(length, members.length) })
        const prefix = relevancePrefix(hits, length, members.length, end, query.groupBy)
        if (prefix !== null) return { hits: prefix.slice(offset), total }
      }
    }
    // Ties of the order go by relevance: what the lists scored (a member they missed scores 0 on words).
    if (gathered !== null) yield* complete(q, query.siteId, gathered)
    const scored = new Map((gathered === null ? [] : scoredOf(q, gathered)).map((point) => [point.id, point]))
    const candidates = members.map((member): Candidate => {
      const point = scored.get(member.id)
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
    return { hits: page.slice(offset), total }
  })

/**
 * Exact facets of a result set. Without grouping, Qdrant counts: its facet API per value
 * column, and per numeric column a count and its extremes, then the values below each
 * candidate edge (read, or counted per edge: see Aggregates.ts), all over the set's filter. Grouped counts need each member's group, so the
 * set's columns are read and counted here.
 */
export const facets = (q: Qdrant, scope: MatchScope, request: FacetRequest): Effect.Effect<FacetAnswer, IndexError> =>
  Effect.gen(function* () {
    const { filter } = yield* resultSet(q, scope, q.options.denseCandidates)
    if (scope.groupBy !== undefined) return tallyFacets(yield* membersOf(q, filter), request, scope.groupBy)
    const [values, intervals] = yield* Effect.all(
      [
        Effect.forEach(
          request.values,
          ({ column, limit }) => Effect.map(facetOver(q, filter, column, limit), (counts) => [column, counts] as const),
          {
            concurrency: "unbounded"
          }
        ),
        Effect.forEach(
          request.intervals,
          ({ column, buckets }) =>
            Effect.map(intervalsOver(q, filter, column, buckets), (found) => [column, found] as const),
          {
            concurrency: "unbounded"
          }
        )
      ],
      { concurrency: 2 }
    )
    return { values: new Map(values), intervals: new Map(intervals) }
  })
