import type { Schemas } from "@qdrant/js-client-rest"
import { INDEX_TEXT_FIELDS, type IndexDocument } from "../../../model/IndexDocument.js"
import { termCounts, titlePairs } from "../../../text/TextAnalysis.js"
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
 * A document's lexical vector: per field and term, the BM25+ term-frequency part. A query
 * weighs each key by fieldWeight × the site's IDF of the term in that field (TermStatistics),
 * so the dot product is the embedded index's BM25 with fixed average lengths. Each pair of
 * neighbouring title terms has a key too (value 1): word queries never ask for those keys,
 * phrase queries ask for nothing else.
 */
export const documentLexical = (text: TextFields): SparseVector => {
  const values = new Map<number, number>()
  for (const field of INDEX_TEXT_FIELDS) {
    const counts = termCounts(text[field])
    let length = 0
    for (const count of counts.values()) length += count
    const lengthNorm = K * (1 - B + (B * length) / REFERENCE_LENGTHS[field])
    for (const [term, count] of counts) {
      const index = fieldTermKey(field, term)
      values.set(index, (values.get(index) ?? 0) + D + (count * (K + 1)) / (count + lengthNorm))
    }
  }
  for (const pair of titlePairs(text.title)) values.set(pairTermKey(pair), 1)
  return toSparse(values)
}

/** A lexical query: the weight of each field-term key (absent keys score nothing). */
export const keyQuery = (weights: ReadonlyMap<number, number>): SparseVector => toSparse(new Map(weights))
