import type { Qrels } from "./Dataset.js"

/** A grade's gain: exponential, `2^g - 1` (the data README's rule; grades 0–3 and 0–2, homedepot's fractional). */
export const gainOf = (grade: number): number => 2 ** grade - 1

/**
 * nDCG@k with exponential gains of the judged grades and the usual log2(rank + 1) discount;
 * unjudged products gain 0, and the ideal ranking is every judged product sorted by grade.
 */
export const ndcgAt = (ranking: ReadonlyArray<string>, judged: ReadonlyMap<string, number>, k: number): number => {
  let dcg = 0
  for (let i = 0; i < Math.min(k, ranking.length); i++) dcg += gainOf(judged.get(ranking[i]) ?? 0) / Math.log2(i + 2)
  const ideal = [...judged.values()].sort((a, b) => b - a).slice(0, k)
  let idcg = 0
  ideal.forEach((grade, i) => (idcg += gainOf(grade) / Math.log2(i + 2)))
  return idcg === 0 ? 0 : dcg / idcg
}

/** Share of the products with gain > 0 found in the first k. */
export const recallAt = (ranking: ReadonlyArray<string>, judged: ReadonlyMap<string, number>, k: number): number => {
  let relevant = 0
  for (const gain of judged.values()) if (gain > 0) relevant++
  if (relevant === 0) return 0
  let found = 0
  for (const id of ranking.slice(0, k)) if ((judged.get(id) ?? 0) > 0) found++
  return found / relevant
}

export interface Scores {
  readonly ndcg10: number
  readonly judgedNdcg10: number
  readonly recall100: number
  readonly queries: number
}

/**
 * Averages over the queries that have at least one product with gain > 0 (a query without
 * one has no ideal ranking, so nDCG and recall are undefined for it).
 */
export const score = (rankings: ReadonlyMap<string, ReadonlyArray<string>>, qrels: Qrels): Scores => {
  let ndcg = 0
  let judgedNdcg = 0
  let recall = 0
  let n = 0
  for (const [queryId, ranking] of rankings) {
    const judged = qrels.get(queryId)
    if (judged === undefined || ![...judged.values()].some((g) => g > 0)) continue
    ndcg += ndcgAt(ranking, judged, 10)
    judgedNdcg += ndcgAt(
      ranking.filter((id) => judged.has(id)),
      judged,
      10
    )
    recall += recallAt(ranking, judged, 100)
    n++
  }
  return n === 0
    ? { ndcg10: 0, judgedNdcg10: 0, recall100: 0, queries: 0 }
    : { ndcg10: ndcg / n, judgedNdcg10: judgedNdcg / n, recall100: recall / n, queries: n }
}

/** Queries that can be scored (at least one judged product with gain > 0). */
export const scorable = (queryId: string, qrels: Qrels): boolean => {
  const judged = qrels.get(queryId)
  return judged !== undefined && [...judged.values()].some((g) => g > 0)
}
