import type { QueryWord } from "../../../text/TextAnalysis.js"
import { editBudget } from "../../../text/TextAnalysis.js"

/** As in the embedded index: a typo fix that drops letters the shopper typed is a poor guess. */
const SHORTER_TERM_PENALTY = 0.3

export interface VariantSettings {
  readonly fuzzyWeight: number
  readonly prefixWeight: number
}

/** Levenshtein distance, or `bound + 1` as soon as it must exceed `bound`. */
export const boundedEditDistance = (a: string, b: string, bound: number): number => {
  if (Math.abs(a.length - b.length) > bound) return bound + 1
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      rowMin = Math.min(rowMin, current[j])
    }
    if (rowMin > bound) return bound + 1
    previous = current
  }
  return Math.min(previous[b.length], bound + 1)
}

/**
 * The typo and prefix variants of a query word among a candidate document's terms, with the
 * weights the embedded index gives them (MiniSearch's: fuzzy from the typed form and from the
 * stem, prefix for the last word). The trigram query only proposes candidates; this decides,
 * so a variant matches here exactly when it would match in the embedded index.
 */
export const variantWeights = (
  word: QueryWord,
  isLast: boolean,
  terms: Iterable<string>,
  settings: VariantSettings,
  known = true
): Map<string, number> => {
  const weights = new Map<string, number>()
  const offer = (term: string, weight: number) => {
    if (!(weights.get(term)! >= weight)) weights.set(term, weight)
  }
  const budget = editBudget(word.typed, known)
  const prefix = isLast && word.typed.length >= 3
  for (const term of terms) {
    if (term === word.stem) continue
    for (const source of budget > 0 ? new Set([word.typed, word.stem]) : []) {
      const edits = boundedEditDistance(source, term, budget)
      if (edits > budget) continue
      const dropped = word.typed.length - term.length > budget ? SHORTER_TERM_PENALTY : 1
      offer(term, (dropped * settings.fuzzyWeight * term.length) / (term.length + edits))
    }
    if (prefix && term.startsWith(word.typed)) {
      const extra = term.length - word.typed.length
      offer(term, (settings.prefixWeight * term.length) / (term.length + 0.3 * extra))
    }
  }
  return weights
}
