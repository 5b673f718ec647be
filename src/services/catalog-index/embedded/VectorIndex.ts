import hnswlib, { type HierarchicalNSW } from "hnswlib-node"
import type { SlotMask } from "./PayloadColumns.js"
import { SlotVectors, type VectorRef } from "./SlotVectors.js"
import { kthLargest } from "../TopK.js"

export interface HnswSettings {
  readonly m: number
  readonly efConstruction: number
  readonly efSearch: number
}

/** A query vector with its norm computed once for many exact cosines. */
export interface QueryVector {
  readonly values: Float32Array
  readonly norm: number
}

export const queryVector = (values: Float32Array): QueryVector => ({ values, norm: Math.sqrt(dot(values, values)) })

/** Four running sums: independent additions pipeline better. */
const dot = (a: Float32Array, b: Float32Array): number => {
  let s0 = 0
  let s1 = 0
  let s2 = 0
  let s3 = 0
  let i = 0
  for (; i + 3 < a.length; i += 4) {
    s0 += a[i] * b[i]
    s1 += a[i + 1] * b[i + 1]
    s2 += a[i + 2] * b[i + 2]
    s3 += a[i + 3] * b[i + 3]
  }
  for (; i < a.length; i++) s0 += a[i] * b[i]
  return s0 + s1 + s2 + s3
}

/**
 * Rescoring copies are quantised to 16-bit integers with a per-vector scale (the graph
 * holds the full-precision vector): half the memory of Float32, with cosine errors too small
 * to change rankings or match counts. Int8 (Int8Array, 127) would save another 50 MB per 100k
 * 512-d vectors, but its coarser cosine errors reorder near-ties and move dense matches across
 * `minSimilarity`.
 */
type Codes = Int16Array
const Codes = Int16Array
const CODE_MAX = 32767

/** Code rows per chunk: rows live in fixed chunks, so growing never copies (no doubling peak). */
const CHUNK_BITS = 10
const CHUNK_ROWS = 1 << CHUNK_BITS
const ROW_MASK = CHUNK_ROWS - 1

/** Dot product of a stored code row with a query. */
const dotCodes = (codes: Codes, offset: number, q: Float32Array): number => {
  let s0 = 0
  let s1 = 0
  let s2 = 0
  let s3 = 0
  let i = 0
  const n = q.length
  for (; i + 3 < n; i += 4) {
    s0 += codes[offset + i] * q[i]
    s1 += codes[offset + i + 1] * q[i + 1]
    s2 += codes[offset + i + 2] * q[i + 2]
    s3 += codes[offset + i + 3] * q[i + 3]
  }
  for (; i < n; i++) s0 += codes[offset + i] * q[i]
  return s0 + s1 + s2 + s3
}

/**
 * One named vector space of one site: an HNSW graph for approximate kNN plus a compact
 * quantised copy of each document's vectors for exact-enough cosines of any candidate.
 * A document may hold several vectors (product images); its similarity is the best of
 * them. HNSW labels are never reused: an update marks the old labels deleted and adds the
 * new vectors under fresh labels (the graph recycles the memory, as code rows are here).
 */
export class VectorIndex {
  private hnsw: HierarchicalNSW | null = null
  /**
   * Each document's HNSW labels, code rows and original norms (the graph stores vectors
   * normalised; `vectorsAt` scales them back).
   */
  private readonly entries = new SlotVectors()
  private labelSlots: Int32Array = new Int32Array(1024)
  private nextLabel = 0
  private deleted = 0
  private readonly chunks: Array<Codes> = []
  /** Norm of each code row (0: a zero vector, similar to nothing). */
  private rowNorms = new Float64Array(CHUNK_ROWS)
  private readonly freeRows: Array<number> = []
  private nextRow = 0

  constructor(
    private readonly settings: HnswSettings,
    private readonly exactScanBelow: number
  ) {}

  /** The dimension fixed by the first vector seen, or null before any. */
  dimension(): number | null {
    return this.hnsw?.getNumDimensions() ?? null
  }

  put(slot: number, vectors: ReadonlyArray<Float32Array>): void {
    this.delete(slot)
    if (vectors.length === 0) return
    const hnsw = this.graph(vectors[0].length)
    const refs: Array<VectorRef> = []
    for (const vector of vectors) {
      if (this.deleted === 0 && hnsw.getCurrentCount() >= hnsw.getMaxElements()) {
        hnsw.resizeIndex(grownCapacity(hnsw.getMaxElements()))
      }
      const label = this.nextLabel++
      if (label >= this.labelSlots.length) this.labelSlots = growLabels(this.labelSlots)
      this.labelSlots[label] = slot
      hnsw.addPoint(Array.from(vector), label, true)
      if (this.deleted > 0) this.deleted--
      refs.push({ label, row: this.store(vector), norm: Math.sqrt(dot(vector, vector)) })
    }
    this.entries.set(slot, refs)
  }

  delete(slot: number): void {
    for (const { label, row } of this.entries.delete(slot)) {
      this.hnsw!.markDelete(label)
      this.deleted++
      this.freeRows.push(row)
    }
  }

