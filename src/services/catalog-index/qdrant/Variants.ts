import { editBudget, type QueryWord, type WordMatching } from "../../../text/TextAnalysis.js"

/** As in the embedded index: a typo fix that drops letters the shopper typed is a poor guess. */
const SHORTER_TERM_PENALTY = 0.3

export interface VariantSettings {
  readonly fuzzyWeight: number
  readonly prefixWeight: number
}

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

/** A variant term of a query word, its weight, and the edits it is away (0 for a completion). */
export interface Variant {
  readonly term: string
  readonly weight: number
  readonly edits: number
}

/**
 * A word's verified variants by term: weight, and whether the variant is gated (a typo of a word
 * the site knows: another word, counted only where the text model agrees, as in the embedded index).
 */
export type WordVariants = ReadonlyMap<string, { readonly weight: number; readonly gated: boolean }>

/**
 * The typo and prefix variants of a query word among a candidate document's terms, with the
 * weights the embedded index gives them (MiniSearch's: fuzzy from the typed form and from the
 * stem, completions when `prefix`, which the caller decides with completesPrefix). The trigram query only proposes candidates; this decides,
 * so a variant matches here exactly when it would match in the embedded index.
 */
export const variantWeights = (
  word: QueryWord,
  prefix: boolean,
  terms: Iterable<string>,
  settings: VariantSettings,
  matching: WordMatching
): Array<Variant> => {
  const found: Array<Variant> = []
  // A known word's typos are looked up as an unknown word's; the caller gates them.
  const budget = editBudget(word.typed, false, matching)
  for (const term of terms) {
    if (term === word.stem) continue
    for (const source of budget > 0 ? new Set([word.typed, word.stem]) : []) {
      const edits = boundedEditDistance(source, term, budget)
      if (edits > budget) continue
      const dropped = word.typed.length - term.length > budget ? SHORTER_TERM_PENALTY : 1
      found.push({ term, weight: (dropped * settings.fuzzyWeight * term.length) / (term.length + edits), edits })
    }
    if (prefix && term.startsWith(word.typed)) {
      const extra = term.length - word.typed.length
      // A completion is no typo: "min" never drops it (its edits count as none).
      found.push({ term, weight: (settings.prefixWeight * term.length) / (term.length + 0.3 * extra), edits: 0 })
    }
  }
  return found
}
