import type { Filter, IndexDocument } from "../../CatalogIndex.js"
import { LexicalIndex } from "./LexicalIndex.js"
import type { EmbeddedIndexOptions, VectorName } from "./Options.js"
import { PayloadColumns, type SlotMask } from "./PayloadColumns.js"
import { VectorIndex } from "./VectorIndex.js"

const vectorsOf = (doc: IndexDocument, name: VectorName): ReadonlyArray<Float32Array> => {
  if (name === "text") return doc.vectors.text ? [doc.vectors.text] : []
  return doc.vectors.image ?? []
}

export const vectorNames: ReadonlyArray<VectorName> = ["text", "image"]

/**
 * Everything indexed for one site. Documents live in integer slots shared by all parts
 * (lexical, vectors, payload columns), so a filter becomes a slot mask that every part
 * can test in O(1). Sites never share an instance: tenant isolation holds by construction.
 */
export class SiteIndex {
  readonly columns = new PayloadColumns()
  readonly lexical: LexicalIndex
  readonly vectors: { readonly [K in VectorName]: VectorIndex }
  private readonly slots = new Map<string, number>()
  private readonly docs: Array<IndexDocument | undefined> = []
  private live: SlotMask = new Uint8Array(1024)
  private readonly freeSlots: Array<number> = []
  /** Product ids in scroll order, rebuilt lazily after ids come or go. */
  private sortedIds: Array<string> | null = null

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

  upsert(doc: IndexDocument): void {
    let slot = this.slots.get(doc.productId)
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.docs.length
      this.slots.set(doc.productId, slot)
      this.sortedIds = null
      if (slot >= this.live.length) this.live = growMask(this.live)
      this.live[slot] = 1
    } else {
      this.columns.delete(slot, this.docs[slot]!.payload)
    }
    this.docs[slot] = doc
    this.columns.put(slot, doc.payload)
    this.lexical.put(slot, doc.text)
    for (const name of vectorNames) this.vectors[name].put(slot, vectorsOf(doc, name))
  }

  remove(productId: string): void {
    const slot = this.slots.get(productId)
    if (slot === undefined) return
    this.columns.delete(slot, this.docs[slot]!.payload)
    this.lexical.delete(slot)
    for (const name of vectorNames) this.vectors[name].delete(slot)
    this.docs[slot] = undefined
    this.live[slot] = 0
    this.slots.delete(productId)
    this.freeSlots.push(slot)
    this.sortedIds = null
  }

  slotOf(productId: string): number | undefined {
    return this.slots.get(productId)
  }

  docAt(slot: number): IndexDocument {
    return this.docs[slot]!
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
      return slot === undefined ? [] : [this.docs[slot]!]
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
      docs.push(this.docs[slot]!)
    }
    return { docs, next: null }
  }
}

/** Plain code-unit order: the same in every runtime and locale, so cursors stay valid. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

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
