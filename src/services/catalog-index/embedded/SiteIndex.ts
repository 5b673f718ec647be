import { allColumns } from "../../../model/Columns.js"
import type { Filter } from "../../../model/Filter.js"
import {
  type ColumnsUpdate,
  INDEX_TEXT_FIELDS,
  type IndexDocument,
  type PayloadValue
} from "../../../model/IndexDocument.js"
import type { LexicalScores } from "./Bm25Postings.js"
import { LexicalIndex } from "./LexicalIndex.js"
import type { EmbeddedIndexOptions, VectorName } from "./EmbeddedIndexOptions.js"
import { PayloadColumns, sameValue, type SlotMask } from "./PayloadColumns.js"
import { VectorIndex } from "./VectorIndex.js"
import { byCodeUnits } from "../ColumnValues.js"

const vectorsOf = (doc: IndexDocument, name: VectorName): ReadonlyArray<Float32Array> => {
  if (name === "text") return doc.vectors.text ? [doc.vectors.text] : []
  return doc.vectors.image ?? []
}

type TextFields = IndexDocument["text"]

const SEPARATOR = "\u0000"

/**
 * The text fields as one string (one string header and no object per document), unless a
 * field holds the separator itself, then as given: either way `unpackText` returns them.
 */
const packText = (text: TextFields): string | TextFields => {
  const values = INDEX_TEXT_FIELDS.map((field) => text[field])
  return values.some((value) => typeof value !== "string" || value.includes(SEPARATOR)) ? text : values.join(SEPARATOR)
}

const unpackText = (packed: string | TextFields): TextFields => {
  if (typeof packed !== "string") return packed
  const [title, brand, productType, category, description, highlights, details, extra] = packed.split(SEPARATOR)
  return { title, brand, productType, category, description, highlights, details, extra }
}

/**
 * A document as kept: its vectors are held by the VectorIndexes (once, in the graph, plus
 * a compact copy) and rebuilt by `retrieve`; `image` records whether the document carried
 * an image list at all, so an absent list stays absent. Text is packed (see `packText`).
 */
interface StoredDocument {
  readonly siteId: number
  readonly productId: string
  readonly version: number | undefined
  readonly text: string | TextFields
  readonly payload: IndexDocument["payload"]
  readonly image: boolean
  /** Digests of the text and image vectors held (see `vectorDigest`). */
  readonly digests: Readonly<Record<VectorName, number>>
}

/**
 * A 52-bit digest of a document's vectors of one name (0: none). A write that carries the
 * vectors the document already holds (a price change reusing its text vector, a text
 * vector's arrival for a product whose images were indexed) leaves the graph alone: an HNSW
 * insertion is most of an upsert's cost.
 */
const vectorDigest = (vectors: ReadonlyArray<Float32Array>): number => {
  if (vectors.length === 0) return 0
  let a = 0x811c9dc5
  let b = vectors.length
  for (const vector of vectors) {
    const words = new Uint32Array(vector.buffer, vector.byteOffset, vector.length)
    for (let i = 0; i < words.length; i++) {
      a = Math.imul(a ^ words[i], 0x01000193)
      b = Math.imul(b ^ words[i], 0x5bd1e995) + i
    }
  }
  return (a >>> 0) * 0x100000 + ((b >>> 12) & 0xfffff) + 1
}

/** Whether two payloads hold the same values (arrays element by element). */
const samePayload = (a: IndexDocument["payload"], b: IndexDocument["payload"]): boolean => {
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) if (!sameValue(a[key], b[key])) return false
  return true
}

/** Columns whose values are mostly unique per product: interning them would only add entries. */
const UNIQUE_COLUMNS = new Set(allColumns.filter((c) => c.identifying).map((c) => c.name))

/**
 * Payload values shared between documents: a 100k catalog repeats a few hundred category
 * paths, brands and colours in every payload (as fresh strings and arrays per product, unless
 * shared). Payload values are never mutated, so sharing is safe.
 */
class PayloadInterner {
  private readonly strings = new Map<string, string>()
  private readonly lists = new Map<string, ReadonlyArray<string>>()

  /**
   * Built in one go (`fromEntries`), not key by key: V8 turns an object that gains more than a
   * dozen properties by computed keys into a hash table, several times the memory of an
   * object built whole.
   */
  payload(payload: IndexDocument["payload"]): IndexDocument["payload"] {
    return Object.fromEntries(Object.entries(payload).map(([column, value]) => [column, this.shared(column, value)]))
  }

  /** The shared copy of one column's value. */
  shared(column: string, value: PayloadValue): PayloadValue {
    return UNIQUE_COLUMNS.has(column) ? value : this.value(value)
  }

  private value(value: PayloadValue): PayloadValue {
    if (typeof value === "string") return this.string(value)
    if (!Array.isArray(value)) return value
    const key = value.join("\u0001")
    let shared = this.lists.get(key)
    if (shared === undefined) this.lists.set(key, (shared = Object.freeze(value.map((v: string) => this.string(v)))))
    return shared
  }

  private string(value: string): string {
    let shared = this.strings.get(value)
    if (shared === undefined) this.strings.set(value, (shared = value))
    return shared
  }
}

