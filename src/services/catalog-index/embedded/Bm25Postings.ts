import type SearchableMap from "minisearch/SearchableMap"
import { INDEX_TEXT_FIELDS, type IndexDocument } from "../../../model/IndexDocument.js"
import type { FieldWeights } from "./EmbeddedIndexOptions.js"
import type { SlotMask } from "./PayloadColumns.js"
import { termCounts } from "../../../text/TextAnalysis.js"

type TextFields = IndexDocument["text"]

/** MiniSearch's BM25+ defaults, so scores read the same as MiniSearch's. */
const K = 1.2
const B = 0.7
const D = 0.5

/**
 * Documents holding a term in one field, each packed as doc × 256 + term count (counts cap
 * at 255, far past where BM25 saturates): one array instead of two halves the memory of the
 * common words' lists. `live` (document frequency) excludes stale entries.
 */
interface FieldPostings {
  readonly entries: Array<number>
  live: number
}

const COUNT_SPAN = 256
const pack = (doc: number, count: number) => doc * COUNT_SPAN + Math.min(count, COUNT_SPAN - 1)

/** Raw lexical scores indexed by slot, and the slots that have one. */
export interface LexicalScores {
  readonly slots: Array<number>
  readonly scores: Float64Array
  /**
   * Matches that hold some word only as a variant of a word the site knows ("philips" for
   * "phillips"): another word, which counts only where the dense model says the product means
   * what the query means (see HybridSearch's variant gate). By slot: the factor its score takes
   * when the gate refuses, as if those words had not matched (0: it does not match at all).
   */
  readonly gated?: ReadonlyMap<number, number> | undefined
  /**
   * Documents holding some of the words, the head word among them (see `headGroup`), but fewer
   * than a match needs, with the score they would have: they match where the dense model says
   * they mean what the query means (HybridSearch). "Baseball bat" holds "baseball" of "baseball
   * cap" but not "cap": no partial match.
   */
  readonly partial?: ReadonlyMap<number, number> | undefined
}

/**
 * One term's postings per field (by field position), or — for a term held by a single
 * document in a single field, which nearly all terms of a large catalog are (part numbers,
 * GTINs, rare words) — that one posting as a number, (doc × 8 + field) × 256 +
 * count, so the long tail costs no arrays at all. Plain arithmetic, not bit operations: doc
 * numbers only grow and may pass 2^23 in a long-lived index.
 */
export type TermPostings = Array<FieldPostings | undefined> | number

const FIELD_SPAN = 8
const single = (doc: number, field: number, count: number) => pack(doc * FIELD_SPAN + field, count)
const unpackSingle = (posting: number) => {
  const count = posting % COUNT_SPAN
  const docField = (posting - count) / COUNT_SPAN
  const field = docField % FIELD_SPAN
  return { doc: (docField - field) / FIELD_SPAN, field, count }
}

/**
 * BM25 postings in flat arrays scored in one tight loop. MiniSearch's own search builds
 * several objects per matching document, far too slow for a word found in most documents of a
 * large catalog, so only its radix tree is kept.
 *
 * Every put gets a fresh document number; replaced and removed numbers map to slot -1 and
 * their postings are skipped until a vacuum drops them, so updates never search lists.
 */
export class Bm25Postings {
  private readonly weights: ReadonlyArray<number>
  private docSlots = new Int32Array(1024)
  private lengths: Array<Uint16Array> = INDEX_TEXT_FIELDS.map(() => new Uint16Array(1024))
  private readonly totalLengths = new Float64Array(INDEX_TEXT_FIELDS.length)
  /** Slot → its current document number. Texts are not kept: `delete` is given the text. */
  private readonly current = new Map<number, number>()
  private nextDoc = 0
  private livePostings = 0
  /** Stale entries left in lists (single postings leave none: they go at once). */
  private stalePostings = 0

  /**
   * Each term's postings. The radix tree beside it (`vocabulary`) only finds the terms near a
   * query word (typos, prefixes): indexing looks every term of a document up, and a hash map
   * does that several times faster than walking the tree.
   */
  private readonly terms = new Map<string, TermPostings>()
  /** One field's term counts at a time (see `termCounts`). */
  private readonly counts = new Map<string, number>()

  constructor(
    fieldWeights: FieldWeights,
    private readonly vocabulary: SearchableMap<true>
  ) {
    this.weights = INDEX_TEXT_FIELDS.map((field) => fieldWeights[field])
  }

  /** The postings of `term`, if a document holds it. */
  of(term: string): TermPostings | undefined {
    return this.terms.get(term)
  }

  has(term: string): boolean {
    return this.terms.has(term)
  }

