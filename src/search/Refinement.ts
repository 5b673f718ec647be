import type { ResultEntity } from "../domain/ResultEntity.js"
import { findColumn } from "../model/Columns.js"
import type { FacetOut, FacetValueOut } from "./DynamicFilters.js"

export interface Refinement {
  readonly facet: FacetOut
  readonly value: FacetValueOut
  readonly share: number
}

/**
 * The single most useful next filter: a value of a column the shopper has not chosen yet that
 * splits the results most evenly (share × (1 − share) is largest at one half), weighted by how
 * meaningful the column is (its refinement weight in Columns). Values covering almost nothing
 * or almost everything are skipped.
 */
export const bestRefinement = (facets: ReadonlyArray<FacetOut>, total: number): Refinement | null => {
  if (total < 4) return null
  let best: (Refinement & { readonly score: number }) | null = null
  for (const facet of facets) {
    const weight = findColumn(facet.column)?.facet?.refinementWeight ?? 0
    if (weight <= 0 || facet.values.some((v) => v.selected)) continue
    for (const value of facet.values) {
      const share = value.count / total
      if (share < 0.1 || share > 0.9) continue
      const score = share * (1 - share) * weight
      if (best === null || score > best.score) best = { facet, value, share, score }
    }
  }
  return best
}

/** The refinement as a stream: one assistant text whose annotation carries the filter and a preview. */
export const refinementStream = (refinement: Refinement, total: number, preview: ReadonlyArray<ResultEntity>) => {
  const label = refinement.value.label
  const lead = `${total} products match. Narrow down to `
  const content = `${lead}**${label}** (${refinement.value.count})?`
  const { count: _count, ...value } = refinement.value
  return {
    items: [
      {
        role: "assistant" as const,
        parts: [
          {
            text: {
              content,
              annotations: [
                {
                  locator: { start: lead.length + 2, length: label.length },
                  data: { type: "products" as const, items: preview },
                  interactions: {
                    dynamicFilters: [{ ...refinement.facet, values: [{ ...value, count: refinement.value.count }] }]
                  }
                }
              ]
            }
          }
        ]
      }
    ]
  }
}
