/**
 * The value at `rank` (0-based) of `values` in ascending order, without sorting them all:
 * quickselect on a copy, O(n) expected. A page 50 of a 31,000-product category needs the
 * 1,200th price: sorting every price for it would be most of such a listing's time.
 */
export const kthSmallest = (values: ArrayLike<number>, rank: number): number => {
  const a = Float64Array.from(values)
  let lo = 0
  let hi = a.length - 1
  while (lo < hi) {
    // Median of three as the pivot; Hoare's partition splits runs of equal values evenly.
    const mid = (lo + hi) >>> 1
    const [x, y, z] = [a[lo], a[mid], a[hi]]
    const pivot = x < y ? (y < z ? y : Math.max(x, z)) : x < z ? x : Math.max(y, z)
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i] < pivot) i++
      while (a[j] > pivot) j--
      if (i <= j) {
        const t = a[i]
        a[i++] = a[j]
        a[j--] = t
      }
    }
    // Now a[lo..j] <= pivot <= a[i..hi], and everything between equals the pivot.
    if (rank <= j) hi = j
    else if (rank >= i) lo = i
    else return pivot
  }
  return a[rank]
}

/** The k-th largest value (-Infinity when there are fewer), in one pass without sorting all. */
export const kthLargest = (values: ArrayLike<number>, k: number): number => {
  if (k === 0 || values.length < k) return -Infinity
  // The insertion pass costs O(n·k): past a page or two (a deep page asks for k = 10,000), select.
  if (k > 64) return kthSmallest(values, values.length - k)
  const best = new Float64Array(k).fill(-Infinity) // ascending: best[0] is the k-th largest so far
  for (let v = 0; v < values.length; v++) {
    const value = values[v]
    if (value <= best[0]) continue
    let i = 0
    for (; i + 1 < k && best[i + 1] < value; i++) best[i] = best[i + 1]
    best[i] = value
  }
  return best[0]
}

/** The `count` best-scored entries of `scores` (ties at the cut all kept). */
export const bestEntries = <K>(scores: ReadonlyMap<K, number>, count: number): ReadonlyMap<K, number> => {
  if (scores.size <= count) return scores
  const cut = kthLargest([...scores.values()], count)
  return new Map([...scores].filter(([, score]) => score >= cut))
}
