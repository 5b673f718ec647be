import type { Schemas } from "@qdrant/js-client-rest"
import type { Condition, Filter } from "../../../model/Filter.js"
import { columnKey, SITE_KEY, siteValue } from "./Layout.js"

export type QdrantCondition = Schemas["Condition"]

/** The filters this layer sends: always a `must` list, which starts with the site. */
export interface QdrantFilter {
  readonly must: Array<QdrantCondition>
  readonly must_not?: Array<QdrantCondition>
}

/** No point lacks a site, so this never holds: the translation of an empty `anyOf`. */
const NEVER: QdrantCondition = { is_empty: { key: SITE_KEY } }

/** Below every float: an open range still requires a number, as in the embedded index. */
const LOWEST = -Number.MAX_VALUE

/**
 * One of our conditions as a Qdrant condition. The embedded index compares booleans as the
 * strings "true"/"false" (a boolean column's facet values), so a boolean-looking value also
 * matches a boolean payload and `equals` also matches the string form.
 */
export const toQdrantCondition = (condition: Condition): QdrantCondition => {
  const key = columnKey(condition.column)
  if ("range" in condition) {
    const { gte, lt } = condition.range
    const range =
      gte === undefined && lt === undefined
        ? { gte: LOWEST }
        : { ...(gte !== undefined && { gte }), ...(lt !== undefined && { lt }) }
    return { key, range }
  }
  if ("equals" in condition) {
    return {
      should: [
        { key, match: { value: condition.equals } },
        { key, match: { value: String(condition.equals) } }
      ]
    }
  }
  if (condition.anyOf.length === 0) return NEVER
  const strings: QdrantCondition = { key, match: { any: [...condition.anyOf] } }
  const booleans = [true, false].filter((flag) => condition.anyOf.includes(String(flag)))
  if (booleans.length === 0) return strings
  return { should: [strings, ...booleans.map((value): QdrantCondition => ({ key, match: { value } }))] }
}

export interface PointScope {
  /** Only these points (a `has_id` list), e.g. a facet over a set of products. */
  readonly onlyIds?: ReadonlyArray<string> | undefined
  /** Never these points (the query's `excludeIds`). */
  readonly exceptIds?: ReadonlyArray<string> | undefined
}

/**
 * Our filter within one site. The site condition is in every request the layer sends:
 * tenants share the collection, so this is the isolation between them.
 */
export const toQdrantFilter = (siteId: number, filter: Filter, scope: PointScope = {}): QdrantFilter => {
  const must: Array<QdrantCondition> = [
    { key: SITE_KEY, match: { value: siteValue(siteId) } },
    ...filter.must.map(toQdrantCondition)
  ]
  const mustNot = filter.mustNot.map(toQdrantCondition)
  if (scope.onlyIds !== undefined) must.push(scope.onlyIds.length === 0 ? NEVER : { has_id: [...scope.onlyIds] })
  if (scope.exceptIds !== undefined && scope.exceptIds.length > 0) mustNot.push({ has_id: [...scope.exceptIds] })
  return mustNot.length === 0 ? { must } : { must, must_not: mustNot }
}

/** `filter` and `condition` too. */
export const andAlso = (filter: QdrantFilter, condition: QdrantCondition): QdrantFilter => ({
  ...filter,
  must: [...filter.must, condition]
})
