import { stemmer } from "stemmer"

/**
 * Word runs of letters and digits, joined by hyphens ("wi-fi", "usb-c") or by a decimal
 * point/slash between digits ("2.5mm", "1/2"). "18v" and "2x4" are single runs already,
 * so product codes and sizes survive as searchable words.
 */
const WORD = /[\p{L}\p{N}]+(?:(?:-|(?<=\p{N})[.,/](?=\p{N}))[\p{L}\p{N}]+)*/gu

/** Function words that carry no product meaning but would match nearly every document. */
const STOP_WORDS = new Set([
  "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it",
  "its", "of", "on", "or", "that", "the", "this", "to", "was", "were", "will", "with"
])

/**
 * The text's words, each with the forms it is found by: a hyphenated word also yields its
 * joined form and its longer parts, so "wi-fi" is found by "wifi" and "black-and-decker" by
 * "decker".
 */
const wordForms = (text: string): Array<Array<string>> => {
  const words: Array<Array<string>> = []
  for (const [word] of text.matchAll(WORD)) {
    const forms = [word]
    if (word.includes("-")) {
      const parts = word.split("-")
      forms.push(parts.join(""))
      for (const part of parts) if (part.length >= 3) forms.push(part)
    }
    words.push(forms)
  }
  return words
}

/** Splits text into words and the extra forms of hyphenated ones (see `wordForms`). */
export const tokenize = (text: string): Array<string> => wordForms(text).flat()

/** Lower-cased word, or null for a stop word. */
const normalizeWord = (word: string): string | null => {
  const lower = word.toLowerCase()
  return STOP_WORDS.has(lower) ? null : lower
}

/** Catalog vocabularies are small next to their word counts: stemming is memoised. */
const stems = new Map<string, string>()

/** Porter stem of plain alphabetic words; codes, sizes and hyphenated words stay as typed. */
export const stem = (lower: string): string => {
  let stemmed = stems.get(lower)
  if (stemmed === undefined) {
    stemmed = /^\p{L}{3,}$/u.test(lower) ? stemmer(lower) : lower
    // Bounded, so a stream of unique codes (gtins, mpns) cannot grow it without end.
    if (stems.size >= 200_000) stems.clear()
    stems.set(lower, stemmed)
  }
  return stemmed
}

/** The index-side term processor: one normalised, stemmed term per word. */
export const indexTerm = (word: string): string | null => {
  const lower = normalizeWord(word)
  return lower === null ? null : stem(lower)
}

/**
 * A query word in both forms: the stem for exact matching, the typed word for typos. `group`
 * numbers the words the shopper typed (0, 1, …): the forms of one hyphenated word share it,
 * and a document holding any of them holds that word (see `requiredWords`).
 */
export interface QueryWord {
  readonly typed: string
  readonly stem: string
  readonly group: number
}

export const queryWords = (text: string): Array<QueryWord> => {
  const seen = new Set<string>()
  const words: Array<QueryWord> = []
  let group = 0
  for (const forms of wordForms(text)) {
    let kept = false
    for (const form of forms) {
      const typed = normalizeWord(form)
      if (typed === null) continue
      const stemmed = stem(typed)
      if (seen.has(stemmed)) continue
      seen.add(stemmed)
      words.push({ typed, stem: stemmed, group })
      kept = true
    }
    if (kept) group++
  }
  return words
}

/** How many words the shopper typed (hyphenated forms counted once). */
export const typedWords = (words: ReadonlyArray<QueryWord>): number => (words.length === 0 ? 0 : words[words.length - 1].group + 1)

/**
 * How many of a query's `words` a document must match to be a result: all of one or two,
 * all but one of three or four, three quarters of more (a shopper's extra words are often
 * sizes or noise). When no document matches that many, the documents matching the most
 * words are the results, down to half of the words: "xyzzy drill" still finds drills,
 * while one common word of "levis 501 black jeans" alone ("black") finds nothing.
 */
export const requiredWords = (words: number, most: number): number => {
  const wanted = words <= 2 ? words : words <= 4 ? words - 1 : Math.ceil(0.75 * words)
  return Math.max(1, Math.ceil(words / 2), Math.min(wanted, most))
}
