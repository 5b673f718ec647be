import type { Intervals, NumericStats } from "./CatalogIndex.js"

/**
 * The edges of a numeric facet (the price buckets), cut where a result set's values are, not
 * in equal steps over its range: a catalog of T-shirts at 15–90 with a few coats at 250–400
 * would otherwise show one 0–100 bucket holding nearly everything. Edges are chosen among
 * "nice" numbers (1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5 times a power of ten, so labels read
 * "25 – 50") to split the set as evenly as they can.
 *
 * The choice depends only on the set's min, max and size and, for each candidate edge, how
 * many values lie below it. The embedded index counts those from the values it holds; Qdrant
 * answers them as one count request per candidate: both backends cut the same set alike.
 */

/** The nice numbers' leading digits, times ten: 1, 1.5, 2, 2.5, 3, 4, 5, 6 and 7.5. */
const DIGITS = [10, 15, 20, 25, 30, 40, 50, 60, 75] as const
/** How plainly each reads: between two equally even cuts, the one at rounder numbers wins. */
const ROUGHNESS = [0, 3, 1, 2, 3, 3, 1, 3, 3] as const
/**
 * Decades of inner edges, down from the largest magnitude: a spread of 10^5 (1 to 100,000)
 * is cut within it, and the candidates, so the counts Qdrant is asked for, stay at most 45
 * per sign; smaller values share the lowest bucket.
 */
const DECADES = 5

/**
 * The nice number DIGITS[digit] / 10 × 10^decade, from whole numbers only: 15 / 100 is the
 * double nearest to 0.15 (as JSON writes and reads it), where 1.5 × 0.1 is 0.15000000000000002.
 */
const niceAt = (digit: number, decade: number): number =>
  decade >= 1 ? DIGITS[digit] * 10 ** (decade - 1) : DIGITS[digit] / 10 ** (1 - decade)

/** The k with 10^k ≤ x < 10^(k+1), for x > 0 (log10 alone is off by one near powers of ten). */
const decadeOf = (x: number): number => {
  let k = Math.floor(Math.log10(x))
  if (!Number.isFinite(k)) return k
  while (niceAt(0, k) > x) k--
  while (niceAt(0, k + 1) <= x) k++
  return k
}

/** The largest nice number at or below x > 0 (x itself when nice). */
const niceAtOrBelow = (x: number): number => {
  const k = decadeOf(x)
  let digit = DIGITS.length - 1
  while (niceAt(digit, k) > x) digit--
  return niceAt(digit, k)
}

/** The largest nice number below x > 0 (0 is not one: the grid goes on below every decade). */
const niceBelow = (x: number): number => {
  const k = decadeOf(x)
  let digit = DIGITS.length - 1
  while (digit >= 0 && niceAt(digit, k) >= x) digit--
  return digit >= 0 ? niceAt(digit, k) : niceAt(DIGITS.length - 1, k - 1)
}

/** The smallest nice number above x > 0. */
const niceAbove = (x: number): number => {
  const k = decadeOf(x)
  const digit = DIGITS.findIndex((_, d) => niceAt(d, k) > x)
  return digit >= 0 ? niceAt(digit, k) : niceAt(0, k + 1)
}

/** The smallest nice number at or above x > 0. */
const niceAtOrAbove = (x: number): number => {
  const below = niceAtOrBelow(x)
  return below === x ? x : niceAbove(x)
}

/** The first edge: the largest nice number (or 0) at or below `min`. */
const firstEdge = (min: number): number => (min > 0 ? niceAtOrBelow(min) : min < 0 ? -niceAtOrAbove(-min) : 0)

/**
 * The last edge: the smallest nice number above `max`, so the last interval [start, end)
 * holds it. The nice numbers above 0 go on down without end, so a set ending at 0 ends at
 * a tenth of its lowest value's decade (−50 … 0 ends at 1), and a set of zeros at 1.
 */
const lastEdge = (min: number, max: number): number =>
  max > 0 ? niceAbove(max) : max < 0 ? -niceBelow(-max) : min < 0 ? niceAt(0, decadeOf(-min) - 1) : 1

/**
 * How plainly an inner edge reads: its leading digits first, then how many decades it lies
 * below `top` (the set's largest magnitude), so between equally even cuts 0 beats 0.001 and
 * 1,000 beats 10 where no value lies between them.
 */
