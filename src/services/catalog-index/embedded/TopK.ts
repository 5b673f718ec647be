/** The k-th largest value (-Infinity when there are fewer), in one pass without sorting all. */
export const kthLargest = (values: ArrayLike<number>, k: number): number => {
  if (k === 0 || values.length < k) return -Infinity
  // The insertion pass costs O(n·k): past a page or two (a deep page asks for k = 10,000), sort.
  if (k > 64) return Float64Array.from(values).sort()[values.length - k]
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
