import SearchableMap from "minisearch/SearchableMap"
import { INDEX_TEXT_FIELDS, type IndexDocument, type PayloadValue } from "../../../model/IndexDocument.js"
import type { QueryWord, WordMatching } from "../../../text/TextAnalysis.js"
import type { FieldWeights } from "../embedded/EmbeddedIndexOptions.js"
import { VARIANT_GROUP_COLUMN } from "../../../model/Columns.js"
import { type VariantSettings, type VariantTerm, variantTerms } from "../VariantTerms.js"
import { ColumnTally } from "./ColumnTally.js"
import { holdsId, TermPostings } from "./TermPostings.js"
import { type DocumentTerms, documentTerms, fieldTermKey, textHash } from "./SparseText.js"

type TextFields = IndexDocument["text"]

/**
 * What one point holds: its product and columns (the payload a listing reads), its lexical vector
 * as Qdrant stores it (field-term and title pair keys, sorted, with their BM25 term-frequency
 * parts) and its distinct terms (by id).
 */
export interface Holding {
  readonly pointId: string
  readonly productId: string
  readonly columns: Readonly<Record<string, PayloadValue>>
  readonly version: number | undefined
  /** Its text's hash (SparseText.textHash): a write of the same text keeps what it came to. */
  readonly textHash: number
  readonly keys: Uint32Array
  readonly values: Float32Array
  /** Its distinct terms over every field, by id, ascending. */
  readonly terms: Uint32Array
  /** Per term (as `terms` lists them): the fields holding it, bit i for INDEX_TEXT_FIELDS[i]. */
  readonly fields: Uint8Array
  /** Its place in the postings (TermPostings.ts) and the column tally (ColumnTally.ts). */
  readonly slot: number
}

/** "Holds at least `required` of the groups, each by one of its terms (in any field)": a result set's lexical matches. */
export interface Coverage {
  readonly groups: ReadonlyArray<ReadonlyArray<string>>
  readonly required: number
}

const FIELDS = INDEX_TEXT_FIELDS.length
// A term's fields are one byte (Holding.fields).
if (FIELDS > 8) throw new Error(`SiteTerms keeps a term's fields in a byte: ${FIELDS} text fields do not fit`)

const groupOf = (holding: Pick<Holding, "columns">): string | undefined => {
  const group = holding.columns[VARIANT_GROUP_COLUMN]
  return typeof group === "string" && group.length > 0 ? group : undefined
}

const idf = (documents: number, frequency: number): number =>
  Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))

/**
 * One site's words and columns, in this process's memory: its product count, each field key's
 * document frequency, its vocabulary (MiniSearch's radix tree, for typo and prefix variants),
 * and each point's lexical vector and columns. A query's word weights (per-site IDF) and
 * variants are then known before Qdrant is asked anything, every candidate's lexical score is
 * computed here from its vector, and a result set's members, columns, groups and facets are
 * read here: Qdrant's lists only find and rank the candidates.
 * Qdrant's own IDF counts the whole collection, which would let one site move another's
 * ranking (see TermMemory for how the copy is kept).
 */
export class SiteTerms {
  /** The terms some point holds in some field (for variants; the tree changes only when a term comes or goes). */
  private readonly vocabulary = new SearchableMap<true>()
  /** By term id × field (INDEX_TEXT_FIELDS): how many points hold the term in the field. */
  private fieldHolders = new Int32Array(1024 * FIELDS)
  private readonly termIds = new Map<string, number>()
  private readonly termsById: Array<string | undefined> = []
  /** By term id: how many points hold the term in some field. */
  private readonly holders: Array<number> = []
  private readonly freeIds: Array<number> = []
  private readonly holdings = new Map<string, Holding>()
  /** Point ids by item group (VARIANT_GROUP_COLUMN): a tile's variants are looked up by it. */
  private readonly groups = new Map<string, Set<string>>()
  /** Points without a text vector: a search asks for their lexical matches apart (Gather.ts) only if any. */
  private readonly textless = new Set<string>()
  /** Each term's holders by slot (TermPostings.ts): a result set counted to its last member. */
  private readonly postings = new TermPostings((slot) => this.bySlot[slot]?.terms)
  private readonly bySlot: Array<Holding | undefined> = []
  /** Facet and group counts of result sets, over the columns as numbers by slot. */
  readonly tally = new ColumnTally(() => this.holdings.values())
  private readonly freeSlots: Array<number> = []

  get unembedded(): number {
    return this.textless.size
  }

  get documents(): number {
    return this.holdings.size
  }

