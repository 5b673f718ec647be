import MiniSearch, { type SearchOptions } from "minisearch"
import type { IndexDocument } from "../../CatalogIndex.js"
import type { FieldWeights } from "./Options.js"
import { indexTerm, queryWords, tokenize, type QueryWord } from "./TextAnalysis.js"

type TextFields = IndexDocument["text"]
type LexicalDoc = TextFields & { readonly id: number }

const FIELDS: ReadonlyArray<keyof TextFields> = [
  "title", "brand", "productType", "category", "description", "highlights", "details", "extra"
]

const asIs = (term: string) => term
const whole = (text: string) => [text]

/** Typo budget by typed length: short words are too ambiguous to correct. */
const editDistance = (word: string): number => (word.length >= 9 ? 2 : word.length >= 5 ? 1 : 0)

/** min/max of a large map without spreading it into call arguments. */
const extreme = (scores: Map<number, number>, pick: (a: number, b: number) => number): number => {
  let result = NaN
  for (const score of scores.values()) result = Number.isNaN(result) ? score : pick(result, score)
  return result
}

export interface LexicalSettings {
  readonly fieldWeights: FieldWeights
  readonly fuzzyWeight: number
  readonly prefixWeight: number
}

/**
 * BM25 over the text fields of one site, keyed by document slot. Each query word is
 * looked up separately so that exact, fuzzy and prefix matches of a word can be told apart
 * (see `wordScores`) and so that the share of query words a document matches can scale
 * its score.
 */
export class LexicalIndex {
  private readonly search: MiniSearch<LexicalDoc>

  constructor(private readonly settings: LexicalSettings) {
    this.search = new MiniSearch<LexicalDoc>({
      fields: [...FIELDS],
      tokenize,
      processTerm: indexTerm,
      searchOptions: { boost: { ...settings.fieldWeights } }
    })
  }

  put(slot: number, text: TextFields): void {
    if (this.search.has(slot)) this.search.discard(slot)
    this.search.add({ ...text, id: slot })
  }

  delete(slot: number): void {
    if (this.search.has(slot)) this.search.discard(slot)
  }

  /**
   * Raw lexical scores of the allowed documents matching any query word (OR), each
   * multiplied by the fraction of query words it matches; null when the text has no
   * searchable word (only stop words or punctuation).
   */
  score(text: string, allowed: (slot: number) => boolean): Map<number, number> | null {
    const words = queryWords(text)
    if (words.length === 0) return null
    const totals = new Map<number, number>()
    const matched = new Map<number, number>()
    words.forEach((word, i) => {
      for (const [slot, score] of this.wordScores(word, i === words.length - 1, allowed)) {
        totals.set(slot, (totals.get(slot) ?? 0) + score)
        matched.set(slot, (matched.get(slot) ?? 0) + 1)
      }
    })
    for (const [slot, total] of totals) totals.set(slot, (total * matched.get(slot)!) / words.length)
    return totals
  }

  /**
   * Scores of one query word. A rare misspelling or prefix can carry a far higher IDF than
   * a common exact word, so variant-only matches are scaled down until the best of them is
   * worth at most `fuzzyWeight` of the weakest exact match: exact matches always outrank.
   */
  private wordScores(word: QueryWord, isLast: boolean, allowed: (slot: number) => boolean): Map<number, number> {
    const exact = this.collect(word.stem, { fuzzy: false, prefix: false }, allowed)
    const fuzzy = editDistance(word.typed)
    const prefix = isLast && word.typed.length >= 3
    if (fuzzy === 0 && !prefix) return exact
    // The typed form finds typos ("cordles" → "cordless") that its stem ("cordl") would not.
    const variants = this.collect(
      word.typed,
      {
        fuzzy: fuzzy || false,
        prefix,
        weights: { fuzzy: this.settings.fuzzyWeight, prefix: this.settings.prefixWeight }
      },
      (slot) => !exact.has(slot) && allowed(slot)
    )
    if (variants.size === 0) return exact
    let factor = 1
    if (exact.size > 0) {
      const ceiling = this.settings.fuzzyWeight * extreme(exact, Math.min)
      factor = Math.min(1, ceiling / extreme(variants, Math.max))
    }
    for (const [slot, score] of variants) exact.set(slot, score * factor)
    return exact
  }

  /** Runs one single-term search, streaming hits through `filter` so nothing is sorted. */
  private collect(term: string, options: SearchOptions, allowed: (slot: number) => boolean): Map<number, number> {
    const hits = new Map<number, number>()
    this.search.search(term, {
      ...options,
      tokenize: whole,
      processTerm: asIs,
      filter: (hit) => {
        if (allowed(hit.id)) hits.set(hit.id, hit.score)
        return false
      }
    })
    return hits
  }
}
