import type { Synonym } from "../domain/Merchandising.js"
import { type QuerySynonyms, queryWords, stem, type WordMatching } from "../text/TextAnalysis.js"

/**
 * A synonym's match counts as a variant of the query word: scaled below the word's own exact
 * matches (see LexicalIndex.wordScores), so the words the shopper typed keep the top; where the
 * catalog has no product with them, the synonym's matches are the results, at full weight.
 */
const SYNONYM_WEIGHT = 1
/** An alternative correction ranks below a synonym: it is a guess at what was meant. */
const ALT_CORRECTION_WEIGHT = 0.6

interface Alternative {
  /** The phrase's stems, one per typed word. */
  readonly stems: ReadonlyArray<string>
  readonly weight: number
}

/** A site's synonyms by the phrase they are found from (its stems joined by a space). */
export type SynonymTable = ReadonlyMap<string, ReadonlyArray<Alternative>>

/**
 * The typed words of a text, each as one key: its stem, a hyphenated word's joined form
 * ("T-Shirts" → "tshirt", as "tshirts" is), so phrases and queries meet however they are
 * written; `stem` is the word's first form as the index's query words carry it.
 */
export const typedWordKeys = (text: string): Array<{ readonly key: string; readonly stem: string }> => {
  const keys: Array<{ key: string; stem: string }> = []
  for (const word of queryWords(text)) {
    if (keys.length !== word.group) continue
    const joined = word.typed.replace(/[^\p{L}\p{N}]/gu, "")
    keys.push({ key: joined === word.typed ? word.stem : stem(joined), stem: word.stem })
  }
  return keys
}

/** One key per typed word (see typedWordKeys): what phrases, patterns and queries are compared by. */
export const wordKeys = (text: string): Array<string> => typedWordKeys(text).map((word) => word.key)

export const compileSynonyms = (synonyms: ReadonlyArray<Synonym>): SynonymTable => {
  const table = new Map<string, Array<Alternative>>()
  const add = (from: string, to: string, weight: number) => {
    const key = wordKeys(from).join(" ")
    const stems = wordKeys(to)
    if (key === stems.join(" ")) return
    const list = table.get(key) ?? []
    const same = list.find((a) => a.stems.join(" ") === stems.join(" "))
    if (same === undefined) list.push({ stems, weight })
    else if (same.weight < weight) list.splice(list.indexOf(same), 1, { stems, weight })
    table.set(key, list)
  }
  for (const synonym of synonyms) {
    switch (synonym.type) {
      case "synonym":
        for (const from of synonym.synonyms)
          for (const to of synonym.synonyms) if (from !== to) add(from, to, SYNONYM_WEIGHT)
        break
      case "oneWaySynonym":
        for (const to of synonym.synonyms) add(synonym.input, to, SYNONYM_WEIGHT)
        break
      case "altCorrection":
        for (const to of synonym.corrections) add(synonym.word, to, ALT_CORRECTION_WEIGHT)
        break
    }
  }
  return table
}

/** The longest phrase a synonym may have (MERCHANDISING_LIMITS.phraseWords). */
const LONGEST = 5

/**
 * What the query's words also match under the site's synonyms. A phrase of the query (one or
 * more typed words in a row) found in the table offers its alternatives: an alternative of one
 * word as a variant of that word, a longer one as its joined form ("t shirt" → "tshirt", as a
 * hyphenated title word is indexed); an alternative for several typed words as a term standing
 * for all of them. Undefined when nothing applies.
 */
export const querySynonyms = (table: SynonymTable, text: string): QuerySynonyms | undefined => {
  if (table.size === 0) return undefined
  const words = typedWordKeys(text)
  const terms = new Map<string, Array<{ term: string; weight: number }>>()
  const phrases: Array<{ group: number; span: number; term: string }> = []
  for (let group = 0; group < words.length; group++) {
    for (let span = Math.min(LONGEST, words.length - group); span >= 1; span--) {
      const key = words
        .slice(group, group + span)
        .map((word) => word.key)
        .join(" ")
      for (const { stems, weight } of table.get(key) ?? []) {
        const term = stems.join("")
        if (span === 1) terms.set(words[group].stem, [...(terms.get(words[group].stem) ?? []), { term, weight }])
        else phrases.push({ group, span, term })
      }
    }
  }
  return terms.size === 0 && phrases.length === 0 ? undefined : { terms, phrases }
}

/** The matching with the query's synonyms (see querySynonyms); as it was when none apply. */
export const withSynonyms = (matching: WordMatching, table: SynonymTable, text: string): WordMatching => {
  const synonyms = querySynonyms(table, text)
  return synonyms === undefined ? matching : { ...matching, synonyms }
}
