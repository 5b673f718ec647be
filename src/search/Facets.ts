import { Effect } from "effect"
import { timed } from "../platform/ServerTiming.js"
import { facetColumns } from "../model/Columns.js"
import { parseCategoryPath } from "../domain/CategoryPath.js"
import { CatalogIndex, type IndexError, type SearchHit, type SearchQuery } from "../services/catalog-index/CatalogIndex.js"
import { bucketCounts, countValues, numberStats } from "../services/catalog-index/ColumnValues.js"
import type { Condition, Filter } from "../model/Filter.js"

/** Facet values are in text form; the wire schema encodes category paths. */
export interface FacetValueOut {
  readonly value: ReadonlyArray<string> | string | { readonly start?: number; readonly end?: number }
  readonly label: string
  readonly active: boolean
  readonly selected: boolean
  /** Matching products with this value; used to pick refinements, not part of the wire shape. */
  readonly count: number
}
export interface FacetOut {
  readonly type: "categorical" | "interval"
  readonly column: string
  readonly label: string
  readonly isPrimary: boolean
  readonly values: ReadonlyArray<FacetValueOut>
}

const MAX_VALUES = 20
/** Facet columns computed at once (those with a selection of their own each search again). */
const FACET_CONCURRENCY = 6

const sameColumn = (column: string) => (c: Condition) => c.column === column

/** Interval bounds that read well: steps of 1, 2, 2.5 or 5 times a power of ten. */
export const niceEdges = (min: number, max: number, buckets = 5): ReadonlyArray<number> => {
  if (!(max > min)) return [min, min + 1]
  const raw = (max - min) / buckets
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw
  const edges: Array<number> = []
  for (let e = Math.floor(min / step) * step; e <= max; e += step) edges.push(Math.round(e * 100) / 100)
  edges.push(Math.round((edges[edges.length - 1] + step) * 100) / 100)
  return edges
}

const categoryValues = (counts: ReadonlyArray<{ value: string; count: number }>, selected: ReadonlyArray<string>): Array<FacetValueOut> => {
  const byPath = new Map(counts.map((c) => [c.value, c.count]))
  const depthOf = (p: string) => parseCategoryPath(p).length
  const childrenOf = (parent: string | null) =>
    counts.filter((c) => parent === null ? depthOf(c.value) === 1 : c.value.startsWith(parent + " > ") && depthOf(c.value) === depthOf(parent) + 1)
  let parent: string | null = selected.length > 0 ? selected[selected.length - 1] : null
  let children = childrenOf(parent)
  // A single branch says nothing to the shopper: descend until the tree actually branches.
  for (let guard = 0; parent === null && children.length === 1 && guard < 4; guard++) {
    const only = children[0].value
    const deeper = childrenOf(only)
    if (deeper.length === 0) break
    children = deeper
    if (deeper.length > 1) break
  }
  const out: Array<FacetValueOut> = selected.map((p) => ({
    value: [p],
    label: parseCategoryPath(p).at(-1) ?? "root",
    active: (byPath.get(p) ?? 0) > 0,
    selected: true,
    count: byPath.get(p) ?? 0
  }))
  for (const c of children.slice(0, MAX_VALUES)) {
    if (selected.includes(c.value)) continue
    out.push({ value: [c.value], label: parseCategoryPath(c.value).at(-1) ?? c.value, active: c.count > 0, selected: false, count: c.count })
  }
  return out
}

/**
 * Facet counts come from the best-ranked FACET_SAMPLE matches, not from every match: a query
 * word common to half of a 100k catalog would otherwise cost a scan of 50k products per
 * column, and the tail of a ranking says little about what the shopper is looking for.
 */
export const FACET_SAMPLE = 300

/**
 * interactions.dynamicFilters for a result set, counted over the best-ranked FACET_SAMPLE
 * hits from their columns (no index request per column). Each column's counts ignore that
 * column's own selection (so a shopper can widen a choice), but honour every other filter.
 * `ranked` gives the top hits of the query as it was searched (reused for columns without a
 * selection of their own): an effect, so the searches of the other scopes can run while the
 * caller's ranking is still under way.
 */
