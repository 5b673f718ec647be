/**
 * One normal form for catalog text, logged queries and typed prefixes, so that "T-Shirt",
 * "t shirt" and "T‑shirt " all meet in the same phrases: lowercase, accents folded,
 * apostrophes dropped ("men's" → "mens"), every other non-alphanumeric run becomes a space.
 */
const MARKS = /[\u0300-\u036f]/g
const APOSTROPHES = /['’`]/g
const SEPARATORS = /[^\p{L}\p{N}]+/gu
const ENDS_WITH_SEPARATOR = /[^\p{L}\p{N}]$/u

/** Words that make poor suggestion boundaries ("drill with", "for kids"). */
export const STOPWORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "at",
  "by",
  "for",
  "from",
  "in",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
  "x"
])

const fold = (text: string): string => text.normalize("NFKD").replace(MARKS, "").replace(APOSTROPHES, "").toLowerCase()

export const normalize = (text: string): string => fold(text).replace(SEPARATORS, " ").trim()

export interface TypedPrefix {
  readonly text: string
  /** True when the user already ended the last word ("cordless "), so it must match whole. */
  readonly lastWordComplete: boolean
}

export const normalizePrefix = (raw: string): TypedPrefix => {
  const folded = fold(raw)
  return { text: folded.replace(SEPARATORS, " ").trim(), lastWordComplete: ENDS_WITH_SEPARATOR.test(folded) }
}