const roughness = (x: number, top: number): number => {
  if (x === 0) return 0
  const magnitude = Math.abs(x)
  const k = decadeOf(magnitude)
  const digit = DIGITS.findIndex((_, d) => niceAt(d, k) === magnitude)
  return DECADES * (digit >= 0 ? ROUGHNESS[digit] : ROUGHNESS.length) + (top - k)
}

/**
 * The inner edges a set with this min and max may be cut at, ascending: the nice numbers (and
 * 0) above `min` and at most `max`, from DECADES decades down from the largest magnitude.
 * Every one leaves some value on each side, so none is an empty bucket by itself.
 */
export const edgeCandidates = (min: number, max: number): ReadonlyArray<number> => {
  const magnitude = Math.max(Math.abs(min), Math.abs(max))
  if (!(max > min) || !Number.isFinite(magnitude)) return []
  const top = decadeOf(magnitude)
  const positive: Array<number> = []
  for (let k = top - DECADES + 1; k <= top; k++) for (let d = 0; d < DIGITS.length; d++) positive.push(niceAt(d, k))
  const all = [...positive.map((x) => -x).reverse(), 0, ...positive]
  return all.filter((x) => x > min && x <= max)
}

/** A choice of edges so far: its sum of squared bucket sizes, its roughness and where it came from. */
interface Cut {
  readonly squares: number
  readonly rough: number
  readonly previous: number
}

const better = (a: Cut, b: Cut | undefined): boolean =>
  b === undefined || a.squares < b.squares || (a.squares === b.squares && a.rough < b.rough)

/**
 * The intervals of a set from its stats and, per candidate of `edgeCandidates(min, max)`, how
 * many of its values are below it (`below`, as long as the candidates). Of the ways to cut at
 * up to `buckets` − 1 candidates with no empty bucket, the most even one (least sum of squared
 * bucket sizes, which falls with every split of a bucket into two non-empty ones, so few
 * distinct values make few buckets) and, among equally even ones, the one at the rounder
 * numbers. Exact and deterministic: a small dynamic program over ≤ 91 candidates.
 */
export const intervalsFromCounts = (
  stats: NumericStats,
  candidates: ReadonlyArray<number>,
  below: ReadonlyArray<number>,
  buckets: number
): Intervals => {
  const { min, max, count } = stats
  const edges = [firstEdge(min), ...candidates, lastEdge(min, max)]
  // Values below each edge: none below the first, every one below the last.
  const under = [0, ...below, count]
  const last = edges.length - 1
  const top = decadeOf(Math.max(Math.abs(min), Math.abs(max)))
  // cuts[j][i]: the best j buckets from the first edge to edge i.
  const cuts: Array<Array<Cut | undefined>> = [
    edges.map((_, i) => (i === 0 ? { squares: 0, rough: 0, previous: -1 } : undefined))
  ]
  let best: { cut: Cut; buckets: number } | undefined
  for (let j = 1; j <= Math.max(1, buckets); j++) {
    const row: Array<Cut | undefined> = edges.map(() => undefined)
    for (let i = 1; i <= last; i++) {
      const rough = i === last ? 0 : roughness(edges[i], top)
      for (let from = 0; from < i; from++) {
        const before = cuts[j - 1][from]
        const size = under[i] - under[from]
        if (before === undefined || size <= 0) continue
        const cut = { squares: before.squares + size * size, rough: before.rough + rough, previous: from }
        if (better(cut, row[i])) row[i] = cut
      }
    }
    cuts.push(row)
    const whole = row[last]
    if (whole !== undefined && (best === undefined || better(whole, best.cut))) best = { cut: whole, buckets: j }
  }
  if (best === undefined) return { min, max, edges: [edges[0], edges[last]], counts: [count] }
  const chosen: Array<number> = []
  for (let j = best.buckets, i = last; i >= 0; i = cuts[j--][i]!.previous) chosen.push(i)
  chosen.reverse()
  return {
    min,
    max,
    edges: chosen.map((i) => edges[i]),
    counts: chosen.slice(1).map((i, n) => under[i] - under[chosen[n]])
  }
}
