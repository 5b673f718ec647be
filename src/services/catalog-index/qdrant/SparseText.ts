import type { Schemas } from "@qdrant/js-client-rest"
import { INDEX_TEXT_FIELDS, type IndexDocument } from "../../../model/IndexDocument.js"
import { indexTerms, termCounts, termPairs } from "../../../text/TextAnalysis.js"
import { fnv1a } from "../../../platform/Fnv1a.js"

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

/**
 * The key of a term in one field: the embedded index keeps postings (and so document
 * frequencies) per field, and so does this layout, as one sparse dimension per field and term.
 */
export const fieldTermKey = (field: TextField, term: string): number => hashTerm(`${field}:${term}`)

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
  const values = new Map<number, number>()
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
    for (const [term, count] of counts) {
      terms.set(term, (terms.get(term) ?? 0) | (1 << f))
      const index = fieldTermKey(field, term)
      values.set(index, (values.get(index) ?? 0) + D + (count * (K + 1)) / (count + lengthNorm))
    }
  }
  for (const pair of termPairs(titleTerms)) values.set(pairTermKey(pair), 1)
  // Kept to 6 decimals (Qdrant holds f32; a tf part is 0.5–2.7): as written to Qdrant and held
  // in memory alike, and a third as long in JSON as the full double, to encode and to parse.
  for (const [key, value] of values) values.set(key, Math.round(value * 1e6) / 1e6)
  return { lexical: toSparse(values), terms }
}

/**
 * A text's identity for "has it changed": FNV-1a over its fields, each after its length (so
 * fields cannot blur), and the total length beside it, in one exact double (32 + 21 bits).
 */
export const textHash = (text: TextFields): number => {
  let joined = ""
  for (const field of INDEX_TEXT_FIELDS) joined += `${text[field].length}:${text[field]}`
  return fnv1a(joined) * 2 ** 21 + (joined.length % 2 ** 21)
}

/** A lexical query: the weight of each field-term key (absent keys score nothing). */
export const keyQuery = (weights: ReadonlyMap<number, number>): SparseVector => toSparse(new Map(weights))
