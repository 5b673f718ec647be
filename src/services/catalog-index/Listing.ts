import type { SearchHit, SortKey } from "./CatalogIndex.js"
import { byCodeUnits, groupOf, type Member } from "./ColumnValues.js"

/**
 * A listing's order and grouping over members already in hand, in one place for the backends:
 * every index sorts and groups a result set the same way.
 */

/**
 * Indices of `members` in the order of `sort`: each key a numeric column, a member without a
 * number in it after every member with one (either direction); ties by score (highest first,
 * asked for tied members only), then product id.
 */
export const sortOrder = (members: ReadonlyArray<Member>, sort: ReadonlyArray<SortKey>, scoreOf: (index: number) => number): Int32Array => {
  const keys = sort.map(({ column, order }) => {
    const sign = order === "asc" ? 1 : -1
    return Float64Array.from(members, (member) => {
      const value = member.columns[column]
      return typeof value === "number" && !Number.isNaN(value) ? sign * value : Infinity
    })
  })
  const scores = new Float64Array(members.length).fill(NaN)
  const score = (i: number) => (Number.isNaN(scores[i]) ? (scores[i] = scoreOf(i)) : scores[i])
  const order = new Int32Array(members.length)
  for (let i = 0; i < order.length; i++) order[i] = i
  return order.sort((a, b) => {
    for (const values of keys) if (values[a] !== values[b]) return values[a] < values[b] ? -1 : 1
    return score(b) - score(a) || byCodeUnits(members[a].productId, members[b].productId)
  })
}

/** The first hit of each group, in the hits' order (see groupOf). */
export const firstOfEachGroup = (hits: ReadonlyArray<SearchHit>, groupBy: string): Array<SearchHit> => {
  const seen = new Set<string>()
  const firsts: Array<SearchHit> = []
  for (const hit of hits) {
    const group = groupOf(hit.productId, hit.columns, groupBy)
    if (seen.has(group)) continue
    seen.add(group)
    firsts.push(hit)
  }
  return firsts
}

/** How many hits a grouped page asks for next: grown until the page has `count` groups or the set ends. */
export const nextGroupedLength = (previous: number | null, count: number): number => (previous === null ? Math.max(8, 2 * count) : previous * 4)

/** Distinct groups among members. */
export const countGroups = (members: ReadonlyArray<Member>, groupBy: string): number =>
  new Set(members.map((member) => groupOf(member.productId, member.columns, groupBy))).size