  /** Indexes `text` for `slot`, replacing `previous`: the text the slot was last put with. */
  put(slot: number, text: TextFields, previous: TextFields | undefined): void {
    if (previous !== undefined) this.delete(slot, previous)
    const doc = this.nextDoc++
    if (doc >= this.docSlots.length) this.grow()
    this.docSlots[doc] = slot
    this.current.set(slot, doc)
    for (let f = 0; f < INDEX_TEXT_FIELDS.length; f++) {
      const counts = termCounts(text[INDEX_TEXT_FIELDS[f]], this.counts)
      let length = 0
      for (const [term, count] of counts) {
        this.add(term, doc, f, count)
        length += count
      }
      this.lengths[f][doc] = Math.min(length, 0xffff)
      this.totalLengths[f] += this.lengths[f][doc]
      this.livePostings += counts.size
    }
  }

  private add(term: string, doc: number, f: number, count: number): void {
    let postings = this.terms.get(term)
    if (postings === undefined) {
      this.terms.set(term, single(doc, f, count))
      this.vocabulary.set(term, true)
      return
    }
    if (typeof postings === "number") {
      // A second posting: the term gets real lists.
      const first = unpackSingle(postings)
      postings = []
      postings[first.field] = { entries: [pack(first.doc, first.count)], live: this.docSlots[first.doc] >= 0 ? 1 : 0 }
      this.terms.set(term, postings)
    }
    const list = (postings[f] ??= { entries: [], live: 0 })
    list.entries.push(pack(doc, count))
    list.live++
  }

  /** Removes `slot`, whose current postings came from `text`. */
  delete(slot: number, text: TextFields): void {
    const doc = this.current.get(slot)
    if (doc === undefined) return
    this.current.delete(slot)
    this.docSlots[doc] = -1
    for (let f = 0; f < INDEX_TEXT_FIELDS.length; f++) {
      const counts = termCounts(text[INDEX_TEXT_FIELDS[f]], this.counts)
      for (const term of counts.keys()) {
        const postings = this.terms.get(term)!
        // A single posting is this document's own: the term goes with it, no vacuum needed.
        if (typeof postings === "number") {
          this.terms.delete(term)
          this.vocabulary.delete(term)
        } else {
          postings[f]!.live--
          this.stalePostings++
        }
      }
      this.totalLengths[f] -= this.lengths[f][doc]
      this.livePostings -= counts.size
    }
    if (this.stalePostings > 50_000 && this.stalePostings > this.livePostings) this.vacuum()
  }

  /**
   * Adds weight × BM25 of `postings` for each allowed document into `into`, skipping
   * documents that already score in `skip`.
   */
  score(
    postings: TermPostings,
    weight: number,
    allowed: SlotMask,
    into: LexicalScores,
    skip: Float64Array | null
  ): void {
    const documents = this.current.size
    const { scores, slots } = into
    if (typeof postings === "number") {
      const { doc, field, count } = unpackSingle(postings)
      const slot = this.docSlots[doc]
      if (slot < 0 || allowed[slot] !== 1 || (skip !== null && skip[slot] > 0)) return
      const score = this.bm25(field, 1, documents, weight, count, this.lengths[field][doc])
      if (scores[slot] === 0) slots.push(slot)
      scores[slot] += score
      return
    }
    for (let f = 0; f < INDEX_TEXT_FIELDS.length; f++) {
      const list = postings[f]
      if (list === undefined || list.live === 0) continue
      const idf = Math.log(1 + (documents - list.live + 0.5) / (list.live + 0.5))
      const boost = weight * this.weights[f] * idf
      const lengthScale = (K * B * documents) / this.totalLengths[f]
      const { entries } = list
      const lengths = this.lengths[f]
      for (let i = 0; i < entries.length; i++) {
        const entry = entries[i]
        const count = entry % COUNT_SPAN
        const doc = (entry - count) / COUNT_SPAN
        const slot = this.docSlots[doc]
        if (slot < 0 || allowed[slot] !== 1 || (skip !== null && skip[slot] > 0)) continue
        const score = boost * (D + (count * (K + 1)) / (count + K * (1 - B) + lengthScale * lengths[doc]))
        if (scores[slot] === 0) slots.push(slot)
        scores[slot] += score
      }
    }
  }

  /** One posting's BM25+ (the list loop above inlines the same formula). */
  private bm25(f: number, live: number, documents: number, weight: number, count: number, length: number): number {
    const idf = Math.log(1 + (documents - live + 0.5) / (live + 0.5))
    const lengthScale = (K * B * documents) / this.totalLengths[f]
    return weight * this.weights[f] * idf * (D + (count * (K + 1)) / (count + K * (1 - B) + lengthScale * length))
  }

  /** Drops stale entries from every list, and terms no live document holds. */
  private vacuum(): void {
    const emptied: Array<string> = []
    for (const [term, postings] of this.terms) {
      if (typeof postings === "number") continue
      for (const list of postings) {
        if (list === undefined) continue
        let kept = 0
        for (const entry of list.entries) {
          if (this.docSlots[Math.floor(entry / COUNT_SPAN)] >= 0) list.entries[kept++] = entry
        }
        list.entries.length = kept
      }
      if (postings.every((list) => list === undefined || list.live === 0)) emptied.push(term)
    }
    for (const term of emptied) {
      this.terms.delete(term)
      this.vocabulary.delete(term)
    }
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