  /**
   * A point's document, unless the point holds a newer version already (as Qdrant's upsert
   * guard decides). A document whose text the point holds already (a new version of its columns
   * only, the worker's write of what was indexed by its words, a writer's own change coming
   * back through the feed) changes its columns only. `analysed`: the text's terms when the
   * caller has them (the writer, from the point it sent). Returns what the point holds now.
   */
  put(
    pointId: string,
    doc: {
      readonly productId: string
      readonly text: TextFields
      readonly payload: Readonly<Record<string, PayloadValue>>
      readonly version?: number | undefined
      /** Whether the point has a text vector; unknown counts as not. */
      readonly embedded?: boolean | undefined
    },
    analysed?: DocumentTerms
  ): Holding | undefined {
    const { text, version } = doc
    const before = this.holdings.get(pointId)
    if (before?.version !== undefined && version !== undefined && before.version > version) return before
    if (doc.embedded === true) this.textless.delete(pointId)
    else this.textless.add(pointId)
    const hash = textHash(text)
    if (before !== undefined && before.textHash === hash) {
      this.setGroup(pointId, groupOf(before), doc.payload)
      const holding = { ...before, productId: doc.productId, columns: doc.payload, version }
      this.holdings.set(pointId, holding)
      this.bySlot[before.slot] = holding
      this.tally.set(holding)
      return holding
    }
    if (before !== undefined) this.forget(pointId, before)
    const { lexical, terms } = analysed ?? documentTerms(text)
    const slot = before?.slot ?? this.freeSlots.pop() ?? this.bySlot.length
    const holding: Holding = {
      pointId,
      slot,
      productId: doc.productId,
      columns: doc.payload,
      version,
      textHash: hash,
      keys: new Uint32Array(lexical.indices),
      values: new Float32Array(lexical.values),
      ...this.termsOf(terms)
    }
    this.setGroup(pointId, undefined, holding.columns)
    this.countFields(holding, 1)
    this.bySlot[slot] = holding
    this.tally.set(holding)
    for (const id of holding.terms) {
      const held = this.holders[id] ?? 0
      this.holders[id] = held + 1
      if (held === 0) this.vocabulary.set(this.termsById[id]!, true)
      // The slot is listed already where the point held the term before this text (unless the
      // list went with the term's last holder as the old text was forgotten: the id may be
      // another term's now).
      if (before === undefined || !holdsId(before.terms, id) || !this.postings.has(id))
        this.postings.add(id, slot, held + 1)
    }
    this.holdings.set(pointId, holding)
    return holding
  }

  /**
   * The points holding at least `required` of the groups (each by any of its terms), and the
   * points `also` names, accepted by `accept` (the scope): a result set, every member once.
   */
  covering(coverage: Coverage, accept: (holding: Holding) => boolean, also: Iterable<string> = []): Array<Holding> {
    const { groups } = coverage
    const required = Math.max(1, coverage.required)
    const found: Array<Holding> = []
    const counts = new Uint16Array(this.bySlot.length)
    // The last group that counted a slot (+1): a point holding several terms of one group counts it once.
    const counted = new Uint16Array(this.bySlot.length)
    groups.forEach((terms, group) => {
      const mark = group + 1
      for (const term of new Set(terms)) {
        const id = this.termIds.get(term)
        const slots = id === undefined ? [] : this.postings.holders(id)
        for (let i = 0; i < slots.length; i++) {
          const slot = slots[i]
          if (counted[slot] === mark) continue
          counted[slot] = mark
          if (++counts[slot] === required) {
            const holding = this.bySlot[slot]!
            if (accept(holding)) found.push(holding)
          }
        }
      }
    })
    for (const pointId of also) {
      const holding = this.holdings.get(pointId)
      if (holding === undefined || counts[holding.slot] >= required) continue
      counts[holding.slot] = required
      if (accept(holding)) found.push(holding)
    }
    return found
  }

  /** Every point the scope accepts. */
  accepted(accept: (holding: Holding) => boolean): Array<Holding> {
    const found: Array<Holding> = []
    for (const holding of this.holdings.values()) if (accept(holding)) found.push(holding)
    return found
  }

  /** The point moved from item group `was` to the one `columns` name. */
  private setGroup(pointId: string, was: string | undefined, columns: Readonly<Record<string, PayloadValue>>): void {
    const group = groupOf({ columns })
    if (group === was) return
    if (was !== undefined) this.leaveGroup(pointId, was)
    if (group === undefined) return
    const members = this.groups.get(group)
    if (members === undefined) this.groups.set(group, new Set([pointId]))
    else members.add(pointId)
  }

  private leaveGroup(pointId: string, group: string): void {
    const members = this.groups.get(group)
    members?.delete(pointId)
    if (members?.size === 0) this.groups.delete(group)
  }

  remove(pointId: string): void {
    const holding = this.holdings.get(pointId)
    if (holding === undefined) return
    this.forget(pointId, holding)
    this.holdings.delete(pointId)
    this.textless.delete(pointId)
    this.bySlot[holding.slot] = undefined
    this.tally.clear(holding.slot)
    this.freeSlots.push(holding.slot)
  }

  holding(pointId: string): Holding | undefined {
    return this.holdings.get(pointId)
  }

  /** The points of an item group. */
  groupMembers(group: string): ReadonlySet<string> {
    return this.groups.get(group) ?? new Set()
  }

