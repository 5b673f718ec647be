/** A vocabulary word (or word prefix) standing in for a mistyped one, at an edit cost. */
export interface Correction {
  readonly text: string
  readonly cost: number
}

/** Largest edit distance tolerated for a typed prefix of this many characters. */
export const typoBudget = (prefixLength: number): number => (prefixLength < 4 ? 0 : prefixLength < 8 ? 1 : 2)

/** First index in [lo, hi) whose char at `depth` exceeds `code`; the range shares its first `depth` chars. */
const runEnd = (words: ReadonlyArray<string>, lo: number, hi: number, depth: number, code: number): number => {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (words[mid].charCodeAt(depth) <= code) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Vocabulary entries within Damerau–Levenshtein (optimal string alignment) distance `budget`
 * of `typed`: whole words (`"word"`, for words the user finished) or word prefixes (`"prefix"`,
 * for the word being typed, so "cordlss" meets "cordless" and "crodl" meets "cordl").
 *
 * The sorted word list is walked as an implicit trie: the words sharing a prefix form a
 * contiguous range, and a child is a run of equal next characters found by binary search.
 * One DP row per trie node, and a branch is abandoned once its whole row exceeds the budget,
 * so the walk touches a few hundred nodes rather than every word.
 */
export const corrections = (
  words: ReadonlyArray<string>,
  typed: string,
  budget: number,
  mode: "word" | "prefix"
): Array<Correction> => {
  const m = typed.length
  const found: Array<Correction> = []
  const visit = (lo: number, hi: number, prefix: string, row: Array<number>, parentRow: Array<number> | undefined) => {
    const depth = prefix.length
    const isWord = words[lo].length === depth
    if (row[m] <= budget && depth > 0 && (mode === "prefix" || isWord)) found.push({ text: prefix, cost: row[m] })
    const previousChar = prefix.charCodeAt(depth - 1)
    for (let i = isWord ? lo + 1 : lo; i < hi; ) {
      const code = words[i].charCodeAt(depth)
      const end = runEnd(words, i, hi, depth, code)
      const next = [depth + 1]
      let best = next[0]
      for (let j = 1; j <= m; j++) {
        const t = typed.charCodeAt(j - 1)
        let d = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (t === code ? 0 : 1))
        if (parentRow !== undefined && j > 1 && t === previousChar && typed.charCodeAt(j - 2) === code) {
          d = Math.min(d, parentRow[j - 2] + 1)
        }
        next.push(d)
        if (d < best) best = d
      }
      if (best <= budget) visit(i, end, prefix + String.fromCharCode(code), next, row)
      i = end
    }
  }
  if (words.length > 0 && budget > 0)
    visit(
      0,
      words.length,
      "",
      Array.from({ length: m + 1 }, (_, j) => j),
      undefined
    )
  return mode === "word" ? found : minimalPrefixes(found)
}

/**
 * A matched prefix covers every word below it, so a deeper match only adds information when
 * it is cheaper ("cordles" at 2, "cordless" at 1 for "crodless"); drop the rest.
 */
const minimalPrefixes = (found: Array<Correction>): Array<Correction> => {
  const kept: Array<Correction> = []
  for (const c of found.sort((a, b) => a.cost - b.cost || a.text.length - b.text.length)) {
    if (!kept.some((k) => c.text.startsWith(k.text))) kept.push(c)
  }
  return kept
}
