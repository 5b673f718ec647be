import type { Qrels } from "./Dataset.js"

/**
 * Precision of what a search returns, beside nDCG (which only looks at the first 10):
 * how many products a query matches, and how many of the returned products that were
 * judged a shopper called unrelated (gain 0). Judgements are sparse, so the second is over
 * judged products only.
 */
export interface Precision {
  /** Mean number of products a query matches (the whole result set, not the page). */
  readonly meanMatches: number
  /** Share of the returned, judged products with gain 0. */
  readonly unrelatedShare: number
  readonly judgedReturned: number
}

export const precisionOf = (
  rankings: ReadonlyMap<string, ReadonlyArray<string>>,
  totals: ReadonlyMap<string, number>,
  qrels: Qrels
): Precision => {
  let judged = 0
  let unrelated = 0
  let matches = 0
  for (const [queryId, ranking] of rankings) {
    matches += totals.get(queryId) ?? ranking.length
    const grades = qrels.get(queryId)
    for (const id of ranking) {
      const grade = grades?.get(id)
      if (grade === undefined) continue
      judged++
      if (grade === 0) unrelated++
    }
  }
  return {
    meanMatches: rankings.size === 0 ? 0 : matches / rankings.size,
    unrelatedShare: judged === 0 ? 0 : unrelated / judged,
    judgedReturned: judged
  }
}

/**
 * Nonsense queries: two made-up words of 5–8 letters each, from a fixed seed, so every run
 * asks the same ones. A shopper typing these should get no products.
 */
export const nonsenseQueries = (n: number, seed = 7): Array<string> => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const word = () =>
    Array.from({ length: 5 + Math.floor(next() * 4) }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join("")
  return Array.from({ length: n }, () => `${word()} ${word()}`)
}

export interface NonsenseResult {
  /** Queries that returned at least one product. */
  readonly answered: number
  readonly meanMatches: number
}

export const nonsenseOf = (matches: ReadonlyArray<number>): NonsenseResult => ({
  answered: matches.filter((n) => n > 0).length,
  meanMatches: matches.length === 0 ? 0 : matches.reduce((a, b) => a + b, 0) / matches.length
})

export const precisionHeader = (first: string) =>
  `${first.padEnd(54)}  matches/query  unrelated (judged, returned)  nonsense answered  nonsense matches/query`

export const precisionRow = (label: string, p: Precision, nonsense: NonsenseResult, nonsenseCount: number) =>
  `${label.padEnd(54)}  ${p.meanMatches.toFixed(1).padStart(13)}  ` +
  `${`${(100 * p.unrelatedShare).toFixed(1)}% of ${p.judgedReturned}`.padStart(28)}  ` +
  `${`${nonsense.answered}/${nonsenseCount}`.padStart(17)}  ${nonsense.meanMatches.toFixed(1).padStart(22)}`
