/** Accuracy of ranked product lists against the fine class of each query photo. */
export interface Accuracy {
  readonly queries: number
  readonly top1: number
  readonly top5: number
  readonly coarseTop1: number
  /** Queries that returned no product at all. */
  readonly empty: number
}

export interface Judged {
  readonly expected: string
  readonly ranking: ReadonlyArray<string>
}

export const accuracy = (
  judged: ReadonlyArray<Judged>,
  coarseOf: (productId: string) => number | undefined
): Accuracy => {
  let top1 = 0,
    top5 = 0,
    coarseTop1 = 0,
    empty = 0
  for (const { expected, ranking } of judged) {
    if (ranking.length === 0) empty++
    if (ranking[0] === expected) top1++
    if (ranking.slice(0, 5).includes(expected)) top5++
    if (ranking.length > 0 && coarseOf(ranking[0]) === coarseOf(expected)) coarseTop1++
  }
  const n = judged.length
  return { queries: n, top1: top1 / n, top5: top5 / n, coarseTop1: coarseTop1 / n, empty }
}

/** Rank-based figures for the text check: top-1, top-5 and reciprocal rank within the first 10. */
export const rankStats = (judged: ReadonlyArray<Judged>) => {
  let top1 = 0,
    top5 = 0,
    rr = 0
  for (const { expected, ranking } of judged) {
    const at = ranking.slice(0, 10).indexOf(expected)
    if (at === 0) top1++
    if (at >= 0 && at < 5) top5++
    if (at >= 0) rr += 1 / (at + 1)
  }
  const n = Math.max(1, judged.length)
  return { n: judged.length, top1: top1 / n, top5: top5 / n, mrr: rr / n }
}

export const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(6)
