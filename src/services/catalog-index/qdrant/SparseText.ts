import type { Schemas } from "@qdrant/js-client-rest"
import { INDEX_TEXT_FIELDS, type IndexDocument } from "../../../model/IndexDocument.js"
import { indexTerms, termCounts, termPairs } from "../../../text/TextAnalysis.js"
import { fnv1a, fnv1aFrom } from "../../../platform/Fnv1a.js"

type TextFields = IndexDocument["text"]
export type SparseVector = Schemas["SparseVector"]

export type TextField = keyof TextFields

/** The embedded index's BM25+ constants (MiniSearch's), so field scores read alike. */
const K = 1.2
const B = 0.7
const D = 0.5

/**
 * BM25 normalises a field's length by the site's average, which a point cannot know when it
 * is written (and which Qdrant does not track). These typical lengths in terms stand in for
 * the averages; the IDF (per site and field) and the field weight come with the query.
 */
const REFERENCE_LENGTHS: { readonly [K in keyof TextFields]: number } = {
  title: 8,
  brand: 2,
  productType: 4,
  category: 6,
  description: 60,
  highlights: 20,
  details: 20,
  extra: 8
}

/** FNV-1a: a stable 32-bit sparse index per term; the u32 space makes collisions negligible. */
export const hashTerm = fnv1a

const toSparse = (values: Map<number, number>): SparseVector => {
  const indices = [...values.keys()].sort((a, b) => a - b)
  return { indices, values: indices.map((index) => values.get(index)!) }
}

/** Per field (INDEX_TEXT_FIELDS order): the hash state after `${field}:`, which a term's key goes on from. */
const FIELD_STATES = INDEX_TEXT_FIELDS.map((field) => fnv1aFrom(hashTerm(""), `${field}:`))
const FIELD_NUMBERS = new Map(INDEX_TEXT_FIELDS.map((field, f) => [field, f]))

/**
 * The key of a term in one field: the embedded index keeps postings (and so document
 * frequencies) per field, and so does this layout, as one sparse dimension per field and term.
 * (The hash of `${field}:${term}`, carried on from the field's prefix.)
 */
export const fieldTermKey = (field: TextField, term: string): number =>
  fnv1aFrom(FIELD_STATES[FIELD_NUMBERS.get(field)!], term)

/** The key of a title's pair of neighbouring terms (see `titlePairs`): a phrase is looked up by it. */
export const pairTermKey = (pair: string): number => hashTerm(`pair:${pair}`)

/**
 * What a document's words come to: its lexical vector, and its distinct terms with the fields
 * holding each (bit i: INDEX_TEXT_FIELDS[i]).
 */
export interface DocumentTerms {
  readonly lexical: SparseVector
  readonly terms: ReadonlyMap<string, number>
}

/**
 * A document's lexical vector: per field and term, the BM25+ term-frequency part. A query
 * weighs each key by fieldWeight × the site's IDF of the term in that field (TermStatistics),
 * so the dot product is the embedded index's BM25 with fixed average lengths. Each pair of
 * neighbouring title terms has a key too (value 1): word queries never ask for those keys,
 * phrase queries ask for nothing else. Each field is analysed once (the title's terms in
 * order give its pairs too): analysis is most of a write's cost in every process.
 */
export const documentTerms = (text: TextFields): DocumentTerms => {
  const keys: Array<number> = []
  const parts: Array<number> = []
  const terms = new Map<string, number>()
  const counts = new Map<string, number>()
  let titleTerms: ReadonlyArray<string> = []
  for (let f = 0; f < INDEX_TEXT_FIELDS.length; f++) {
    const field = INDEX_TEXT_FIELDS[f]
    if (field === "title") {
      titleTerms = indexTerms(text.title)
      counts.clear()
      for (const term of titleTerms) counts.set(term, (counts.get(term) ?? 0) + 1)
    } else termCounts(text[field], counts)
    let length = 0
    for (const count of counts.values()) length += count
    const lengthNorm = K * (1 - B + (B * length) / REFERENCE_LENGTHS[field])
    const state = FIELD_STATES[f]
    for (const [term, count] of counts) {
      terms.set(term, (terms.get(term) ?? 0) | (1 << f))
      keys.push(fnv1aFrom(state, term))
      parts.push(D + (count * (K + 1)) / (count + lengthNorm))
    }
  }
  const fieldKeys = keys.length
  for (const pair of termPairs(titleTerms)) {
    keys.push(pairTermKey(pair))
    parts.push(1)
  }
  return { lexical: sparseOf(keys, parts, fieldKeys), terms }
}

/** Positions below 2^21 ride along a u32 key in one exact double (32 + 21 bits): sorted natively. */
const POSITION = 2 ** 21

/**
 * The sparse vector of `keys` with their parts: sorted by key, the parts of one key summed,
 * except that a key from `fieldKeys` on (a title pair's) sets its value. Each value is kept to
 * 6 decimals (Qdrant holds f32; a tf part is 0.5–2.7): as written to Qdrant and held in memory
 * alike, and a third as long in JSON as the full double, to encode and to parse.
 */
const sparseOf = (keys: ReadonlyArray<number>, parts: ReadonlyArray<number>, fieldKeys: number): SparseVector => {
  if (keys.length >= POSITION) {
    const values = new Map<number, number>()
    keys.forEach((key, i) => values.set(key, i >= fieldKeys ? parts[i] : (values.get(key) ?? 0) + parts[i]))
    for (const [key, value] of values) values.set(key, Math.round(value * 1e6) / 1e6)
    return toSparse(values)
  }
  const packed = new Float64Array(keys.length)
  for (let i = 0; i < keys.length; i++) packed[i] = keys[i] * POSITION + i
  packed.sort()
  const indices: Array<number> = []
  const values: Array<number> = []
  for (let k = 0; k < packed.length; k++) {
    const key = Math.floor(packed[k] / POSITION)
    const i = packed[k] - key * POSITION
    const last = indices.length - 1
    if (last >= 0 && indices[last] === key) values[last] = i >= fieldKeys ? parts[i] : values[last] + parts[i]
    else {
      indices.push(key)
      values.push(parts[i])
    }
  }
  for (let k = 0; k < values.length; k++) values[k] = Math.round(values[k] * 1e6) / 1e6
  return { indices, values }
}

/**
 * A text's identity for "has it changed": FNV-1a over its fields, each after its length (so
 * fields cannot blur), and the total length beside it, in one exact double (32 + 21 bits).
 */
export const textHash = (text: TextFields): number => {
  // The hash of the fields joined, carried on piece by piece (no joined string built).
  let state = hashTerm("")
  let length = 0
  for (const field of INDEX_TEXT_FIELDS) {
    const prefix = `${text[field].length}:`
    state = fnv1aFrom(fnv1aFrom(state, prefix), text[field])
    length += prefix.length + text[field].length
  }
  return state * 2 ** 21 + (length % 2 ** 21)
}

/** A lexical query: the weight of each field-term key (absent keys score nothing). */
export const keyQuery = (weights: ReadonlyMap<number, number>): SparseVector => toSparse(new Map(weights))