export const computeFacets = (
  query: Omit<SearchQuery, "limit">,
  dynamic: ReadonlyArray<Condition>,
  ranked?: Effect.Effect<ReadonlyArray<SearchHit>, IndexError>
) =>
  Effect.gen(function*() {
    const index = yield* CatalogIndex
    const base: Filter = query.filter
    const ownOf = (column: string) => dynamic.filter(sameColumn(column))
    // A column with a selection of its own is counted over the query without that selection.
    const scopeKey = (column: string) => (ownOf(column).length === 0 ? "" : column)
    const searchScope = (key: string): Effect.Effect<ReadonlyArray<SearchHit>, IndexError> => {
      if (key === "" && ranked !== undefined) return ranked.pipe(Effect.map((hits) => hits.slice(0, FACET_SAMPLE)))
      const own = key === "" ? [] : ownOf(key)
      const filter: Filter = { must: base.must.filter((c) => !own.includes(c)), mustNot: base.mustNot }
      return index.search({ ...query, filter, limit: FACET_SAMPLE }).pipe(Effect.map((result) => result.hits), timed("facet-search"))
    }
    // Each scope is searched once, by the first column that needs it.
    const scopes = new Map<string, Effect.Effect<ReadonlyArray<SearchHit>, IndexError>>()
    for (const key of new Set(facetColumns.map((def) => scopeKey(def.name)))) scopes.set(key, yield* Effect.cached(searchScope(key)))

    const facetOf = (def: (typeof facetColumns)[number]): Effect.Effect<FacetOut | null, IndexError> =>
      Effect.gen(function*() {
        const column = def.name
        const hits = yield* scopes.get(scopeKey(column))!
        if (hits.length === 0) return null
        const own = ownOf(column)
        const values = hits.map((hit) => hit.columns[column])
        if (def.kind === "number") {
          const numbers = values.map((value) => (typeof value === "number" ? value : NaN))
          const stats = numberStats(numbers)
          if (stats === null || stats.min === stats.max) return null
          const edges = niceEdges(stats.min, stats.max)
          const counts = bucketCounts(numbers, edges)
          const chosen = own.flatMap((c) => ("range" in c ? [c.range] : []))
          const out: Array<FacetValueOut> = []
          for (let i = 0; i + 1 < edges.length; i++) {
            if (counts[i] === 0) continue
            const selected = chosen.some((r) => r.gte === edges[i] && r.lt === edges[i + 1])
            out.push({ value: { start: edges[i], end: edges[i + 1] }, label: `${edges[i]} – ${edges[i + 1]}`, active: true, selected, count: counts[i] })
          }
          for (const r of chosen) {
            if (out.some((v) => v.selected)) break
            out.push({ value: { start: r.gte, end: r.lt }, label: `${r.gte ?? ""} – ${r.lt ?? ""}`, active: true, selected: true, count: 0 })
          }
          return { type: "interval", column, label: def.label, isPrimary: def.facet.primary, values: out }
        }
        const selected = own.flatMap((c) => ("anyOf" in c ? c.anyOf : []))
        const counts = countValues(values, def.kind === "category" ? Infinity : MAX_VALUES)
        if (counts.length === 0) return null
        const out = def.kind === "category"
          ? categoryValues(counts, selected)
          : [
            ...selected.filter((s) => !counts.some((c) => c.value === s)).map((s) => ({ value: s, label: s, active: false, selected: true, count: 0 })),
            ...counts.map((c) => ({ value: c.value, label: c.value, active: c.count > 0, selected: selected.includes(c.value), count: c.count }))
          ]
        // A column with one value and nothing chosen cannot narrow anything.
        if (out.length < 2 && selected.length === 0) return null
        return { type: "categorical", column, label: def.label, isPrimary: def.facet.primary, values: out }
      })
    // Scopes other than the ranking are searches: a remote index answers them side by side.
    const facets = yield* Effect.forEach(facetColumns, facetOf, { concurrency: FACET_CONCURRENCY })
    return facets.filter((facet): facet is FacetOut => facet !== null)
  })

/** The index condition that selecting one facet value adds. */
export const facetValueCondition = (column: string, value: FacetValueOut["value"]): Condition =>
  typeof value === "string"
    ? { column, anyOf: [value] }
    : Array.isArray(value)
    ? { column, anyOf: value as ReadonlyArray<string> }
    : { column, range: { gte: (value as { start?: number }).start, lt: (value as { end?: number }).end } }
