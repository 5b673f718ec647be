import { columnsOf } from "./Layout.js"
import { Effect } from "effect"
import type { IndexError, Intervals, NumericStats } from "../CatalogIndex.js"
import { byCodeUnits, intervalsOf } from "../ColumnValues.js"
import { edgeCandidates, intervalsFromCounts } from "../IntervalEdges.js"
import type { Filter } from "../../../model/Filter.js"
import type { Qdrant } from "./Client.js"
import { call } from "./Request.js"
import { andAlso, toQdrantFilter, type QdrantFilter } from "./FilterTranslation.js"
import { columnKey } from "./Layout.js"
import { scrollAll } from "./Points.js"

export type Scope = { readonly filter: Filter }

const scopeFilter = (siteId: number, scope: Scope): QdrantFilter => toQdrantFilter(siteId, scope.filter)

/**
 * Value counts from Qdrant's facet API (exact counts). Facets need a keyword or bool index;
 * a column without one has no string values anywhere (numbers have no facet values in the
 * embedded index either), so it has no counts. Qdrant orders ties its own way, so extra
 * values are asked for and ties re-sorted by value, as the embedded index cuts them.
 */
export const facet = (q: Qdrant, siteId: number, column: string, scope: Scope, limit: number) =>
  facetOver(q, scopeFilter(siteId, scope), column, limit)

/** `facet` over any Qdrant filter (a result set's, see Query.ts). */
export const facetOver = (q: Qdrant, filter: QdrantFilter, column: string, limit: number) =>
  Effect.gen(function* () {
    const kind = limit < 1 ? undefined : yield* q.columns.kind(column)
    if (kind !== "keyword" && kind !== "bool") return []
    return yield* facetOf(q, filter, column, limit)
  })

const TIE_MARGIN = 100

const facetOf = (q: Qdrant, filter: QdrantFilter, column: string, limit: number) =>
  call("facet", () =>
    q.client.facet(q.collection, { key: columnKey(column), filter, limit: limit + TIE_MARGIN, exact: true })
  ).pipe(
    Effect.map(({ hits }) =>
      hits
        .map((hit) => ({ value: String(hit.value), count: hit.count }))
        .sort((a, b) => b.count - a.count || byCodeUnits(a.value, b.value))
        .slice(0, limit)
    )
  )

/** Points of the scope holding a number in `column`: an open range accepts exactly those. */
const withNumber = (filter: QdrantFilter, column: string): QdrantFilter =>
  andAlso(filter, { key: columnKey(column), range: { gte: -Number.MAX_VALUE } })

const countOf = (q: Qdrant, filter: QdrantFilter) =>
  call("count", () => q.client.count(q.collection, { filter, exact: true })).pipe(Effect.map((result) => result.count))

/** The first value of `column` in `direction`: a one-point scroll ordered by the float index. */
const extreme = (q: Qdrant, filter: QdrantFilter, column: string, direction: "asc" | "desc") =>
  call("scroll", () =>
    q.client.scroll(q.collection, {
      filter,
      limit: 1,
      with_payload: false,
      order_by: { key: columnKey(column), direction }
    })
  ).pipe(Effect.map(({ points }) => Number(points[0]?.order_value)))

/**
 * Qdrant has no aggregation API: the count is a count request, min and max are one-point
 * scrolls ordered by the column's float index (which `order_by` requires).
 */
export const numericStats = (q: Qdrant, siteId: number, column: string, scope: Scope) =>
  statsOver(q, scopeFilter(siteId, scope), column)

const statsOver = (q: Qdrant, scope: QdrantFilter, column: string) =>
  Effect.gen(function* () {
    if ((yield* q.columns.kind(column)) !== "float") return null
    const filter = withNumber(scope, column)
    // One round: an empty scope's extremes are NaN, and its count says to ignore them.
    const [count, min, max] = yield* Effect.all(
      [countOf(q, filter), extreme(q, filter, column, "asc"), extreme(q, filter, column, "desc")],
      { concurrency: 3 }
    )
    if (count === 0) return null
    return { min, max, count } satisfies NumericStats
  })

/** One exact count per bucket [edges[i], edges[i+1]), run concurrently (a price facet has ~5: one round). */
export const histogram = (
  q: Qdrant,
  siteId: number,
  column: string,
  scope: Scope,
  edges: ReadonlyArray<number>
): Effect.Effect<ReadonlyArray<number>, IndexError> => histogramOver(q, scopeFilter(siteId, scope), column, edges)

const histogramOver = (
  q: Qdrant,
  filter: QdrantFilter,
  column: string,
  edges: ReadonlyArray<number>
): Effect.Effect<ReadonlyArray<number>, IndexError> => {
  const buckets = edges.slice(1).map((upper, i) => ({ gte: edges[i], lt: upper }))
  return Effect.forEach(buckets, (range) => countOf(q, andAlso(filter, { key: columnKey(column), range })), {
    concurrency: 8
  })
}

/**
 * Most members whose values a numeric facet reads: one scroll page, unless `matchCap` (the
 * most ids a request gathers) is lower.
 */
const VALUES_PAGE = 1_000
/** Counts of one facet's candidate edges in flight at once (at most 91 of them, see IntervalEdges.ts). */
const COUNT_CONCURRENCY = 16

/** The numbers of `column` of up to `cap` points of `filter`. */
const valuesOf = (q: Qdrant, filter: QdrantFilter, column: string, cap: number) =>
  scrollAll(q, filter, [columnKey(column)], cap).pipe(
    Effect.map((records) =>
      records.flatMap((record) => {
        const value = columnsOf(record.payload)[column]
        return typeof value === "number" ? [value] : []
      })
    )
  )

/**
 * A numeric facet over any Qdrant filter, cut where the set's values are (IntervalEdges.ts),
 * in two rounds whatever the set's size. Qdrant has no aggregation (no quantiles, no
 * histogram), so the first round is the count and extremes (`statsOver`), and the second
 * gives how many values lie below each candidate edge the extremes allow: a set of up to one
 * page is read whole (one request, where the counts would be tens of them); a larger one is
 * counted per candidate, concurrently, as reading it would take a sequential page per
 * thousand members. Both give the embedded index's edges and counts for the same set.
 */
export const intervalsOver = (
  q: Qdrant,
  filter: QdrantFilter,
  column: string,
  buckets: number
): Effect.Effect<Intervals | null, IndexError> =>
  Effect.gen(function* () {
    const stats = yield* statsOver(q, filter, column)
    if (stats === null) return null
    const numbered = withNumber(filter, column)
    const readable = Math.min(VALUES_PAGE, q.options.matchCap)
    if (stats.count <= readable) return intervalsOf(yield* valuesOf(q, numbered, column, readable), buckets)
    const candidates = edgeCandidates(stats.min, stats.max)
    const below = yield* Effect.forEach(
      candidates,
      (lt) => countOf(q, andAlso(numbered, { key: columnKey(column), range: { lt } })),
      { concurrency: COUNT_CONCURRENCY }
    )
    return intervalsFromCounts(stats, candidates, below, buckets)
  })
