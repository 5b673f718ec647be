import { Effect } from "effect"
import type { IndexError, NumericStats } from "../CatalogIndex.js"
import { byCodeUnits } from "../ColumnValues.js"
import type { Filter } from "../../../model/Filter.js"
import type { Qdrant } from "./Client.js"
import { call } from "./Request.js"
import { andAlso, toQdrantFilter, type QdrantFilter } from "./FilterTranslation.js"
import { columnKey } from "./Layout.js"

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

const facetOver = (q: Qdrant, filter: QdrantFilter, column: string, limit: number) =>
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
