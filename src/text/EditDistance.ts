/**
 * Edit distance counting insertions, deletions, substitutions and swaps of neighbouring letters
 * as one edit each (optimal string alignment), or `bound + 1` as soon as it must exceed `bound`.
 */
export const boundedEditDistance = (a: string, b: string, bound: number): number => {
  if (Math.abs(a.length - b.length) > bound) return bound + 1
  let before: Array<number> = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1)
      current[j] = best
      rowMin = Math.min(rowMin, best)
    }
    if (rowMin > bound) return bound + 1
    before = previous
    previous = current
  }
  return Math.min(previous[b.length], bound + 1)
}
