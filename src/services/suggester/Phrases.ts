import { Schema } from "effect"
import { normalize, STOPWORDS } from "../../text/NormalForm.js"

/** What one product tells the suggester; category paths are text-form ("A > B > C"). Travels in the change feed. */
export const ProductText = Schema.Struct({
  title: Schema.String,
  brand: Schema.optional(Schema.NullOr(Schema.String)),
  categories: Schema.Array(Schema.String),
  productTypes: Schema.optional(Schema.Array(Schema.String))
})
export type ProductText = typeof ProductText.Type

/** Catalog sources, as indexes into the vocabulary's per-source counters. */
export const TITLE = 0
export const BRAND = 1
export const CATEGORY = 2
export type CatalogKind = typeof TITLE | typeof BRAND | typeof CATEGORY

// Words past the 12th are specs and noise; 4 leading words already name the product line.
const MAX_TITLE_WORDS = 12
const LEADING_WORDS = 4
const NGRAM_WORDS = 3
const MAX_PHRASE_CHARS = 80

/**
 * Inner n-grams keep to plain vocabulary: model numbers and sizes ("gsr12", "500ml") would
 * make nearly every n-gram unique to one product, bloating memory for completions nobody
 * types. Leading phrases keep them, because "iphone 15" is a real product line.
 */
const isSalient = (word: string): boolean => word.length >= 2 && !STOPWORDS.has(word) && !/\d/.test(word)

/**
 * Where a title's phrases part: a spaced dash, ",", "|", ":", ";", "+", a slash not inside a
 * fraction ("1/2"), brackets. "Espresso Machine, Brushed Steel" names two things; a completion
 * joining them ("machine brushed steel") is nothing a shopper would type.
 */
const PHRASE_BREAK = /\s+[-–—|:+]\s+|:\s|,(?!\d)|[;|()[\]{}]|(?<!\d)\/|\/(?!\d)|\s[–—]|[–—]\s/

/**
 * Words that join two phrases rather than belong to either ("Coffee Maker with Milk Frother",
 * "Shoes for Kids"): each starts a new phrase, and no completion ends in one.
 */
export const CONNECTORS: ReadonlySet<string> = new Set([
  "with",
  "without",
  "for",
  "and",
  "or",
  "in",
  "by",
  "of",
  "from",
  "on",
  "at",
  "to",
  "including",
  "featuring"
])

/** The catalog's shorthands for connectors, spelled out before the title is split. */
const expandShorthands = (title: string): string =>
  title
    .replace(/(^|\s)w\/o(?=\s)/gi, "$1 without ")
    .replace(/(^|\s)w\/(?=\s)/gi, "$1 with ")
    .replace(/\s&\s/g, " and ")

/**
 * Words a quantity's number is cut from ("128 GB", "500 ml", "2 Pack"): a completion ending at
 * the number ("iphone 15 pro 128") is a fragment, while "iphone 15" before "Pro" is a name.
 */
const UNITS: ReadonlySet<string> = new Set(
  "gb tb mb kb ml l cl oz fl lb lbs kg g mg mm cm m km in inch inches ft v w kw mah wh hz pack pk pcs pc piece pieces count ct qt gal x".split(
    " "
  )
)

/** A number as normalized: "12", and "1,000" or "2.5" become two digit runs. */
const BARE_NUMBER = /^\d+(?: \d+)?$/

/**
 * One word of a title as the shopper sees it: a hyphenated or joined token ("Over-Ear",
 * "T-Shirt", "Dri-FIT") stays one word though it normalizes to several, so a completion never
 * starts or ends inside it ("ear headphones", "running t").
 */
interface TitleWord {
  readonly text: string
  /** Whether a completion may start or end at this word (see `isSalient`). */
  readonly salient: boolean
  /** A bare number that the next word measures: no completion ends here. */
  readonly cut: boolean
}

/** The title's phrases, each a run of whole words with no separator or connector inside. */
const titlePhrases = (title: string): Array<Array<TitleWord>> => {
  const phrases: Array<Array<TitleWord>> = []
  for (const part of expandShorthands(title).split(PHRASE_BREAK)) {
    let phrase: Array<TitleWord> = []
    const tokens = part.split(/\s+/).filter((token) => token.length > 0)
    tokens.forEach((token, i) => {
      const text = normalize(token)
      if (CONNECTORS.has(text)) {
        if (phrase.length > 0) phrases.push(phrase)
        phrase = []
        return
      }
      if (text.length === 0) return
      const next = i + 1 < tokens.length ? normalize(tokens[i + 1]) : ""
      const measures = phrase.length > 0 && phrase[phrase.length - 1].cut
      phrase.push({
        text,
        // A unit after its number ("128 GB") is a spec, not something to complete to alone.
        salient: !measures && isSalient(text.replaceAll(" ", "")),
        cut: BARE_NUMBER.test(text) && UNITS.has(next)
      })
    })
    if (phrase.length > 0) phrases.push(phrase)
  }
  return phrases
}

/** Whether a completion may end at this word: not in a connector, stopword or cut quantity. */
const canEnd = (word: TitleWord): boolean => !word.cut && !STOPWORDS.has(word.text)

/**
 * The distinct (phrase, source) pairs one product contributes, each counted once per product
 * so a phrase's frequency is the number of products carrying it:
 * - brand, and every label of every category path (leaf and parents);
 * - the title's leading 1–4-word phrases, within its first phrase and not ending in a
 *   stopword or a number cut from its unit;
 * - 1–3-word n-grams within one of the title's phrases, from and to a salient word
 *   ("cordless drill" inside "bosch professional cordless drill gsr12").
 * Words here are whole title words (`TitleWord`), so "over ear headphones" is one 2-word phrase.
 */
export const productPhrases = (product: ProductText): Array<readonly [string, CatalogKind]> => {
  const seen = new Set<string>()
  const out: Array<readonly [string, CatalogKind]> = []
  const add = (phrase: string, kind: CatalogKind) => {
    const key = kind + phrase
    if (phrase.length === 0 || phrase.length > MAX_PHRASE_CHARS || seen.has(key)) return
    seen.add(key)
    out.push([phrase, kind])
  }
  const join = (words: ReadonlyArray<TitleWord>) => words.map((w) => w.text).join(" ")
  if (product.brand) add(normalize(product.brand), BRAND)
  for (const paths of [product.categories, product.productTypes ?? []]) {
    for (const path of paths) for (const label of path.split(">")) add(normalize(label), CATEGORY)
  }
  let budget = MAX_TITLE_WORDS
  titlePhrases(product.title).forEach((phrase, p) => {
    const words = phrase.slice(0, Math.max(0, budget))
    budget -= words.length
    // Only the title's opening names the product line; later phrases give inner n-grams.
    if (p === 0) {
      for (let n = 1; n <= Math.min(LEADING_WORDS, words.length); n++) {
        if (canEnd(words[n - 1])) add(join(words.slice(0, n)), TITLE)
      }
    }
    for (let i = p === 0 ? 1 : 0; i < words.length; i++) {
      if (!words[i].salient) continue
      for (let n = 1; n <= NGRAM_WORDS && i + n <= words.length && words[i + n - 1].salient; n++) {
        add(join(words.slice(i, i + n)), TITLE)
      }
    }
  })
  return out
}
