import { Effect } from "effect"
import { type IndexError, type NumericStats } from "../CatalogIndex.js"
import { bucketCounts, byCodeUnits, countValues, numberStats } from "../ColumnValues.js"
import type { Filter } from "../../../model/Filter.js"
import type { PayloadValue } from "../../../model/IndexDocument.js"
import { call, type Qdrant } from "./Client.js"
import { andAlso, toQdrantFilter, type QdrantFilter } from "./FilterTranslation.js"
import { COLUMNS_KEY, columnKey } from "./Layout.js"
import { pointIds } from "./PointIds.js"
import { columnsOf } from "./Points.js"

export type Scope = { readonly filter: Filter } | { readonly productIds: ReadonlyArray<string> }

type Sample = ReadonlyArray<Readonly<Record<string, PayloadValue>>>

/**
 * The columns of a scope given by product ids (a search's ranked sample, 300 products), read
 * once for all of its aggregates, which are then counted here: computeFacets asks for every
 * facet column over the same `productIds` array, and one retrieve replaced ~20 requests per
 * search (a facet request per column, three plus one per bucket for the price).
 * Remembered by the array itself, so an entry lives exactly as long as the search holding it.
 */
const samples = new WeakMap<ReadonlyArray<string>, { readonly q: Qdrant; readonly siteId: number; readonly columns: Effect.Effect<Sample, IndexError> }>()

const sampleOf = (q: Qdrant, siteId: number, productIds: ReadonlyArray<string>): Effect.Effect<Sample, IndexError> => {
  const known = samples.get(productIds)
  if (known !== undefined && known.q === q && known.siteId === siteId) return known.columns
  const read = productIds.length === 0
    ? Effect.succeed([])
    : call("retrieve", () => q.client.retrieve(q.collection, { ids: pointIds(siteId, [...new Set(productIds)]), with_payload: [COLUMNS_KEY], with_vector: false })).pipe(
      Effect.map((records) => records.map((record) => columnsOf(record.payload)))
    )
  const columns = Effect.runSync(Effect.cached(read))
  samples.set(productIds, { q, siteId, columns })
  return columns
}

const numbersOf = (sample: Sample, column: string) =>
  sample.map((columns) => {
    const value = columns[column]
    return typeof value === "number" ? value : NaN
  })

const scopeFilter = (siteId: number, scope: { readonly filter: Filter }): QdrantFilter => toQdrantFilter(siteId, scope.filter)

/**
 * Value counts from Qdrant's facet API (exact counts). Facets need a keyword or bool index;
 * a column without one has no string values anywhere (numbers have no facet values in the
 * embedded index either), so it has no counts. Qdrant orders ties its own way, so extra
 * values are asked for and ties re-sorted by value, as the embedded index cuts them.
 */
export const facet = (q: Qdrant, siteId: number, column: string, scope: Scope, limit: number) =>
  Effect.gen(function*() {
    if ("productIds" in scope) return countValues((yield* sampleOf(q, siteId, scope.productIds)).map((columns) => columns[column]), limit)
    const kind = limit < 1 ? undefined : yield* q.columns.kind(column)
    if (kind !== "keyword" && kind !== "bool") return []
    return yield* facetOf(q, siteId, column, scope, limit)
  })

const TIE_MARGIN = 100

const facetOf = (q: Qdrant, siteId: number, column: string, scope: { readonly filter: Filter }, limit: number) =>
  call("facet", () =>
    q.client.facet(q.collection, { key: columnKey(column), filter: scopeFilter(siteId, scope), limit: limit + TIE_MARGIN, exact: true })
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
    q.client.scroll(q.collection, { filter, limit: 1, with_payload: false, order_by: { key: columnKey(column), direction } })
  ).pipe(Effect.map(({ points }) => Number(points[0]?.order_value)))

/**
 * Qdrant has no aggregation API: the count is a count request, min and max are one-point
 * scrolls ordered by the column's float index (which `order_by` requires).
 */
export const numericStats = (q: Qdrant, siteId: number, column: string, scope: Scope) =>
  Effect.gen(function*() {
    if ("productIds" in scope) return numberStats(numbersOf(yield* sampleOf(q, siteId, scope.productIds), column))
    if ((yield* q.columns.kind(column)) !== "float") return null
    const filter = withNumber(scopeFilter(siteId, scope), column)
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
): Effect.Effect<ReadonlyArray<number>, IndexError> => {
  if ("productIds" in scope) return sampleOf(q, siteId, scope.productIds).pipe(Effect.map((sample) => bucketCounts(numbersOf(sample, column), edges)))
  const filter = scopeFilter(siteId, scope)
  const buckets = edges.slice(1).map((upper, i) => ({ gte: edges[i], lt: upper }))
  return Effect.forEach(
    buckets,
    (range) => countOf(q, andAlso(filter, { key: columnKey(column), range })),
    { concurrency: 8 }
  )
}
