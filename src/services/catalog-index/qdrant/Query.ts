import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import { type IndexError, type SearchQuery, type SearchResult } from "../CatalogIndex.js"
import { emptyFilter } from "../../../model/Filter.js"
import { call, type Qdrant } from "./Client.js"
import { toQdrantFilter } from "./FilterTranslation.js"
import { fuse, lexicalScores, type Candidate, type Ranking, type WordScores } from "./Fusion.js"
import { gather, wordsOf, denseSignals, type Gathered, type MatchQuery } from "./Gather.js"
import { COLUMNS_KEY, LEXICAL_VECTOR, PRODUCT_KEY } from "./Layout.js"
import { columnsOf, productIdOf, scrollAll } from "./Points.js"
import { pointIds } from "./PointIds.js"
import { termQuery } from "./SparseText.js"

const filterOf = (query: MatchQuery) =>
  toQdrantFilter(query.siteId, query.filter, {
    exceptIds: pointIds(query.siteId, query.excludeIds ?? []),
    ...(query.onlyIds !== undefined && { onlyIds: pointIds(query.siteId, query.onlyIds) })
  })

/** A query with neither words nor vectors browses: everything in the filter matches. */
const browses = (query: MatchQuery, q: Qdrant) => wordsOf(query).length === 0 && denseSignals(query, q).length === 0

/**
 * Every match of the query, as search counts them: lexical matches (up to `matchCap` per query
 * word) and dense hits at or above minSimilarity among `denseCandidates` neighbours.
 */
export const matchIds = (q: Qdrant, query: MatchQuery): Effect.Effect<Array<string>, IndexError> => {
  const filter = filterOf(query)
  if (browses(query, q)) {
    return scrollAll(q, filter, [PRODUCT_KEY], q.options.matchCap).pipe(Effect.map((records) => records.map((r) => productIdOf(r.payload))))
  }
  return gather(q, query, filter, { lexical: q.options.matchCap, dense: q.options.denseCandidates }).pipe(
    Effect.map(({ matched, points }) => [...matched].map((id) => points.get(id)!.productId))
  )
}

/**
 * Round two: the scores round one could not know. Variant-only matches get Qdrant's
 * IDF-weighted score of their verified variant terms (restricted to those points), and every
 * match missing from a dense list gets its exact similarity (a `has_id` query, exact search).
 */
const complete = (q: Qdrant, siteId: number, gathered: Gathered): Effect.Effect<Array<Map<string, number>>, IndexError> => {
  const searches: Array<Schemas["QueryRequest"]> = []
  const handlers: Array<(points: ReadonlyArray<Schemas["ScoredPoint"]>) => void> = []
  const restricted = (ids: ReadonlyArray<string>) => toQdrantFilter(siteId, emptyFilter, { onlyIds: ids })
  const variantScores = gathered.words.map(({ variants }) => {
    const scores = new Map<string, number>()
    if (variants.size === 0) return scores
    const terms = new Map<string, number>()
    for (const weights of variants.values()) for (const [term, weight] of weights) terms.set(term, Math.max(terms.get(term) ?? 0, weight))
    const ids = [...variants.keys()]
    searches.push({ query: termQuery(terms), using: LEXICAL_VECTOR, filter: restricted(ids), limit: ids.length })
    handlers.push((points) => points.forEach((point) => scores.set(String(point.id), point.score)))
    return scores
  })
  for (const signal of gathered.dense) {
    const missing = [...gathered.matched].filter((id) => !signal.found.has(id))
    if (missing.length === 0) continue
    searches.push({ query: signal.vector, using: signal.using, filter: restricted(missing), limit: missing.length, params: { exact: true } })
    handlers.push((points) => points.forEach((point) => signal.found.set(String(point.id), point.score)))
  }
  if (searches.length === 0) return Effect.succeed(variantScores)
  return call("query", () => q.client.queryBatch(q.collection, { searches })).pipe(
    Effect.map((responses) => {
      responses.forEach((response, i) => handlers[i](response.points))
      return variantScores
    })
  )
}

const rankingOf = (query: SearchQuery, q: Qdrant): Ranking => ({
  weights: {
    lexical: query.weights?.lexical ?? q.options.weights.lexical,
    text: query.weights?.text ?? q.options.weights.text,
    image: query.weights?.image ?? q.options.weights.image
  },
  boosts: query.boosts ?? [],
  near: query.near
})

/**
 * Hybrid search: candidates from Qdrant (sparse words, trigram variants, kNN per vector, all
 * under the filter), fused client-side with the embedded index's arithmetic (see Fusion.ts).
 * Boosts and `near` are applied client-side to those candidates, from their payload.
 */
export const search = (q: Qdrant, query: SearchQuery): Effect.Effect<SearchResult, IndexError> =>
  Effect.gen(function*() {
    const filter = filterOf(query)
    const ranking = rankingOf(query, q)
    if (browses(query, q)) {
      // Browse ranks by boosts, `near` and product id over (at most matchCap of) the scope.
      const [records, total] = yield* Effect.all([
        scrollAll(q, filter, [PRODUCT_KEY, COLUMNS_KEY], q.options.matchCap),
        call("count", () => q.client.count(q.collection, { filter, exact: true }))
      ], { concurrency: 2 })
      const candidates = records.map((r): Candidate => ({ productId: productIdOf(r.payload), columns: columnsOf(r.payload), lexical: 0 }))
      return { hits: fuse(candidates, ranking, query.limit), total: total.count }
    }
    const candidates = Math.max(q.options.denseCandidates, 4 * query.limit)
    const gathered = yield* gather(q, query, filter, { lexical: candidates, dense: candidates })
    const variantScores = yield* complete(q, query.siteId, gathered)
    const words = gathered.words.map((word, i): WordScores => ({ exact: word.exact, variants: variantScores[i] }))
    const lexical = lexicalScores(words, q.options.fuzzyWeight)
    const signal = (name: "text" | "image", id: string) => gathered.dense.find((s) => s.name === name)?.found.get(id)
    const hits = fuse(
      [...gathered.matched].map((id): Candidate => ({
        ...gathered.points.get(id)!,
        lexical: lexical.get(id) ?? 0,
        text: signal("text", id),
        image: signal("image", id)
      })),
      ranking,
      query.limit
    )
    // A full candidate list means more matches exist than were fetched: count them all.
    const total = gathered.saturated ? (yield* matchIds(q, query)).length : gathered.matched.size
    return { hits, total }
  })
