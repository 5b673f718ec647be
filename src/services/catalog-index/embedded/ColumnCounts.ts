import type { FacetAnswer, FacetCount, FacetRequest, Intervals, NumericStats } from "../CatalogIndex.js"
import type { Filter } from "../../../model/Filter.js"
import {
  bucketCounts,
  countValues,
  groupBuckets,
  intervalsOf,
  numberStats,
  rankCounts,
  tallyFacets
} from "../ColumnValues.js"
import type { SlotMask } from "./PayloadColumns.js"
import type { SiteIndex } from "./SiteIndex.js"

export type FacetScope = { readonly filter: Filter }

/** The live slots the scope's filter accepts. */
export const scopeSlots = (site: SiteIndex, scope: FacetScope): ArrayLike<number> => maskSlots(site.mask(scope.filter))

const maskSlots = (mask: SlotMask): Int32Array => {
  let count = 0
  for (let slot = 0; slot < mask.length; slot++) count += mask[slot]
  const slots = new Int32Array(count)
  for (let slot = 0, i = 0; slot < mask.length; slot++) if (mask[slot] === 1) slots[i++] = slot
  return slots
}

/** Value counts of a string, string-array or boolean column over the scope (see countValues). */
export const facetCounts = (
  site: SiteIndex,
  column: string,
  slots: ArrayLike<number>,
  limit: number
): Array<FacetCount> =>
  countValues(
    Array.from(slots, (slot) => site.payloadAt(slot)[column]),
    limit
  )

const numbersAt = (site: SiteIndex, column: string, slots: ArrayLike<number>) =>
  Array.from(slots, (slot) => site.columns.numberAt(column, slot))

/** Counts of a numeric column per interval [edges[i], edges[i+1]); edges ascend. */
export const histogram = (
  site: SiteIndex,
  column: string,
  slots: ArrayLike<number>,
  edges: ReadonlyArray<number>
): Array<number> => bucketCounts(numbersAt(site, column, slots), edges)

/** min/max/count of a numeric column over the scope; null when no document has a number. */
export const numericStats = (site: SiteIndex, column: string, slots: ArrayLike<number>): NumericStats | null =>
  numberStats(numbersAt(site, column, slots))

/**
 * Below this share of the site's slots, a set is counted from its members' payloads; above, from
 * the columns' postings.
 */
const POSTINGS_SHARE = 1 / 64

/**
 * Exact facets of a result set (`slots`). A small set reads its members' payloads (see
 * tallyFacets); a large one (a common word, a department page) counts each value's postings
 * within the set's mask and each number column's array, with no object per member, as reading
 * thousands of payload objects would be slow. `via` forces a path (tests).
 */
export const facetsOfSlots = (
  site: SiteIndex,
  slots: ReadonlyArray<number>,
  request: FacetRequest,
  groupBy: string | undefined,
  via?: "payloads" | "postings"
): FacetAnswer => {
  if (via === "payloads" || (via === undefined && slots.length < site.slotCount * POSTINGS_SHARE)) {
    return tallyFacets(
      slots.map((slot) => ({ productId: site.docAt(slot).productId, columns: site.payloadAt(slot) })),
      request,
      groupBy
    )
  }
  const mask = new Uint8Array(site.slotCount)
  for (const slot of slots) mask[slot] = 1
  const groups = groupBy === undefined ? undefined : site.columns.groupNumbers(groupBy, mask)
  const values = new Map<string, ReadonlyArray<FacetCount>>()
  for (const { column, limit } of request.values)
    values.set(column, rankCounts(site.columns.termCounts(column, mask, slots, groups), limit))
  const intervals = new Map<string, Intervals | null>()
  for (const { column, buckets } of request.intervals) {
    const held = site.columns.numbers(column)
    const numbers = slots.map((slot) => (slot < held.length ? held[slot] : NaN))
    const found = intervalsOf(numbers, buckets)
    // A slot without a group is a group of its own.
    intervals.set(
      column,
      found === null || groups === undefined
        ? found
        : {
            ...found,
            counts: groupBuckets(
              numbers,
              slots.map((slot) => (groups.of[slot] >= 0 ? groups.of[slot] : -1 - slot)),
              found.edges
            )
          }
    )
  }
  return { values, intervals }
}
