import type SearchableMap from "minisearch/SearchableMap"
import {
  completesPrefix,
  editBudget,
  fewestEdits,
  numberedForm,
  swaps,
  type QueryWord,
  type WordMatching
} from "../../text/TextAnalysis.js"

/** A typo fix that drops letters the shopper typed is a poor guess: it counts far less. */
const SHORTER_TERM_PENALTY = 0.3

export interface VariantSettings {
  readonly fuzzyWeight: number
  readonly prefixWeight: number
}

/** A variant of a query word: its weight, and whether it is a typo (else a completion or numbered form). */
export interface VariantTerm {
  readonly weight: number
  readonly typo: boolean
}

/**
 * A site's terms near a query word, with MiniSearch's weights: typo variants (see editBudget; those
 * of a word the site knows are gated by the caller), from the typed form ("cordles" → "cordless")
 * and from the stem ("bulbes" → "bulbe" → "bulb"), a swap of neighbouring letters counting one
 * edit ("candel" → "candle"); completions of the last word of a request typed live (see
 * completesPrefix). Both indexes find variants here, over their own vocabulary of the site.
 */
export const variantTerms = (
  terms: SearchableMap<unknown>,
  word: QueryWord,
  isLast: boolean,
  matching: WordMatching,
  settings: VariantSettings
): Map<string, VariantTerm> => {
  const found = new Map<string, VariantTerm>()
  const offer = (term: string, weight: number, typo: boolean) => {
    if (term !== word.stem && !((found.get(term)?.weight ?? Number.NEGATIVE_INFINITY) >= weight))
      found.set(term, { weight, typo })
  }
  // A known word's variants are looked up as an unknown word's, and gated by the caller.
  const distance = editBudget(word.typed, false, matching)
  if (distance > 0) {
    const typos: Array<{ readonly term: string; readonly edits: number }> = []
    for (const source of new Set([word.typed, word.stem])) {
      for (const [term, [, edits]] of terms.fuzzyGet(source, distance)) typos.push({ term, edits })
      for (const swapped of swaps(source)) if (terms.has(swapped)) typos.push({ term: swapped, edits: 1 })
    }
    for (const { term, edits } of fewestEdits(typos, matching)) {
      // A stem is shorter than the word typed, so a fuzzy hit from it can land on a much
      // shorter term ("bulbes" → "bulbe" → "bulb").
      const dropped = word.typed.length - term.length > distance ? SHORTER_TERM_PENALTY : 1
      offer(
        term,
        (dropped * settings.fuzzyWeight * term.length) / (term.length + edits),
        !numberedForm(word.typed, term)
      )
    }
  }
  if (completesPrefix(word.typed, isLast, matching)) {
    for (const term of terms.atPrefix(word.typed).keys()) {
      const extra = term.length - word.typed.length
      offer(term, (settings.prefixWeight * term.length) / (term.length + 0.3 * extra), false)
    }
  }
  // The site's synonyms of the word: not typos (never gated), ranked below its exact matches as variants are.
  for (const { term, weight } of matching.synonyms?.terms.get(word.stem) ?? [])
    if (terms.has(term)) offer(term, weight, false)
  return found
}