export const vectorNames: ReadonlyArray<VectorName> = ["text", "image"]

/**
 * Everything indexed for one site. Documents live in integer slots shared by all parts
 * (lexical, vectors, payload columns), so a filter becomes a slot mask that every part
 * can test in O(1). Sites never share an instance: tenant isolation holds by construction.
 */
/** A scope's allowed slots and its words' matches: the part of a search that needs no query vector. */
export interface PreparedWords {
  readonly allowed: SlotMask
  /** Whether the scope excludes any live document (a kNN walk then honours `allowed`). */
  readonly restricted: boolean
  readonly allowedCount: number
  readonly lexical: LexicalScores | null
}

export class SiteIndex {
  readonly columns = new PayloadColumns()
  readonly lexical: LexicalIndex
  readonly vectors: { readonly [K in VectorName]: VectorIndex }
  private readonly slots = new Map<string, number>()
  private readonly docs: Array<StoredDocument | undefined> = []
  /** Each slot's payload, also held apart from `docs`: facet counting reads it per slot. */
  private readonly payloads: Array<IndexDocument["payload"] | undefined> = []
  private live: SlotMask = new Uint8Array(1024)
  private readonly freeSlots: Array<number> = []
  private readonly interner = new PayloadInterner()
  /** Product ids in scroll order, rebuilt lazily after ids come or go. */
  private sortedIds: Array<string> | null = null
  /** Writes so far: what `prepare` matched is stale once another comes. */
  private writes = 0
  /**
   * The words and scope `prepare` matched for the search that follows (CatalogIndex.prepare).
   * One entry: a search taking another's (interleaved requests) matches on its own, as without.
   */
  private prepared: { readonly key: string; readonly writes: number; readonly words: PreparedWords } | null = null

  constructor(options: EmbeddedIndexOptions) {
    this.lexical = new LexicalIndex(options)
    this.vectors = {
      text: new VectorIndex(options.hnsw, options.exactScanBelow),
      image: new VectorIndex(options.hnsw, options.exactScanBelow)
    }
  }

  get count(): number {
    return this.slots.size
  }

  /** Slots ever used (live or free): the length of every slot mask. */
  get slotCount(): number {
    return this.docs.length
  }

  /** Why `docs` cannot be indexed (a vector dimension differing from the site's), or null. */
  rejection(docs: ReadonlyArray<IndexDocument>): string | null {
    for (const name of vectorNames) {
      let expected = this.vectors[name].dimension()
      for (const doc of docs) {
        for (const vector of vectorsOf(doc, name)) {
          expected ??= vector.length
          if (vector.length !== expected) {
            return `${name} vector of ${doc.productId} has ${vector.length} dimensions, the site uses ${expected}`
          }
        }
      }
    }
    return null
  }

