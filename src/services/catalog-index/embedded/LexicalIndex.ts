import SearchableMap from "minisearch/SearchableMap"
import type { IndexDocument } from "../../../model/IndexDocument.js"
import { Bm25Postings, type LexicalScores, type TermPostings } from "./Bm25Postings.js"
import type { FieldWeights } from "./EmbeddedIndexOptions.js"
import type { SlotMask } from "./PayloadColumns.js"
import { bestEntries } from "../TopK.js"
import { PairPostings } from "./PairPostings.js"
import { variantTerms } from "../VariantTerms.js"
import {
  DEFAULT_WORD_MATCHING,
  type WordMatching,
  phraseFactor,
  queryPairs,
  queryWords,
  headGroup,
  requiredWords,
  typedWords,
  withJoinedWords,
  withSynonymPhrases,
  type QueryWord
} from "../../../text/TextAnalysis.js"

type TextFields = IndexDocument["text"]

export interface LexicalSettings {
  readonly fieldWeights: FieldWeights
  readonly fuzzyWeight: number
  readonly prefixWeight: number
  readonly phraseWeight: number
  /** How many of the best partial matches are offered to the dense model (LexicalScores.partial). */
  readonly partialCandidates: number
}

/**
 * Word retrieval for one site: BM25 postings, and MiniSearch's radix tree over the terms
 * for typo (fuzzy) and as-you-type (prefix) lookups. Each query word is scored on its own
 * so exact and variant matches of a word can be told apart (see `wordScores`), and the
 * share of query words a document matches scales its score.
 */
export class LexicalIndex {
  /** The index's terms, for the ones near a query word (see `variantTerms`); postings hold the rest. */
  private readonly terms = new SearchableMap<true>()
  private readonly postings: Bm25Postings
  private readonly pairs = new PairPostings()
  /**
   * Per-word score buffers (exact, variant) and the per-query match counts, one slot-count
   * long each: reused across words and queries (the index runs on one thread, and nothing
   * keeps them past `score`), and cleared after use at the slots written, not in full.
   */
  private readonly buffers: Array<Float64Array> = [new Float64Array(0), new Float64Array(0)]
  private readonly inUse: Array<LexicalScores | null> = [null, null]
  private matchedBuffer = new Uint8Array(0)
  private groupBuffer = new Int32Array(0)

  constructor(private readonly settings: LexicalSettings) {
    this.postings = new Bm25Postings(settings.fieldWeights, this.terms)
  }

  /** Indexes `text` for `slot`; `previous` is the text the slot held, if any. */
  put(slot: number, text: TextFields, previous: TextFields | undefined): void {
    this.postings.put(slot, text, previous)
    if (previous !== undefined) this.pairs.delete(slot, previous.title)
    this.pairs.put(slot, text.title)
  }

  /** Forgets `slot`, which holds `text`. */
  delete(slot: number, text: TextFields): void {
    this.postings.delete(slot, text)
    this.pairs.delete(slot, text.title)
  }

  /** A zeroed scratch score buffer of at least `size`. */
  private scratch(which: 0 | 1, size: number): Float64Array {
    if (this.buffers[which].length < size)
      this.buffers[which] = new Float64Array(Math.max(size, this.buffers[which].length * 2))
    return this.buffers[which]
  }

  private scratchGroups(size: number): Int32Array {
    if (this.groupBuffer.length < size) this.groupBuffer = new Int32Array(Math.max(size, this.groupBuffer.length * 2))
    return this.groupBuffer
  }

  private scratchMatched(size: number): Uint8Array {
    if (this.matchedBuffer.length < size)
      this.matchedBuffer = new Uint8Array(Math.max(size, this.matchedBuffer.length * 2))
    return this.matchedBuffer
  }

  /** Zeroes what the last `wordScores` wrote, so the buffers are clean for the next word. */
  private release(): void {
    for (const scores of this.inUse) {
      if (scores === null) continue
      for (const slot of scores.slots) scores.scores[slot] = 0
    }
    this.inUse[0] = this.inUse[1] = null
  }

