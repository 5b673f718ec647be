import { Effect } from "effect"
import { timed } from "../platform/ServerTiming.js"
import { facetColumns } from "../model/Columns.js"
import { parseCategoryPath } from "../domain/CategoryPath.js"
import {
  CatalogIndex,
  type FacetAnswer,
  type FacetRequest,
  type IndexError,
  type MatchScope,
  type SearchHit,
  type SearchQuery
} from "../services/catalog-index/CatalogIndex.js"
import { tallyFacets } from "../services/catalog-index/ColumnValues.js"
import type { Condition, Filter } from "../model/Filter.js"

/** Facet values are in text form; the wire schema encodes category paths. */
export interface FacetValueOut {
  readonly value: ReadonlyArray<string> | string | { readonly start?: number; readonly end?: number }
  readonly label: string
  readonly active: boolean
  readonly selected: boolean
  /** Products (or groups) of the result set with this value. */
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
/** Facet scopes counted at once (columns with a selection of their own each count their own). */
const FACET_CONCURRENCY = 6

const sameColumn = (column: string) => (c: Condition) => c.column === column

const categoryValues = (
  counts: ReadonlyArray<{ value: string; count: number }>,
  selected: ReadonlyArray<string>
): Array<FacetValueOut> => {
  const byPath = new Map(counts.map((c) => [c.value, c.count]))
  const depthOf = (p: string) => parseCategoryPath(p).length
  const childrenOf = (parent: string | null) =>
    counts.filter((c) =>
      parent === null
        ? depthOf(c.value) === 1
        : c.value.startsWith(`${parent} > `) && depthOf(c.value) === depthOf(parent) + 1
    )
  const parent: string | null = selected.length > 0 ? selected[selected.length - 1] : null
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
    out.push({
      value: [c.value],
      label: parseCategoryPath(c.value).at(-1) ?? c.value,
      active: c.count > 0,
      selected: false,
      count: c.count
    })
  }
  return out
}

/** A category facet shows one level of the tree, but it is cut from every path of the set. */
const MAX_CATEGORY_VALUES = 5_000

/** The counts of every facet column, as one request to the index. */
export const facetRequest: FacetRequest = {
  values: facetColumns
    .filter((def) => def.kind !== "number")
    .map((def) => ({ column: def.name, limit: def.kind === "category" ? MAX_CATEGORY_VALUES : MAX_VALUES })),
  intervals: facetColumns.filter((def) => def.kind === "number").map((def) => ({ column: def.name, buckets: 5 }))
}

/**
 * Facets over a ranked sample (visual search, recommendations): counted from the best-ranked
 * FACET_SAMPLE hits' columns, since their result sets are neighbourhoods, not a set of matches.
 */
export const FACET_SAMPLE = 300

/** The facet a column shows, from its counts over the scope without its own selection. */
const facetOf = (
  def: (typeof facetColumns)[number],
  counts: FacetAnswer,
  own: ReadonlyArray<Condition>
): FacetOut | null => {
  const column = def.name
  if (def.kind === "number") {
    const found = counts.intervals.get(column)
    if (found == null || found.min === found.max) return null
    const { edges } = found
    const chosen = own.flatMap((c) => ("range" in c ? [c.range] : []))
    const out: Array<FacetValueOut> = []
    for (let i = 0; i + 1 < edges.length; i++) {
      if (found.counts[i] === 0) continue
      const selected = chosen.some((r) => r.gte === edges[i] && r.lt === edges[i + 1])
      out.push({
        value: { start: edges[i], end: edges[i + 1] },
        label: `${edges[i]} – ${edges[i + 1]}`,
        active: true,
        selected,
        count: found.counts[i]
      })
    }
    for (const r of chosen) {
      if (out.some((v) => v.selected)) break
      out.push({
        value: { start: r.gte, end: r.lt },
        label: `${r.gte ?? ""} – ${r.lt ?? ""}`,
        active: true,
        selected: true,
        count: 0
      })
    }
    return { type: "interval", column, label: def.label, isPrimary: def.facet.primary, values: out }
  }
  const selected = own.flatMap((c) => ("anyOf" in c ? c.anyOf : []))
  const values = counts.values.get(column) ?? []
  if (values.length === 0 && selected.length === 0) return null
  const out =
    def.kind === "category"
      ? categoryValues(values, selected)
      : [
          ...selected
            .filter((s) => !values.some((c) => c.value === s))
            .map((s) => ({ value: s, label: s, active: false, selected: true, count: 0 })),
          ...values.map((c) => ({
            value: c.value,
            label: c.value,
            active: c.count > 0,
            selected: selected.includes(c.value),
            count: c.count
          }))
        ]
  // A column with one value and nothing chosen cannot narrow anything.
  if (out.length < 2 && selected.length === 0) return null
  return { type: "categorical", column, label: def.label, isPrimary: def.facet.primary, values: out }
}

