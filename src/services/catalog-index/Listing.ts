import { TEXT_TIE_BREAKS } from "../../model/Columns.js"
import type { SearchHit, SortKey } from "./CatalogIndex.js"
import { byCodeUnits, groupOf, type Member } from "./ColumnValues.js"
import { kthSmallest } from "./TopK.js"

/**
 * A listing's order and grouping over members already in hand, in one place for the backends:
 * every index sorts and groups a result set the same way.
 */

/** Per sort key, each entry's key: its number, negated for "desc", a missing one Infinity (last either way). */
export const sortKeys = (
  sort: ReadonlyArray<SortKey>,
  count: number,
  numberOf: (index: number, column: string) => number
): Array<Float64Array> =>
  sort.map(({ column, order }) => {
    const sign = order === "asc" ? 1 : -1
    const keys = new Float64Array(count)
    for (let i = 0; i < count; i++) {
      const value = numberOf(i, column)
      keys[i] = Number.isNaN(value) ? Infinity : sign * value
    }
    return keys
  })

/**
 * Per sort key, how entries tying on its number compare by the text column that refines it
 * (TEXT_TIE_BREAKS: a title's number holds its first ten characters), or undefined; `textOf`
 * reads an entry's text column, asked for tied entries only.
 */
export const textTieBreaks = (
  sort: ReadonlyArray<SortKey>,
  textOf: (index: number, column: string) => string | undefined
): Array<((a: number, b: number) => number) | undefined> =>
  sort.map(({ column, order }) => {
    const text = TEXT_TIE_BREAKS[column]
    if (text === undefined) return undefined
    const sign = order === "asc" ? 1 : -1
    return (a, b) => {
      const [x, y] = [textOf(a, text), textOf(b, text)]
      if (x === y) return 0
      if (x === undefined) return 1
      if (y === undefined) return -1
      return sign * byCodeUnits(x, y)
    }
  })

/**
 * The first `end` of `count` entries in the order of their keys (a tie on a key's number
 * broken by its text, see textTieBreaks), ties by score (highest first, asked for tied entries
 * only), then id. Only entries whose first key is at most the `end`-th smallest can place, so
 * only those are sorted: a page 50 of 37,000 products sorts ~1,200.
 */
export const sortPrefix = (
  keys: ReadonlyArray<Float64Array>,
  count: number,
  end: number,
  scoreOf: (index: number) => number,
  idOf: (index: number) => string,
  tieBreaks: ReadonlyArray<((a: number, b: number) => number) | undefined> = []
): Int32Array => {
  const first = keys[0]
  let cut = Infinity
  if (end < count) cut = kthSmallest(first, Math.max(0, end - 1))
  const candidates: Array<number> = []
  for (let i = 0; i < count; i++) if (first[i] <= cut) candidates.push(i)
  const scores = new Map<number, number>()
  const score = (i: number) => {
    let known = scores.get(i)
    if (known === undefined) scores.set(i, (known = scoreOf(i)))
    return known
  }
  candidates.sort((a, b) => {
    for (let k = 0; k < keys.length; k++) {
      const values = keys[k]
      if (values[a] !== values[b]) return values[a] < values[b] ? -1 : 1
      const byText = tieBreaks[k]?.(a, b) ?? 0
      if (byText !== 0) return byText
    }
    return score(b) - score(a) || byCodeUnits(idOf(a), idOf(b))
  })
  return Int32Array.from(candidates.slice(0, end))
}

/** `members` in the order of `sort` (see sortKeys and sortPrefix), the first `end` of them. */
export const sortOrder = (
  members: ReadonlyArray<Member>,
  sort: ReadonlyArray<SortKey>,
  scoreOf: (index: number) => number,
  end = members.length
): Int32Array =>
  sortPrefix(
    sortKeys(sort, members.length, (i, column) => {
      const value = members[i].columns[column]
      return typeof value === "number" ? value : NaN
    }),
    members.length,
    end,
    scoreOf,
    (i) => members[i].productId,
    textTieBreaks(sort, (i, column) => {
      const value = members[i].columns[column]
      return typeof value === "string" ? value : undefined
    })
  )

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

/** How far below its score a copy of a better-placed title ranks, per copy before it. */
export const DUPLICATE_PENALTY = 0.1

/**
 * A relevance ranking with copies of one title spread apart: each product whose title reads
 * as a better-placed product's (the `title_key` column) ranks as if it scored
 * DUPLICATE_PENALTY less per such product, so three copies of one LED bulb do not fill the top
 * three places. `hits` are the best `hits.length` by score; unless they are all the matches, a
 * product after them might outrank a lowered one, so only the prefix no later product can
 * outrank is settled and returned.
 */
export const spreadDuplicates = (hits: ReadonlyArray<SearchHit>, complete: boolean): Array<SearchHit> => {
  const copies = new Map<number, number>()
  const ranked = hits.map((hit, place) => {
    const key = hit.columns.title_key
    if (typeof key !== "number") return { hit, place, score: hit.score }
    const before = copies.get(key) ?? 0
    copies.set(key, before + 1)
    return { hit, place, score: hit.score - DUPLICATE_PENALTY * before }
  })
  ranked.sort((a, b) => b.score - a.score || a.place - b.place)
  // A later product scores at most the last hit's score, and ties go to the earlier place.
  const floor = complete || hits.length === 0 ? -Infinity : hits[hits.length - 1].score
  const settled = ranked.findIndex((entry) => entry.score < floor)
  return (settled === -1 ? ranked : ranked.slice(0, settled)).map((entry) => entry.hit)
}

/**
 * The first `end` entries of a relevance listing (duplicates spread, one per group with
 * `groupBy`) from the best `length` hits, or null when they do not settle that many and more
 * matches remain (`available`): the caller asks again with `nextLength`.
 */
export const relevancePrefix = (
  hits: ReadonlyArray<SearchHit>,
  length: number,
  available: number,
  end: number,
  groupBy: string | undefined
): Array<SearchHit> | null => {
  const complete = hits.length < length || length >= available
  const spread = spreadDuplicates(hits, complete)
  const listed = groupBy === undefined ? spread : firstOfEachGroup(spread, groupBy)
  return listed.length >= end || complete ? listed.slice(0, end) : null
}

/**
 * The ranking depth asked for a page ending at `end`: the page itself first (it settles unless
 * copies or variants were pushed off it), then four times deeper each time.
 */
export const nextLength = (previous: number | null, end: number): number =>
  previous === null ? end : Math.max(8, previous * 4)
