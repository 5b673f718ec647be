/**
 * Word runs of letters and digits, joined by hyphens ("wi-fi", "usb-c") or by a decimal
 * point/slash between digits ("2.5mm", "1/2"). "18v" and "2x4" are single runs already,
 * so product codes and sizes survive as searchable words.
 */
const WORD = /[\p{L}\p{N}]+(?:(?:-|(?<=\p{N})[.,/](?=\p{N}))[\p{L}\p{N}]+)*/gu

/** Function words that carry no product meaning but would match nearly every document. */
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "for",
  "from",
  "in",
  "into",
  "is",
  "it",
  "its",
  "of",
  "on",
  "or",
  "that",
  "the",
  "this",
  "to",
  "was",
  "were",
  "will",
  "with"
])

/** Unit words and abbreviations after a number, by the one name they are indexed under. */
const UNITS: Readonly<Record<string, string>> = {
  w: "watt",
  watt: "watt",
  watts: "watt",
  kw: "kw",
  v: "volt",
  volt: "volt",
  volts: "volt",
  a: "amp",
  amp: "amp",
  amps: "amp",
  ah: "ah",
  mah: "mah",
  in: "inch",
  inch: "inch",
  inches: "inch",
  ft: "foot",
  foot: "foot",
  feet: "foot",
  yd: "yard",
  yard: "yard",
  mm: "mm",
  cm: "cm",
  m: "m",
  lb: "pound",
  lbs: "pound",
  pound: "pound",
  pounds: "pound",
  oz: "ounce",
  ounce: "ounce",
  ounces: "ounce",
  kg: "kg",
  g: "g",
  gal: "gallon",
  gallon: "gallon",
  gallons: "gallon",
  qt: "quart",
  quart: "quart",
  quarts: "quart",
  l: "liter",
  liter: "liter",
  liters: "liter",
  litre: "liter",
  ml: "ml",
  btu: "btu",
  psi: "psi",
  gpm: "gpm",
  cfm: "cfm",
  hp: "hp",
  rpm: "rpm",
  pc: "piece",
  pcs: "piece",
  piece: "piece",
  pieces: "piece",
  pk: "pack",
  pack: "pack"
}

const NUMBER = /^\d+(?:[.,/]\d+)?$/
/** A number written against its unit: "65w", "2.5mm", "18v". */
const NUMBER_UNIT = /^(\d+(?:[.,/]\d+)?)([a-z]+)$/
/** A dimension: "32x80", "2x4". */
const DIMENSION = /^\d+(?:[.,/]\d+)?(?:x\d+(?:[.,/]\d+)?)+$/

/** One word of a text and the forms it is found by; `unit` marks a unit word that follows a number. */
interface Word {
  readonly forms: Array<string>
  readonly unit: boolean
}

/** What a word is on its own, whatever its neighbours: computed once per distinct word (see `analysed`). */
interface WordAnalysis {
  /** The forms it is found by, the word first. */
  readonly forms: ReadonlyArray<string>
  /** Its index terms: the forms normalised and stemmed, stop words dropped. */
  readonly terms: ReadonlyArray<string>
  /** A plain number ("65", "2.5"), which a unit word after it joins. */
  readonly number: boolean
  /** The unit's canonical name when the word is a unit ("w" → "watt"). */
  readonly unit: string | undefined
}

/**
 * The forms of a word on its own: a hyphenated word also yields its joined form and its parts
 * (letters of 3 or more, any number), so "wi-fi" is found by "wifi", "black-and-decker" by
 * "decker" and "R-5" by "5"; a dimension "32x80" yields "32" and "80"; a number with its unit
 * written together ("65W") or hyphenated ("65-Watt") also yields its canonical form ("65watt").
 */
const ownForms = (word: string, lower: string): Array<string> => {
  const forms = [word]
  if (lower.includes("-")) {
    const parts = lower.split("-")
    forms.push(parts.join(""))
    for (const part of parts) if (part.length >= 3 || /\d/.test(part)) forms.push(part)
    if (parts.length === 2 && NUMBER.test(parts[0]) && UNITS[parts[1]] !== undefined)
      forms.push(`${parts[0]}${UNITS[parts[1]]}`)
  } else if (DIMENSION.test(lower)) {
    forms.push(...lower.split("x"))
  } else {
    const numberUnit = NUMBER_UNIT.exec(lower)
    if (numberUnit !== null && UNITS[numberUnit[2]] !== undefined)
      forms.push(numberUnit[1], `${numberUnit[1]}${UNITS[numberUnit[2]]}`)
  }
  return forms
}

