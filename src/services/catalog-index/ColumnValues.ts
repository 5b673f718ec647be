import type { FacetAnswer, FacetCount, FacetRequest, Intervals, NumericStats } from "./CatalogIndex.js"
import type { Condition } from "../../model/Filter.js"
import type { PayloadValue } from "../../model/IndexDocument.js"
import { edgeCandidates, intervalsFromCounts } from "./IntervalEdges.js"

/**
 * What column values mean, in one place for the backends and the search layer: the terms a
 * value offers to filters and facets, whether it satisfies a condition, and facet arithmetic
 * over values already in hand (the embedded index reads them from its slots; facets over a
 * ranked sample from the hits' columns).
 */

/**
 * The values a column offers to `anyOf` and facets: each string of an array, the string
 * itself, or "true"/"false". Numbers are filtered by range only, so they have none.
 */
export const termsOf = (value: PayloadValue | undefined): ReadonlyArray<string> => {
  if (typeof value === "string") return [value]
  if (typeof value === "boolean") return [String(value)]
  if (Array.isArray(value)) return value
  return []
}

/** Whether a document's column value satisfies `condition` (what every backend's filters accept). */
export const conditionHolds = (condition: Condition, value: PayloadValue | undefined): boolean => {
  if ("range" in condition) {
    const { gte = -Infinity, lt = Infinity } = condition.range
    return typeof value === "number" && value >= gte && value < lt
  }
  const terms = termsOf(value)
  if ("equals" in condition) return terms.includes(String(condition.equals))
  return terms.some((term) => condition.anyOf.includes(term))
}

/** Plain code-unit order: how equal scores and equal counts are tied everywhere. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Value counts, most frequent first (ties by value, so pages of facets are stable). */
export const countValues = (values: Iterable<PayloadValue | undefined>, limit: number): Array<FacetCount> => {
  const counts = new Map<string, number>()
  for (const value of values) for (const term of termsOf(value)) counts.set(term, (counts.get(term) ?? 0) + 1)
  return rankCounts(
    [...counts].map(([value, count]) => ({ value, count })),
    limit
  )
}

/** min/max/count of the numbers (NaN: no number); null when there is none. */
export const numberStats = (numbers: Iterable<number>): NumericStats | null => {
  let min = Infinity
  let max = -Infinity
  let count = 0
  for (const x of numbers) {
    if (Number.isNaN(x)) continue
    if (x < min) min = x
    if (x > max) max = x
    count++
  }
  return count === 0 ? null : { min, max, count }
}

/** The interval [edges[i], edges[i+1]) holding x, or -1; edges ascend. */
const bucketOf = (x: number, edges: ReadonlyArray<number>): number => {
  if (!(x >= edges[0] && x < edges[edges.length - 1])) return -1
  // The last edge at or below x opens x's bucket.
  let low = 0
  let high = edges.length - 1
  while (high - low > 1) {
    const mid = (low + high) >>> 1
    if (edges[mid] <= x) low = mid
    else high = mid
  }
  return low
}

/** Counts per interval [edges[i], edges[i+1]); edges ascend. */
export const bucketCounts = (numbers: Iterable<number>, edges: ReadonlyArray<number>): Array<number> => {
  const counts = new Array<number>(Math.max(0, edges.length - 1)).fill(0)
  for (const x of numbers) {
    const bucket = bucketOf(x, edges)
    if (bucket >= 0) counts[bucket]++
  }
  return counts
}

/**
 * The intervals of a numeric facet over the numbers in hand (NaN: no number), cut where they
 * are (see IntervalEdges.ts); null when there is none. Each candidate edge's count of values
 * below it is what Qdrant counts per candidate, summed here from one pass over the numbers.
 */
export const intervalsOf = (numbers: ReadonlyArray<number>, buckets: number): Intervals | null => {
  const stats = numberStats(numbers)
  if (stats === null) return null
  const candidates = edgeCandidates(stats.min, stats.max)
  // Values per gap below each candidate, summed into the values below it.
  const gaps = bucketCounts(numbers, [-Infinity, ...candidates])
  let sum = 0
  const below = gaps.map((n) => (sum += n))
  return intervalsFromCounts(stats, candidates, below, buckets)
}

/** The group a product belongs to under `groupBy`: the column's value, or the product alone. */
export const groupOf = (
  productId: string,
  columns: Readonly<Record<string, PayloadValue>>,
  groupBy: string | undefined
): string => {
  const value = groupBy === undefined ? undefined : columns[groupBy]
  return typeof value === "string" && value.length > 0 ? `g\u0000${value}` : `p\u0000${productId}`
}

/** A member of a result set, as facet counting sees it. */
export interface Member {
  readonly productId: string
  readonly columns: Readonly<Record<string, PayloadValue>>
}

/**
 * Exact facet counts over a whole result set, held by the caller: each value counts the
 * products holding it, or with `groupBy` the groups with a product holding it (a T-shirt in
 * three sizes counts once for "red"). Every backend's `facets` ends here.
 */
export const tallyFacets = (
  members: ReadonlyArray<Member>,
  request: FacetRequest,
  groupBy: string | undefined
): FacetAnswer => {
  const groups = groupBy === undefined ? null : members.map((m) => groupOf(m.productId, m.columns, groupBy))
  const values = new Map<string, ReadonlyArray<FacetCount>>()
  for (const { column, limit } of request.values) {
    if (groups === null) {
      values.set(
        column,
        countValues(
          members.map((m) => m.columns[column]),
          limit
        )
      )
      continue
    }
    const holders = new Map<string, Set<string>>()
    members.forEach((m, i) => {
      for (const term of termsOf(m.columns[column])) {
        let set = holders.get(term)
        if (set === undefined) holders.set(term, (set = new Set()))
        set.add(groups[i])
      }
    })
    values.set(
      column,
      rankCounts(
        [...holders].map(([value, set]) => ({ value, count: set.size })),
        limit
      )
    )
  }
  const intervals = new Map<string, Intervals | null>()
  for (const { column, buckets } of request.intervals) {
    const numbers = members.map((m) => {
      const value = m.columns[column]
      return typeof value === "number" ? value : NaN
    })
    const found = intervalsOf(numbers, buckets)
    intervals.set(
      column,
      found === null || groups === null ? found : { ...found, counts: groupBuckets(numbers, groups, found.edges) }
    )
  }
  return { values, intervals }
}

export const rankCounts = (counts: Array<FacetCount>, limit: number): Array<FacetCount> =>
  counts.sort((a, b) => b.count - a.count || byCodeUnits(a.value, b.value)).slice(0, Math.max(0, limit))

/** Per interval, the groups (any keys) with a number in it: a group counts once per interval. */
export const groupBuckets = <K>(
  numbers: ReadonlyArray<number>,
  groups: ArrayLike<K>,
  edges: ReadonlyArray<number>
): Array<number> => {
  const seen = edges.slice(1).map(() => new Set<K>())
  numbers.forEach((x, i) => {
    const bucket = bucketOf(x, edges)
    if (bucket >= 0) seen[bucket].add(groups[i])
  })
  return seen.map((set) => set.size)
}