  /** Per field key of `term` some point holds: fieldWeight × IDF (the embedded index's per-site, per-field IDF). */
  weights(term: string, fieldWeights: FieldWeights): Map<number, number> {
    const weights = new Map<number, number>()
    const id = this.termIds.get(term)
    if (id === undefined) return weights
    INDEX_TEXT_FIELDS.forEach((field, f) => {
      const frequency = this.fieldHolders[id * FIELDS + f]
      if (frequency > 0) weights.set(fieldTermKey(field, term), fieldWeights[field] * idf(this.documents, frequency))
    })
    return weights
  }

  /** Whether some point holds the term in some field. */
  knows(term: string): boolean {
    return this.vocabulary.has(term)
  }

  /** The word's typo and prefix variants among the site's terms (VariantTerms.ts, as the embedded index finds them). */
  variants(
    word: QueryWord,
    isLast: boolean,
    matching: WordMatching,
    settings: VariantSettings
  ): Map<string, VariantTerm> {
    return variantTerms(this.vocabulary, word, isLast, matching, settings)
  }

  /** The terms by id, ascending, each with its fields. */
  private termsOf(terms: ReadonlyMap<string, number>): Pick<Holding, "terms" | "fields"> {
    // id × 256 + fields: sorted as one number, then split.
    const packed = new Float64Array(terms.size)
    let i = 0
    for (const [term, fields] of terms) packed[i++] = this.idOf(term) * 256 + fields
    packed.sort()
    // Plain loops: TypedArray.from with a mapping function walks an iterator, several times slower.
    const ids = new Uint32Array(packed.length)
    const fields = new Uint8Array(packed.length)
    for (let k = 0; k < packed.length; k++) {
      ids[k] = Math.floor(packed[k] / 256)
      fields[k] = packed[k] % 256
    }
    return { terms: ids, fields }
  }

  /** Adds (+1) or takes away (−1) the holding's terms from each field's holder counts. */
  private countFields(holding: Holding, by: 1 | -1): void {
    const { terms, fields } = holding
    for (let i = 0; i < terms.length; i++) {
      const base = terms[i] * FIELDS
      if (base + FIELDS > this.fieldHolders.length) {
        const grown = new Int32Array(Math.max(2 * this.fieldHolders.length, base + FIELDS))
        grown.set(this.fieldHolders)
        this.fieldHolders = grown
      }
      for (let f = 0; f < FIELDS; f++) if ((fields[i] & (1 << f)) !== 0) this.fieldHolders[base + f] += by
    }
  }

  private idOf(term: string): number {
    const known = this.termIds.get(term)
    if (known !== undefined) return known
    const id = this.freeIds.pop() ?? this.termsById.length
    this.termIds.set(term, id)
    this.termsById[id] = term
    return id
  }

  private forget(pointId: string, holding: Holding): void {
    const group = groupOf(holding)
    if (group !== undefined) this.leaveGroup(pointId, group)
    this.countFields(holding, -1)
    for (const id of holding.terms) {
      const left = this.holders[id] - 1
      this.holders[id] = left
      this.postings.letGo(id, left)
      if (left > 0) continue
      const term = this.termsById[id]!
      this.vocabulary.delete(term)
      this.termIds.delete(term)
      this.termsById[id] = undefined
      this.freeIds.push(id)
    }
  }
}

/**
 * Scores of sparse queries against holdings: each query's dot product with a point's lexical
 * vector, as Qdrant would score the point on it. All queries are looked up in one pass over the
 * point's keys.
 */
export class QueryScorer {
  private readonly byKey = new Map<number, Array<readonly [number, number]>>()

  constructor(readonly queries: ReadonlyArray<ReadonlyMap<number, number>>) {
    queries.forEach((query, i) => {
      for (const [key, weight] of query) {
        const entries = this.byKey.get(key | 0)
        if (entries === undefined) this.byKey.set(key | 0, [[i, weight]])
        else entries.push([i, weight])
      }
    })
  }

  /** Each query's score of the holding (0 where it holds none of its keys), into `scores`. */
  score(holding: Holding, scores: Float64Array = new Float64Array(this.queries.length)): Float64Array {
    scores.fill(0)
    const { keys, values } = holding
    for (let k = 0; k < keys.length; k++) {
      const entries = this.byKey.get(keys[k] | 0)
      if (entries === undefined) continue
      for (const [query, weight] of entries) scores[query] += weight * values[k]
    }
    return scores
  }
}

/** Every site's SiteTerms: what one process knows of the index's words (see TermReplica.ts). */
export class TermMemory {
  private readonly sites = new Map<number, SiteTerms>()

  siteIds(): Iterable<number> {
    return this.sites.keys()
  }

  /** Points held, over every site. */
  get points(): number {
    let points = 0
    for (const site of this.sites.values()) points += site.documents
    return points
  }

  site(siteId: number): SiteTerms {
    let site = this.sites.get(siteId)
    if (site === undefined) this.sites.set(siteId, (site = new SiteTerms()))
    return site
  }
}