/**
 * Catalog texts repeat their words many times over (the common ones recur thousands of times
 * in a large catalog), so each distinct word is analysed once: indexing a product costs a
 * lookup per word instead of several regular expressions. Bounded (100,000 words), so a stream
 * of unique codes (gtins, mpns) cannot grow it without end; frequent words come back at once
 * after a clear.
 */
const analyses = new Map<string, WordAnalysis>()

const analysed = (word: string): WordAnalysis => {
  let analysis = analyses.get(word)
  if (analysis === undefined) {
    const lower = word.toLowerCase()
    const forms = ownForms(word, lower)
    const terms: Array<string> = []
    for (const form of forms) {
      const term = indexTerm(form)
      if (term !== null) terms.push(term)
    }
    analysis = { forms, terms, number: NUMBER.test(word), unit: UNITS[lower] }
    if (analyses.size >= 100_000) analyses.clear()
    analyses.set(word, analysis)
  }
  return analysis
}

/**
 * Walks the text's words in order. A unit word right after a number ("65 watt", "32 in.") is
 * first announced to `joined` with the number, which takes their canonical form ("65watt",
 * "32inch", which "65W" and "65-Watt" also yield), then visited as a unit word.
 */
const eachWord = (
  text: string,
  visit: (analysis: WordAnalysis, unit: boolean) => void,
  joined: (canonical: string) => void
): void => {
  let afterNumber: string | null = null
  // `match` hands back the words alone; `matchAll` builds a match object for each.
  for (const word of text.match(WORD) ?? []) {
    const analysis = analysed(word)
    if (analysis.unit !== undefined && afterNumber !== null) {
      joined(`${afterNumber}${analysis.unit}`)
      visit(analysis, true)
      afterNumber = null
      continue
    }
    visit(analysis, false)
    afterNumber = analysis.number ? word : null
  }
}

/** Each word of a text with where it stands and the lower-case forms it is found by (for marking matches). */
export const wordSpans = (
  text: string
): Array<{ readonly start: number; readonly end: number; readonly forms: ReadonlyArray<string> }> =>
  Array.from(text.matchAll(WORD), (match) => ({
    start: match.index,
    end: match.index + match[0].length,
    forms: analysed(match[0]).forms.map((form) => form.toLowerCase())
  }))

/** The text's words, each with the forms it is found by (see `ownForms` and `eachWord`). */
const wordForms = (text: string): Array<Word> => {
  const words: Array<Word> = []
  eachWord(
    text,
    (analysis, unit) => words.push({ forms: [...analysis.forms], unit }),
    (canonical) => words[words.length - 1].forms.push(canonical)
  )
  return words
}

/** Lower-cased word, or null for a stop word. */
const normalizeWord = (word: string): string | null => {
  const lower = word.toLowerCase()
  return STOP_WORDS.has(lower) ? null : lower
}

/**
 * The singular of an English plural ("drills" → "drill", "batteries" → "battery", "boxes" →
 * "box", "benches" → "bench", "hoses" → "hose"). Only plurals are folded: a full stemmer
 * (Porter) also merges words a shopper keeps apart ("refrigerant" and "refrigerator",
 * "lighted" and "light", "antiquing" and "antique"), and on the relevance evaluation's dev
 * queries it ranked no better than plural folding.
 */
const singular = (word: string): string => {
  // "batteries" → "battery", but "ties" → "tie" (the "es" rule below).
  if (word.length > 4 && /[^ae]ies$/.test(word)) return `${word.slice(0, -3)}y`
  if (/(?:ch|sh|ss|x|z)es$/.test(word)) return word.slice(0, -2)
  if (/[^aeo]es$/.test(word)) return word.slice(0, -1)
  if (/[^usi]s$/.test(word)) return word.slice(0, -1)
  return word
}

/** Catalog vocabularies are small next to their word counts: stemming is memoised. */
const stems = new Map<string, string>()