  /**
   * Scores of the allowed documents matching enough of the query's words (see
   * `requiredWords`), each multiplied by the fraction of query words it matches; null when
   * the text has no searchable word. A title holding neighbouring query words side by side
   * scores more (see `phraseFactor`).
   */
  score(text: string, allowed: SlotMask, matching: WordMatching = DEFAULT_WORD_MATCHING): LexicalScores | null {
    const typedForms = queryWords(text)
    if (typedForms.length === 0) return null
    const typed = typedWords(typedForms)
    const known = (stem: string) => this.postings.has(stem)
    const words = withSynonymPhrases(withJoinedWords(typedForms, known), matching.synonyms, known)
    const last = typedForms[typedForms.length - 1]
    const totals = new Float64Array(allowed.length)
    // Per slot: how many typed words it holds, and the last one counted (+1), so the forms of a
    // hyphenated word count once (words come in group order; a joined word after its first group's).
    const matched = this.scratchMatched(allowed.length)
    const lastGroup = this.scratchGroups(allowed.length)
    const slots: Array<number> = []
    // Slots holding the head word: a partial match must (see LexicalScores.partial).
    const head = headGroup(typedForms)
    const holdsHead = new Set<number>()
    // Per slot matched through a gated variant: that part of its raw score and of its word count.
    const gatedBy = new Map<number, { score: number; words: number }>()
    try {
      for (const word of words) {
        const { slots: wordSlots, scores, gatedFrom } = this.wordScores(word, word === last, allowed, matching)
        const through = word.group + word.span
        const heads = head !== null && word.group <= head && head < through
        for (let i = 0; i < wordSlots.length; i++) {
          const slot = wordSlots[i]
          if (heads) holdsHead.add(slot)
          let added = 0
          if (lastGroup[slot] < through) {
            // The groups this word covers, less its first one if an earlier form counted it.
            added = word.span - (lastGroup[slot] === word.group + 1 ? 1 : 0)
            if (matched[slot] === 0) slots.push(slot)
            matched[slot] += added
            lastGroup[slot] = through
          }
          totals[slot] += scores[slot]
          if (i >= gatedFrom) {
            const part = gatedBy.get(slot) ?? { score: 0, words: 0 }
            part.score += scores[slot]
            part.words += added
            gatedBy.set(slot, part)
          }
        }
        this.release()
      }
    } catch (error) {
      // Never leave a dirty buffer behind for the next query.
      for (const buffer of this.buffers) buffer.fill(0)
      matched.fill(0)
      lastGroup.fill(0)
      this.inUse[0] = this.inUse[1] = null
      throw error
    }
    let most = 0
    for (const slot of slots) most = Math.max(most, matched[slot])
    const required = requiredWords(typed, most)
    const kept: Array<number> = []
    const gated = new Map<number, number>()
    const partial = new Map<number, number>()
    for (const slot of slots) {
      if (matched[slot] >= required) {
        const part = gatedBy.get(slot)
        if (part !== undefined) {
          // Without its gated words the slot keeps the rest of its score and coverage, if enough.
          const rest = matched[slot] - part.words
          const share = totals[slot] > 0 ? (totals[slot] - part.score) / totals[slot] : 0
          gated.set(slot, rest < required ? 0 : share * (rest / matched[slot]))
        }
        totals[slot] *= matched[slot] / typed
        kept.push(slot)
      } else {
        if (head === null || holdsHead.has(slot)) partial.set(slot, (totals[slot] * matched[slot]) / typed)
        totals[slot] = 0
      }
      matched[slot] = 0
      lastGroup[slot] = 0
    }
    this.scorePhrases(typedForms, totals)
    return { slots: kept, scores: totals, gated, partial: bestEntries(partial, this.settings.partialCandidates) }
  }

