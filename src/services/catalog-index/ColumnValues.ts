import type { FacetCount, NumericStats } from "./CatalogIndex.js"
import type { Condition } from "../../model/Filter.js"
import type { PayloadValue } from "../../model/IndexDocument.js"

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
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || byCodeUnits(a.value, b.value))
    .slice(0, Math.max(0, limit))
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

/** Counts per interval [edges[i], edges[i+1]); edges ascend. */
export const bucketCounts = (numbers: Iterable<number>, edges: ReadonlyArray<number>): Array<number> => {
  const counts = new Array<number>(Math.max(0, edges.length - 1)).fill(0)
  for (const x of numbers) {
    if (!(x >= edges[0] && x < edges[edges.length - 1])) continue
    // The last edge at or below x opens x's bucket.
    let low = 0
    let high = edges.length - 1
    while (high - low > 1) {
      const mid = (low + high) >>> 1
      if (edges[mid] <= x) low = mid
      else high = mid
    }
    counts[low]++
  }
  return counts
}