/** The singular of plain alphabetic words; codes, sizes and hyphenated words stay as typed. */
export const stem = (lower: string): string => {
  let stemmed = stems.get(lower)
  if (stemmed === undefined) {
    stemmed = /^\p{L}{3,}$/u.test(lower) ? singular(lower) : lower
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
  /** How many typed words it stands for: 1, or 2 for two typed words joined (see `withJoinedWords`). */
  readonly span: number
}

/**
 * Words a shopper puts after the thing they want ("water bottle lime", "t-shirt mens large"):
 * colours, sizes, who it is for, units and pack counts. The head word is what is left at the end.
 */
const TRAILING_MODIFIERS: ReadonlySet<string> = new Set([
  ...["black", "white", "grey", "gray", "silver", "red", "pink", "orange", "yellow", "beige", "brown", "gold"],
  ...["green", "olive", "turquoise", "blue", "navy", "purple", "lime", "khaki", "tan", "ivory", "cream", "teal"],
  ...["maroon", "burgundy", "charcoal", "coral", "mint", "rose", "clear", "multicolor", "multi"],
  ...["xs", "s", "m", "l", "xl", "xxl", "xxxl", "small", "medium", "large", "mini", "big", "plus", "size"],
  ...["men", "mens", "women", "womens", "kid", "kids", "boy", "boys", "girl", "girls", "baby", "toddler"],
  ...["adult", "adults", "unisex", "ladies", "youth"],
  ...["gb", "tb", "mb", "oz", "fl", "lb", "lbs", "ml", "kg", "mm", "cm", "pack", "pk", "count", "ct", "pcs"]
])

/**
 * The group of the query's head word: its last typed word that is no colour, size, audience or
 * number (see TRAILING_MODIFIERS), which names the kind of product wanted ("gown" of "victorias
 * secret lace gown", "bottle" of "water bottle lime"); null when every word is such a modifier.
 */
export const headGroup = (words: ReadonlyArray<QueryWord>): number | null => {
  for (let i = words.length - 1; i >= 0; i--) {
    const { typed, group, span } = words[i]
    if (span === 1 && !/\p{N}/u.test(typed) && !TRAILING_MODIFIERS.has(typed)) return group
  }
  return null
}

export const queryWords = (text: string): Array<QueryWord> => {
  const seen = new Set<string>()
  const words: Array<QueryWord> = []
  let group = 0
  for (const { forms, unit } of wordForms(text)) {
    // A unit after a number is part of the number's word ("65 watt" is one word: 65watt).
    if (unit) continue
    let kept = false
    for (const form of forms) {
      const typed = normalizeWord(form)
      if (typed === null) continue
      const stemmed = stem(typed)
      if (seen.has(stemmed)) continue
      seen.add(stemmed)
      words.push({ typed, stem: stemmed, group, span: 1 })
      kept = true
    }
    if (kept) group++
  }
  return words
}

/**
 * How a query's words may match words they are not: typo variants and, while a shopper types,
 * completions of the last word. A campaign sets it (`typoTolerance`, the minimum word lengths).
 */
export interface WordMatching {
  /** true: typo variants of words the site does not know; false: none; "min": only the fewest edits found. */
  readonly typoTolerance: boolean | "min"
  /** Letters a word needs for one typo, and for two. */
  readonly minWordSizeFor1Typo: number
  readonly minWordSizeFor2Typos: number
  /** The request is typed live (auto-suggest, search as you type): the last word may be a prefix. */
  readonly live: boolean
  /**
   * The query's words that are words of the language (TextEmbedder.isWord) though the site has no
   * products of their own: "couch" is no misspelling of "coach", so its typos are gated as a
   * known word's are.
   */
  readonly languageWords?: ReadonlyArray<string> | undefined
  /** What the site's synonyms let the query's words also match (search/Synonyms.ts). */
  readonly synonyms?: QuerySynonyms | undefined
}

/**
 * A query's synonyms, as the index matches them: terms a query word also matches, as variants
 * of that word (scaled below its own exact matches, like every variant), and terms standing for
 * several typed words in a row ("t shirt" → "tee"), matched like a joined word.
 */
export interface QuerySynonyms {
  /** By the query word's stem. */
  readonly terms: ReadonlyMap<string, ReadonlyArray<{ readonly term: string; readonly weight: number }>>
  readonly phrases: ReadonlyArray<{ readonly group: number; readonly span: number; readonly term: string }>
}

/** The matching with the query's words of the language noted (see WordMatching.languageWords). */
export const withLanguageWords = (
  matching: WordMatching,
  text: string,
  isWord: (word: string) => boolean
): WordMatching => {
  const languageWords = queryWords(text)
    .map((word) => word.typed)
    .filter((typed) => isWord(typed))
  return languageWords.length === 0 ? matching : { ...matching, languageWords }
}

export const DEFAULT_WORD_MATCHING: WordMatching = {
  typoTolerance: true,
  minWordSizeFor1Typo: 4,
  minWordSizeFor2Typos: 9,
  live: false
}

/**
 * How many edits (insertions, deletions, substitutions, swaps of neighbours) a typo variant of
 * a typed word may be away. None for a word the site knows: a word with products of its own is
 * what the shopper meant, and a word one edit away is another word ("sneakers" is not
 * "speakers", "drill" not "grill", "beans" not "jeans"); what means the same is the dense model's
 * to find. None for a word with a digit (a size, a model: "32inch" is not "30inch"), none under
 * `minWordSizeFor1Typo` letters (too ambiguous); one, then two from `minWordSizeFor2Typos`.
 * The embedded and the Qdrant index both look variants up with it.
 */
export const editBudget = (typed: string, known: boolean, matching: WordMatching = DEFAULT_WORD_MATCHING): number =>
  known || matching.typoTolerance === false || /\p{N}/u.test(typed)
    ? 0
    : typed.length >= matching.minWordSizeFor2Typos
      ? 2
      : typed.length >= matching.minWordSizeFor1Typo
        ? 1
        : 0

/**
 * Whether a query word is completed as a prefix: only the last word of a request typed live
 * ("cordl" → "cordless" as the shopper types), never a word of a submitted search ("pan" is not
 * "pantry"), and not under 3 characters. A model number of 5 or more characters is completed
 * anywhere: "dcd771" finds the kit "DCD771C2", as a shopper typing a model's base number means.
 */
export const completesPrefix = (typed: string, isLast: boolean, matching: WordMatching): boolean =>
  (matching.live && isLast && typed.length >= 3) || isModelNumber(typed)

const isModelNumber = (typed: string): boolean => typed.length >= 5 && /\p{N}/u.test(typed) && /\p{L}/u.test(typed)

/**
 * Whether an index term is the typed word numbered ("buds" → "buds2", "echo" → "echo4"): the
 * same name with a generation or model digit, not another word, so a typo budget finding it
 * never gates it.
 */
export const numberedForm = (typed: string, term: string): boolean =>
  term.length === typed.length + 1 && term.startsWith(typed) && /^\p{L}{3,}$/u.test(typed) && /\p{N}$/u.test(term)

/** The word with two neighbouring letters swapped, each way: typos a single edit distance counts as two. */
export const swaps = (word: string): Array<string> => {
  const found: Array<string> = []
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] === word[i + 1]) continue
    found.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2))
  }
  return found
}