  /** The document's vectors as given (to float rounding), rebuilt from the graph. */
  vectorsAt(slot: number): Array<Float32Array> {
    return this.entries.get(slot).map(({ label, norm }) => {
      const point = this.hnsw!.getPoint(label)
      const vector = new Float32Array(point.length)
      for (let d = 0; d < point.length; d++) vector[d] = point[d] * norm
      return vector
    })
  }

  /** Best cosine of the document's vectors to the query, or 0 when it has none. */
  similarity(slot: number, query: QueryVector): number {
    if (!this.entries.has(slot) || query.norm === 0) return 0
    let best = this.rowCosine(this.entries.firstRow(slot), query)
    for (const { row } of this.entries.extra(slot)) best = Math.max(best, this.rowCosine(row, query))
    return best
  }

  /** Cosine of a code row to the query; -1 for a zero vector (similar to nothing). */
  private rowCosine(row: number, query: QueryVector): number {
    const norm = this.rowNorms[row]
    if (norm <= 0) return -1
    return (
      dotCodes(this.chunks[row >>> CHUNK_BITS], (row & ROW_MASK) * query.values.length, query.values) /
      (norm * query.norm)
    )
  }

  /**
   * The k most similar documents among `allowed` (null: every document), with their
   * similarity. `allowedCount` picks exact scanning for selective filters.
   */
  nearest(query: QueryVector, k: number, allowed: SlotMask | null, allowedCount: number): Map<number, number> {
    const found = new Map<number, number>()
    const hnsw = this.hnsw
    if (hnsw === null || this.entries.size === 0 || query.values.length !== hnsw.getNumDimensions()) return found
    if (allowed !== null && allowedCount <= this.exactScanBelow) return this.scan(query, k, allowed)
    hnsw.setEf(Math.max(this.settings.efSearch, k))
    const labelSlots = this.labelSlots
    const { neighbors, distances } = hnsw.searchKnn(
      Array.from(query.values),
      Math.min(k, hnsw.getMaxElements()),
      allowed === null ? undefined : (label) => allowed[labelSlots[label]] === 1
    )
    neighbors.forEach((label, i) => {
      const slot = labelSlots[label]
      const similarity = 1 - distances[i]
      if (!(found.get(slot)! >= similarity)) found.set(slot, similarity)
    })
    return found
  }

  private scan(query: QueryVector, k: number, allowed: SlotMask): Map<number, number> {
    const slots: Array<number> = []
    const similarities: Array<number> = []
    for (let slot = 0; slot < allowed.length; slot++) {
      if (allowed[slot] !== 1 || !this.entries.has(slot)) continue
      slots.push(slot)
      similarities.push(this.similarity(slot, query))
    }
    const threshold = kthLargest(similarities, k)
    const found = new Map<number, number>()
    for (let i = 0; i < slots.length && found.size < k; i++) {
      if (similarities[i] >= threshold) found.set(slots[i], similarities[i])
    }
    return found
  }

  /** Quantises `vector` into a free code row; returns the row. */
  private store(vector: Float32Array): number {
    const dimension = vector.length
    const row = this.freeRows.pop() ?? this.nextRow++
    const chunk = row >>> CHUNK_BITS
    while (chunk >= this.chunks.length) this.chunks.push(new Codes(CHUNK_ROWS * dimension))
    if (row >= this.rowNorms.length) {
      const grown = new Float64Array(this.rowNorms.length * 2)
      grown.set(this.rowNorms)
      this.rowNorms = grown
    }
    const codes = this.chunks[chunk]
    const offset = (row & ROW_MASK) * dimension
    let largest = 0
    for (let d = 0; d < dimension; d++) largest = Math.max(largest, Math.abs(vector[d]))
    const scale = largest > 0 ? CODE_MAX / largest : 0
    let squares = 0
    for (let d = 0; d < dimension; d++) {
      const code = Math.round(vector[d] * scale)
      codes[offset + d] = code
      squares += code * code
    }
    this.rowNorms[row] = Math.sqrt(squares)
    return row
  }

  private graph(dimension: number): HierarchicalNSW {
    if (this.hnsw === null) {
      this.hnsw = new hnswlib.HierarchicalNSW("cosine", dimension)
      this.hnsw.initIndex({
        maxElements: 1024,
        m: this.settings.m,
        efConstruction: this.settings.efConstruction,
        allowReplaceDeleted: true
      })
    }
    return this.hnsw
  }
}

/**
 * Next HNSW capacity: doubling while small, then +25%. hnswlib grows by realloc (large
 * blocks are remapped, not copied, and untouched capacity is not resident), but the
 * per-capacity structures (levels, locks, visited list) are sized to it, so a large graph
 * reserves at most a quarter more than it holds instead of up to twice.
 */
const grownCapacity = (current: number): number => (current < 65_536 ? current * 2 : current + Math.ceil(current / 4))

const growLabels = (labels: Int32Array): Int32Array => {
  const grown = new Int32Array(labels.length * 2)
  grown.set(labels)
  return grown
}