  /** Multiplies the score of each match by its phrase factor (matches are the slots scoring above 0). */
  private scorePhrases(words: ReadonlyArray<QueryWord>, totals: Float64Array): void {
    const pairs = queryPairs(words)
    if (pairs.length === 0 || this.settings.phraseWeight === 0) return
    const held = new Map<number, number>()
    for (const keys of pairs) {
      // A pair of plain words has one key; the forms of hyphenated words make several, whose holders may repeat.
      const holders =
        keys.length === 1 ? this.pairs.slotsOf(keys[0]) : new Set(keys.flatMap((key) => this.pairs.slotsOf(key)))
      for (const slot of holders) if (totals[slot] > 0) held.set(slot, (held.get(slot) ?? 0) + 1)
    }
    for (const [slot, count] of held) totals[slot] *= phraseFactor(count, pairs.length, this.settings.phraseWeight)
  }

  /**
   * Scores of one query word. A rare misspelling or prefix can carry a far higher IDF than
   * a common exact word, so variant-only matches are scaled down until the best of them is
   * worth at most `fuzzyWeight` of the weakest exact match: exact matches always outrank.
   */
  private wordScores(
    word: QueryWord,
    isLast: boolean,
    allowed: SlotMask,
    matching: WordMatching
  ): LexicalScores & { readonly gatedFrom: number } {
    const exact: LexicalScores = { slots: [], scores: this.scratch(0, allowed.length) }
    this.inUse[0] = exact
    const stemPostings = this.postings.of(word.stem)
    if (stemPostings !== undefined) this.postings.score(stemPostings, 1, allowed, exact, null)
    const known = stemPostings !== undefined || (matching.languageWords?.includes(word.typed) ?? false)
    // A joined word is known to the index as it is: it has no variants.
    if (word.span > 1) return { ...exact, gatedFrom: exact.slots.length }
    // Variants of a word the site knows match only where the dense model agrees (LexicalScores.gated).
    const variants = this.variantTerms(word, isLast, matching)
    if (variants.size === 0) return { ...exact, gatedFrom: exact.slots.length }
    const variant: LexicalScores = { slots: [], scores: this.scratch(1, allowed.length) }
    this.inUse[1] = variant
    // Completions first, then typos: a slot first scored by a typo of a known word is gated.
    for (const [postings, weight, typo] of variants.values())
      if (!typo) this.postings.score(postings, weight, allowed, variant, exact.scores)
    const completed = variant.slots.length
    for (const [postings, weight, typo] of variants.values())
      if (typo) this.postings.score(postings, weight, allowed, variant, exact.scores)
    let factor = 1
    if (exact.slots.length > 0 && variant.slots.length > 0) {
      const ceiling = this.settings.fuzzyWeight * extreme(exact, Math.min)
      factor = Math.min(1, ceiling / extreme(variant, Math.max))
    }
    const variantStart = exact.slots.length
    for (const slot of variant.slots) {
      exact.scores[slot] = variant.scores[slot] * factor
      exact.slots.push(slot)
    }
    return { ...exact, gatedFrom: known ? variantStart + completed : exact.slots.length }
  }

  /** Index terms near the word (see VariantTerms.ts), with their postings. */
  private variantTerms(
    word: QueryWord,
    isLast: boolean,
    matching: WordMatching
  ): Map<string, readonly [TermPostings, number, boolean]> {
    // Keyed by term: a single posting is a number, which two terms may share.
    // [postings, weight, whether a typo (not a completion)]
    const weights = new Map<string, readonly [TermPostings, number, boolean]>()
    for (const [term, { weight, typo }] of variantTerms(this.terms, word, isLast, matching, this.settings))
      weights.set(term, [this.postings.of(term)!, weight, typo])
    return weights
  }
}

const extreme = ({ slots, scores }: LexicalScores, pick: (a: number, b: number) => number): number => {
  let result = scores[slots[0]]
  for (const slot of slots) result = pick(result, scores[slot])
  return result
}
