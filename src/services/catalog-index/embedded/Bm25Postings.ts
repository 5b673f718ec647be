import type SearchableMap from "minisearch/SearchableMap"
import type { IndexDocument } from "../../CatalogIndex.js"
import type { FieldWeights } from "./Options.js"
import type { SlotMask } from "./PayloadColumns.js"
import { indexTerm, tokenize } from "./TextAnalysis.js"

type TextFields = IndexDocument["text"]

const FIELDS: ReadonlyArray<keyof TextFields> = [
  "title", "brand", "productType", "category", "description", "highlights", "details", "extra"
]

/** MiniSearch's BM25+ defaults, so scores read the same as MiniSearch's. */
const K = 1.2
const B = 0.7
const D = 0.5

/** Documents holding a term in one field. `live` (document frequency) excludes stale entries. */
interface FieldPostings {
  readonly docs: Array<number>
  readonly counts: Array<number>
  live: number
}

/** Raw lexical scores indexed by slot, and the slots that have one. */
export interface LexicalScores {
  readonly slots: Array<number>
  readonly scores: Float64Array
}

/** One term's postings per field (by field position). */
export type TermPostings = Array<FieldPostings | undefined>

const analyze = (text: string): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const word of tokenize(text)) {
    const term = indexTerm(word)
    if (term !== null) counts.set(term, (counts.get(term) ?? 0) + 1)
  }
  return counts
}

/**
 * BM25 postings in flat arrays scored in one tight loop. MiniSearch's own search builds
 * several objects per matching document (about 7 µs each: 0.7 s for a word found in all
 * 100k documents), far beyond a 15 ms budget, so only its radix tree is kept.
 *
 * Every put gets a fresh document number; replaced and removed numbers map to slot -1 and
 * their postings are skipped until a vacuum drops them, so updates never search lists.
 */
export class Bm25Postings {
  private readonly weights: ReadonlyArray<number>
  private docSlots = new Int32Array(1024)
  private lengths: Array<Uint16Array> = FIELDS.map(() => new Uint16Array(1024))
  private readonly totalLengths = new Float64Array(FIELDS.length)
  /** Slot → its current document number. Texts are not kept: `delete` is given the text. */
  private readonly current = new Map<number, number>()
  private nextDoc = 0
  private livePostings = 0
  private stalePostings = 0

  constructor(fieldWeights: FieldWeights, private readonly terms: SearchableMap<TermPostings>) {
    this.weights = FIELDS.map((field) => fieldWeights[field])
  }

  /** Indexes `text` for `slot`, replacing `previous`: the text the slot was last put with. */
  put(slot: number, text: TextFields, previous: TextFields | undefined): void {
    if (previous !== undefined) this.delete(slot, previous)
    const doc = this.nextDoc++
    if (doc >= this.docSlots.length) this.grow()
    this.docSlots[doc] = slot
    this.current.set(slot, doc)
    FIELDS.forEach((field, f) => {
      const counts = analyze(text[field])
      let length = 0
      for (const [term, count] of counts) {
        let postings = this.terms.get(term)
        if (postings === undefined) this.terms.set(term, (postings = []))
        const list = (postings[f] ??= { docs: [], counts: [], live: 0 })
        list.docs.push(doc)
        list.counts.push(count)
        list.live++
        length += count
      }
      this.lengths[f][doc] = Math.min(length, 0xffff)
      this.totalLengths[f] += this.lengths[f][doc]
      this.livePostings += counts.size
    })
  }

  /** Removes `slot`, whose current postings came from `text`. */
  delete(slot: number, text: TextFields): void {
    const doc = this.current.get(slot)
    if (doc === undefined) return
    this.current.delete(slot)
    this.docSlots[doc] = -1
    FIELDS.forEach((field, f) => {
      const counts = analyze(text[field])
      for (const term of counts.keys()) this.terms.get(term)![f]!.live--
      this.totalLengths[f] -= this.lengths[f][doc]
      this.livePostings -= counts.size
      this.stalePostings += counts.size
    })
    if (this.stalePostings > 50_000 && this.stalePostings > this.livePostings) this.vacuum()
  }

  /**
   * Adds weight × BM25 of `postings` for each allowed document into `into`, skipping
   * documents that already score in `skip`.
   */
  score(postings: TermPostings, weight: number, allowed: SlotMask, into: LexicalScores, skip: Float64Array | null): void {
    const documents = this.current.size
    for (let f = 0; f < FIELDS.length; f++) {
      const list = postings[f]
      if (list === undefined || list.live === 0) continue
      const idf = Math.log(1 + (documents - list.live + 0.5) / (list.live + 0.5))
      const boost = weight * this.weights[f] * idf
      const lengthScale = (K * B * documents) / this.totalLengths[f]
      const { docs, counts } = list
      const lengths = this.lengths[f]
      const { scores, slots } = into
      for (let i = 0; i < docs.length; i++) {
        const slot = this.docSlots[docs[i]]
        if (slot < 0 || allowed[slot] !== 1 || (skip !== null && skip[slot] > 0)) continue
        const count = counts[i]
        const score = boost * (D + (count * (K + 1)) / (count + K * (1 - B) + lengthScale * lengths[docs[i]]))
        if (scores[slot] === 0) slots.push(slot)
        scores[slot] += score
      }
    }
  }

  /** Drops stale entries from every list, and terms no live document holds. */
  private vacuum(): void {
    const emptied: Array<string> = []
    for (const [term, postings] of this.terms) {
      for (const list of postings) {
        if (list === undefined) continue
        let kept = 0
        list.docs.forEach((doc, i) => {
          if (this.docSlots[doc] < 0) return
          list.docs[kept] = doc
          list.counts[kept++] = list.counts[i]
        })
        list.docs.length = list.counts.length = kept
      }
      if (postings.every((list) => list === undefined || list.live === 0)) emptied.push(term)
    }
    for (const term of emptied) this.terms.delete(term)
    this.stalePostings = 0
  }

  private grow(): void {
    const docSlots = new Int32Array(this.docSlots.length * 2)
    docSlots.set(this.docSlots)
    this.docSlots = docSlots
    this.lengths = this.lengths.map((lengths) => {
      const grown = new Uint16Array(lengths.length * 2)
      grown.set(lengths)
      return grown
    })
  }
}