/**
 * interactions.dynamicFilters of a result set. Each column's counts ignore that column's own
 * selection (so a shopper can widen a choice) but honour every other filter: one count of
 * the scope without any own selection serves every column without one, and each column with
 * a selection is counted over the scope without it. `countsOf` counts a scope's filter.
 */
const facetsBy = (
  base: Filter,
  dynamic: ReadonlyArray<Condition>,
  countsOf: (filter: Filter, own: boolean) => Effect.Effect<FacetAnswer, IndexError>
) =>
  Effect.gen(function* () {
    const ownOf = (column: string) => dynamic.filter(sameColumn(column))
    const scopes = new Map<string, Effect.Effect<FacetAnswer, IndexError>>()
    const scopeOf = (column: string) => {
      const own = ownOf(column)
      const key = own.length === 0 ? "" : column
      let counts = scopes.get(key)
      if (counts === undefined) {
        const filter: Filter = { must: base.must.filter((c) => !own.includes(c)), mustNot: base.mustNot }
        scopes.set(key, (counts = countsOf(filter, own.length > 0)))
      }
      return counts
    }
    for (const def of facetColumns)
      scopes.set(ownOf(def.name).length === 0 ? "" : def.name, yield* Effect.cached(scopeOf(def.name)))
    // Scopes are counted side by side: a remote index answers them concurrently.
    const facets = yield* Effect.forEach(
      facetColumns,
      (def) =>
        Effect.map(scopes.get(ownOf(def.name).length === 0 ? "" : def.name)!, (counts) =>
          facetOf(def, counts, ownOf(def.name))
        ),
      { concurrency: FACET_CONCURRENCY }
    )
    return facets.filter((facet): facet is FacetOut => facet !== null)
  })

/**
 * Exact facets of a text search's whole result set (every match, or every group), counted by
 * the index: `counted` are those the search counted with its page (`facetRequest` over the
 * scope as searched); a column with a selection of its own is counted over the scope without it.
 */
export const exactFacets = (
  scope: MatchScope,
  dynamic: ReadonlyArray<Condition>,
  counted: Effect.Effect<FacetAnswer, IndexError>
) =>
  Effect.flatMap(CatalogIndex, (index) =>
    facetsBy(scope.filter, dynamic, (filter, own) =>
      own ? index.facets({ ...scope, filter }, facetRequest).pipe(timed("facets")) : counted
    )
  )

/**
 * Facets over the best-ranked FACET_SAMPLE hits of a ranking: `ranked` gives the top hits of
 * the query as searched (reused for columns without a selection of their own); a column with
 * a selection of its own is counted over a search without it.
 */
export const sampledFacets = (
  query: Omit<SearchQuery, "limit">,
  dynamic: ReadonlyArray<Condition>,
  ranked: Effect.Effect<ReadonlyArray<SearchHit>, IndexError>
) =>
  Effect.flatMap(CatalogIndex, (index) =>
    facetsBy(query.filter, dynamic, (filter, own) =>
      (own
        ? index.search({ ...query, filter, limit: FACET_SAMPLE }).pipe(
            Effect.map((r) => r.hits),
            timed("facet-search")
          )
        : ranked
      ).pipe(Effect.map((hits) => tallyFacets(hits.slice(0, FACET_SAMPLE), facetRequest, undefined)))
    )
  )

/** The index condition that selecting one facet value adds. */
export const facetValueCondition = (column: string, value: FacetValueOut["value"]): Condition =>
  typeof value === "string"
    ? { column, anyOf: [value] }
    : Array.isArray(value)
      ? { column, anyOf: value as ReadonlyArray<string> }
      : { column, range: { gte: (value as { start?: number }).start, lt: (value as { end?: number }).end } }