/**
 * Of typo variants found at `edits` each, those a `typoTolerance` of "min" keeps: the ones at
 * the fewest edits found; every one otherwise.
 */
export const fewestEdits = <T extends { readonly edits: number }>(
  variants: ReadonlyArray<T>,
  matching: WordMatching
) => {
  if (matching.typoTolerance !== "min" || variants.length === 0) return variants
  const least = Math.min(...variants.map((variant) => variant.edits))
  return variants.filter((variant) => variant.edits === least)
}

/** A plain word of letters or digits: what two typed words may be joined from. */
const PLAIN = /^[\p{L}\p{N}]+$/u

/**
 * The query's words with, after each typed word, its join with the next typed word when the
 * site's catalog knows the joined form: "closet maid" also finds "ClosetMaid", "mr 16" finds
 * "MR16", "3 way" finds "3-Way" (whose joined form is indexed). A joined word spans both typed
 * words, so a title holding it matches both (see `span`). Only plain single-form words join,
 * and a join the catalog does not know is never tried.
 */
export const withJoinedWords = (
  words: ReadonlyArray<QueryWord>,
  known: (stem: string) => boolean
): ReadonlyArray<QueryWord> => {
  const typed = typedWords(words)
  if (typed < 2) return words
  const byGroup: Array<Array<QueryWord>> = Array.from({ length: typed }, () => [])
  for (const word of words) byGroup[word.group].push(word)
  const stems = new Set(words.map((word) => word.stem))
  const result: Array<QueryWord> = []
  for (let group = 0; group < typed; group++) {
    result.push(...byGroup[group])
    const [first, second] = [byGroup[group], byGroup[group + 1]]
    if (second === undefined || first.length !== 1 || second.length !== 1) continue
    if (!PLAIN.test(first[0].typed) || !PLAIN.test(second[0].typed)) continue
    const joined = `${first[0].typed}${second[0].typed}`
    const joinedStem = stem(joined)
    if (stems.has(joinedStem) || !known(joinedStem)) continue
    result.push({ typed: joined, stem: joinedStem, group, span: 2 })
  }
  return result
}

