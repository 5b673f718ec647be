/** Where one vector of a document lives: its HNSW label, its code row and its original norm. */
export interface VectorRef {
  readonly label: number
  readonly row: number
  readonly norm: number
}

const NONE = -1
const NO_REFS: ReadonlyArray<VectorRef> = []

/**
 * Which vectors each slot holds in one vector space. Nearly every document has one vector
 * per space (its title; its one photo), so each slot's first vector lives in typed arrays
 * indexed by slot and only further vectors (more photos) in a Map: an object and three
 * one-element arrays per document would cost many times the heap of a typed-array row.
 */
export class SlotVectors {
  private labels = new Int32Array(1024).fill(NONE)
  private rows = new Int32Array(1024)
  private norms = new Float64Array(1024)
  private readonly more = new Map<number, ReadonlyArray<VectorRef>>()
  private count = 0

  /** Slots holding at least one vector. */
  get size(): number {
    return this.count
  }

  has(slot: number): boolean {
    return slot < this.labels.length && this.labels[slot] !== NONE
  }

  /** Records the slot's vectors (at least one), replacing what it held. */
  set(slot: number, refs: ReadonlyArray<VectorRef>): void {
    if (refs.length === 0) throw new Error("SlotVectors.set needs at least one vector")
    this.delete(slot)
    this.ensure(slot)
    this.labels[slot] = refs[0].label
    this.rows[slot] = refs[0].row
    this.norms[slot] = refs[0].norm
    if (refs.length > 1) this.more.set(slot, refs.slice(1))
    this.count++
  }

  /** The slot's vectors, first one first; empty when it holds none. */
  get(slot: number): Array<VectorRef> {
    if (!this.has(slot)) return []
    const first = { label: this.labels[slot], row: this.rows[slot], norm: this.norms[slot] }
    return [first, ...this.extra(slot)]
  }

  /** The code row of the slot's first vector (scoring's inner loop; the slot must hold vectors). */
  firstRow(slot: number): number {
    return this.rows[slot]
  }

  /** The slot's vectors after the first (usually none). */
  extra(slot: number): ReadonlyArray<VectorRef> {
    return (this.more.size > 0 ? this.more.get(slot) : undefined) ?? NO_REFS
  }

  /** Forgets the slot's vectors and returns them. */
  delete(slot: number): Array<VectorRef> {
    const refs = this.get(slot)
    if (refs.length === 0) return refs
    this.labels[slot] = NONE
    this.more.delete(slot)
    this.count--
    return refs
  }

  private ensure(slot: number): void {
    if (slot < this.labels.length) return
    let length = this.labels.length
    while (length <= slot) length *= 2
    const labels = new Int32Array(length).fill(NONE)
    labels.set(this.labels)
    const rows = new Int32Array(length)
    rows.set(this.rows)
    const norms = new Float64Array(length)
    norms.set(this.norms)
    this.labels = labels
    this.rows = rows
    this.norms = norms
  }
}