  /**
   * Indexes `doc` in its product's slot. A document made from an older record version than
   * the one held is ignored (see IndexDocument.version); the parts a newer one leaves as they
   * were (its words, its columns, its vectors) are not rebuilt, so upgrading a document with
   * its text vector costs the vector alone. Returns whether the document was taken.
   */
  upsert(doc: IndexDocument): boolean {
    let slot = this.slots.get(doc.productId)
    const previous = slot === undefined ? undefined : this.docs[slot]
    if (previous?.version !== undefined && doc.version !== undefined && doc.version < previous.version) return false
    this.writes++
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.docs.length
      this.slots.set(doc.productId, slot)
      this.sortedIds = null
      if (slot >= this.live.length) this.live = growMask(this.live)
      this.live[slot] = 1
    }
    const text = packText(doc.text)
    const sameText = previous !== undefined && typeof text === "string" && text === previous.text
    let payload: IndexDocument["payload"]
    if (previous !== undefined && samePayload(previous.payload, doc.payload)) {
      payload = previous.payload
    } else {
      payload = this.interner.payload(doc.payload)
      if (previous === undefined) this.columns.put(slot, payload)
      else this.columns.replace(slot, previous.payload, payload)
    }
    const digests = { text: vectorDigest(vectorsOf(doc, "text")), image: vectorDigest(vectorsOf(doc, "image")) }
    this.docs[slot] = {
      siteId: doc.siteId,
      productId: doc.productId,
      version: doc.version,
      text,
      payload,
      image: doc.vectors.image !== undefined,
      digests
    }
    this.payloads[slot] = payload
    if (!sameText) this.lexical.put(slot, doc.text, previous === undefined ? undefined : unpackText(previous.text))
    for (const name of vectorNames) {
      if (previous === undefined || previous.digests[name] !== digests[name])
        this.vectors[name].put(slot, vectorsOf(doc, name))
    }
    return true
  }

  /** What `refreshColumns(update)` would do: apply it, nothing (a newer version is held), or refuse it. */
  columnsFit(update: ColumnsUpdate): "apply" | "newer" | "refuse" {
    const slot = this.slots.get(update.productId)
    const version = slot === undefined ? undefined : this.docs[slot]?.version
    if (version === undefined) return "refuse"
    if (version >= update.version) return "newer"
    return version === update.basedOn ? "apply" : "refuse"
  }

  /** Applies `update` (see CatalogIndex.refreshColumns): whether the document is at its version or newer now. */
  refreshColumns(update: ColumnsUpdate): boolean {
    const fit = this.columnsFit(update)
    if (fit !== "apply") return fit === "newer"
    const slot = this.slots.get(update.productId)!
    const previous = this.docs[slot]!
    this.writes++
    let payload = previous.payload
    for (const [column, value] of Object.entries(update.columns)) {
      if (sameValue(payload[column], value)) continue
      // Copied once; setting its keys (a document holds every column) keeps the copy's shape.
      if (payload === previous.payload) payload = { ...previous.payload }
      ;(payload as Record<string, PayloadValue>)[column] = this.interner.shared(column, value)
    }
    if (payload !== previous.payload) this.columns.replace(slot, previous.payload, payload)
    this.docs[slot] = { ...previous, version: update.version, payload }
    this.payloads[slot] = payload
    return true
  }

  remove(productId: string): void {
    const slot = this.slots.get(productId)
    if (slot === undefined) return
    this.writes++
    const previous = this.docs[slot]!
    this.columns.delete(slot, previous.payload)
    this.lexical.delete(slot, unpackText(previous.text))
    for (const name of vectorNames) this.vectors[name].delete(slot)
    this.docs[slot] = undefined
    this.payloads[slot] = undefined
    this.live[slot] = 0
    this.slots.delete(productId)
    this.freeSlots.push(slot)
    this.sortedIds = null
  }

  /** Keeps what `prepare` matched under `key` (the scope and words) for the next search. */
  keepPrepared(key: string, words: PreparedWords): void {
    this.prepared = { key, writes: this.writes, words }
  }

  /** What was prepared for the scope `key()` names, if nothing was written since; taken once. */
  takePrepared(key: () => string): PreparedWords | undefined {
    const prepared = this.prepared
    if (prepared === null || prepared.key !== key()) return undefined
    this.prepared = null
    return prepared.writes === this.writes ? prepared.words : undefined
  }

  slotOf(productId: string): number | undefined {
    return this.slots.get(productId)
  }

  /** Id and payload of the document in `slot` (the rest is rebuilt by `retrieve`). */
  docAt(slot: number): Pick<IndexDocument, "productId" | "payload"> {
    return this.docs[slot]!
  }

  /** Title of the document in `slot` (a live slot): the first packed field, no unpacking. */
  titleAt(slot: number): string {
    const text = this.docs[slot]!.text
    if (typeof text !== "string") return text.title
    const end = text.indexOf(SEPARATOR)
    return end < 0 ? text : text.slice(0, end)
  }

  /** Payload of the document in `slot` (a live slot). */
  payloadAt(slot: number): IndexDocument["payload"] {
    return this.payloads[slot]!
  }

  /** The document in `slot` with its vectors rebuilt. */
  private documentAt(slot: number): IndexDocument {
    const { siteId, productId, version, text, payload, image } = this.docs[slot]!
    const [textVector] = this.vectors.text.vectorsAt(slot)
    return {
      siteId,
      productId,
      ...(version === undefined ? {} : { version }),
      text: unpackText(text),
      payload,
      vectors: { text: textVector, image: image ? this.vectors.image.vectorsAt(slot) : undefined }
    }
  }

  /** Live documents satisfying `filter`. */
  mask(filter: Filter): SlotMask {
    return this.columns.filterMask(filter, this.live.subarray(0, this.slotCount))
  }

  /** Live documents among `productIds`. */
  idsMask(productIds: ReadonlyArray<string>): SlotMask {
    const mask = new Uint8Array(this.slotCount)
    for (const id of productIds) {
      const slot = this.slots.get(id)
      if (slot !== undefined) mask[slot] = 1
    }
    return mask
  }

  retrieve(productIds: ReadonlyArray<string>): Array<IndexDocument> {
    return productIds.flatMap((id) => {
      const slot = this.slots.get(id)
      return slot === undefined ? [] : [this.documentAt(slot)]
    })
  }

  scroll(filter: Filter, limit: number, after: string | undefined) {
    const mask = this.mask(filter)
    const ids = (this.sortedIds ??= [...this.slots.keys()].sort(byCodeUnits))
    const docs: Array<IndexDocument> = []
    if (limit < 1) return { docs, next: null }
    for (let i = after === undefined ? 0 : firstAfter(ids, after); i < ids.length; i++) {
      const slot = this.slots.get(ids[i])!
      if (mask[slot] !== 1) continue
      // One match beyond the page proves there is a next page.
      if (docs.length === limit) return { docs, next: docs[docs.length - 1].productId }
      docs.push(this.documentAt(slot))
    }
    return { docs, next: null }
  }
}

/** Index of the first id greater than `after` in sorted `ids`. */
const firstAfter = (ids: ReadonlyArray<string>, after: string): number => {
  let low = 0
  let high = ids.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (ids[mid] <= after) low = mid + 1
    else high = mid
  }
  return low
}

const growMask = (mask: SlotMask): SlotMask => {
  const grown = new Uint8Array(mask.length * 2)
  grown.set(mask)
  return grown
}