/**
 * The query's words with the site's phrase synonyms among them: after the forms of a phrase's
 * first typed word, its term spanning the phrase's words (as `withJoinedWords` places a joined
 * word), where the catalog knows the term.
 */
export const withSynonymPhrases = (
  words: ReadonlyArray<QueryWord>,
  synonyms: QuerySynonyms | undefined,
  known: (stem: string) => boolean
): ReadonlyArray<QueryWord> => {
  if (synonyms === undefined || synonyms.phrases.length === 0) return words
  const stems = new Set(words.map((word) => word.stem))
  const result: Array<QueryWord> = []
  for (let i = 0; i < words.length; i++) {
    result.push(words[i])
    const group = words[i].group
    if (words[i + 1]?.group === group) continue
    for (const phrase of synonyms.phrases) {
      if (phrase.group !== group || stems.has(phrase.term) || !known(phrase.term)) continue
      stems.add(phrase.term)
      result.push({ typed: phrase.term, stem: phrase.term, group, span: phrase.span })
    }
  }
  return result
}

/** How many words the shopper typed (hyphenated forms counted once). */
export const typedWords = (words: ReadonlyArray<QueryWord>): number =>
  words.length === 0 ? 0 : words[words.length - 1].group + 1

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

/** A text's index terms in order (stop words dropped, so "vanity with drawers" has "vanity drawer" side by side). */
export const indexTerms = (text: string): Array<string> => {
  const terms: Array<string> = []
  eachWord(
    text,
    (analysis) => {
      for (const term of analysis.terms) terms.push(term)
    },
    (canonical) => terms.push(canonical)
  )
  return terms
}

/**
 * A text's index terms with their counts: what both indexes store per field. `into` (cleared
 * first) saves an indexer that counts field after field a map per field.
 */
export const termCounts = (text: string, into = new Map<string, number>()): Map<string, number> => {
  into.clear()
  const count = (term: string) => into.set(term, (into.get(term) ?? 0) + 1)
  eachWord(
    text,
    (analysis) => {
      for (const term of analysis.terms) count(term)
    },
    count
  )
  return into
}

/** The key of two terms side by side; terms hold no spaces. */
const pairKey = (first: string, second: string): string => `${first} ${second}`

/**
 * The title's pairs of neighbouring terms. A query's neighbouring words found side by side
 * in a title ("front door paint" in "… Satin Front Door Paint") are a phrase match, which
 * outranks the same words apart ("… Painted Steel Front Door"): see `phraseFactor`.
 */
export const titlePairs = (title: string): Set<string> => termPairs(indexTerms(title))

/** The pairs of neighbouring terms of a field's terms in order (`indexTerms`). */
export const termPairs = (terms: ReadonlyArray<string>): Set<string> => {
  const pairs = new Set<string>()
  for (let i = 0; i + 1 < terms.length; i++) pairs.add(pairKey(terms[i], terms[i + 1]))
  return pairs
}

/** Per pair of neighbouring typed words, the pair keys their forms make ("32x80 door": "32 door", "80 door", …). */
export const queryPairs = (words: ReadonlyArray<QueryWord>): Array<Array<string>> => {
  const pairs: Array<Array<string>> = []
  for (let group = 0; group + 1 < typedWords(words); group++) {
    const firsts = words.filter((word) => word.group === group)
    const seconds = words.filter((word) => word.group === group + 1)
    pairs.push(firsts.flatMap((first) => seconds.map((second) => pairKey(first.stem, second.stem))))
  }
  return pairs
}

/**
 * A lexical match's score grows by `weight` × the share of the query's neighbouring word
 * pairs its title holds side by side: with weight 0.75, a title holding the whole phrase
 * of a query scores 1.75 times its word scores. Chosen on both relevance sets' dev queries
 * (eval/relevance), where phrase matches helped about as much at any weight from 0.5 to 1.
 */
export const phraseFactor = (held: number, pairs: number, weight: number): number =>
  pairs === 0 ? 1 : 1 + (weight * held) / pairs
