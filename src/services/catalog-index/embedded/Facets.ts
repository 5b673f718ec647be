import type { FacetCount, Filter, NumericStats } from "../../CatalogIndex.js"
import { termsOf, type SlotMask } from "./PayloadColumns.js"
import { byCodeUnits, type SiteIndex } from "./SiteIndex.js"

export type FacetScope = { readonly filter: Filter } | { readonly productIds: ReadonlyArray<string> }

export const scopeMask = (site: SiteIndex, scope: FacetScope): SlotMask =>
  "filter" in scope ? site.mask(scope.filter) : site.idsMask(scope.productIds)

/**
 * Value counts of a string, string-array or boolean column over the scope, most frequent
 * first (ties by value, so pages of facets are stable).
 */
export const facetCounts = (site: SiteIndex, column: string, mask: SlotMask, limit: number): Array<FacetCount> => {
  const counts = new Map<string, number>()
  for (let slot = 0; slot < mask.length; slot++) {
    if (mask[slot] !== 1) continue
    for (const value of termsOf(site.payloadAt(slot)[column])) counts.set(value, (counts.get(value) ?? 0) + 1)
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || byCodeUnits(a.value, b.value))
    .slice(0, Math.max(0, limit))
}

/** Counts of a numeric column per interval [edges[i], edges[i+1]); edges ascend. */
export const histogram = (site: SiteIndex, column: string, mask: SlotMask, edges: ReadonlyArray<number>): Array<number> => {
  const counts = new Array<number>(Math.max(0, edges.length - 1)).fill(0)
  for (let slot = 0; slot < mask.length; slot++) {
    if (mask[slot] !== 1) continue
    const x = site.columns.numberAt(column, slot)
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

/** min/max/count of a numeric column over the scope; null when no document has a number. */
export const numericStats = (site: SiteIndex, column: string, mask: SlotMask): NumericStats | null => {
  let min = Infinity
  let max = -Infinity
  let count = 0
  for (let slot = 0; slot < mask.length; slot++) {
    if (mask[slot] !== 1) continue
    const x = site.columns.numberAt(column, slot)
    if (Number.isNaN(x)) continue
    if (x < min) min = x
    if (x > max) max = x
    count++
  }
  return count === 0 ? null : { min, max, count }
}
