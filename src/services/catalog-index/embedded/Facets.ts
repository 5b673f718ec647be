import type { FacetCount, NumericStats } from "../CatalogIndex.js"
import type { Filter } from "../../../model/Filter.js"
import { bucketCounts, countValues, numberStats } from "../ColumnValues.js"
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
export const facetCounts = (site: SiteIndex, column: string, slots: ArrayLike<number>, limit: number): Array<FacetCount> =>
  countValues(Array.from(slots, (slot) => site.payloadAt(slot)[column]), limit)

const numbersAt = (site: SiteIndex, column: string, slots: ArrayLike<number>) => Array.from(slots, (slot) => site.columns.numberAt(column, slot))

/** Counts of a numeric column per interval [edges[i], edges[i+1]); edges ascend. */
export const histogram = (site: SiteIndex, column: string, slots: ArrayLike<number>, edges: ReadonlyArray<number>): Array<number> =>
  bucketCounts(numbersAt(site, column, slots), edges)

/** min/max/count of a numeric column over the scope; null when no document has a number. */
export const numericStats = (site: SiteIndex, column: string, slots: ArrayLike<number>): NumericStats | null =>
  numberStats(numbersAt(site, column, slots))
