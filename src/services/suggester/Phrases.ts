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
 * Where a title's phrases part ("Espresso Machine, Brushed Steel", "Coffee Maker with Milk
 * Frother", "Headphones - Black", "(2-Pack)"): no suggestion joins words across them.
 */
const PHRASE_BREAK = /\s[-–—|:]\s|,\s|[()[\];]|(?<!\d)\/(?!\d)|\s(?:with|for|w\/|including)\s/i

/**
 * A title's phrases as lists of whole words: a hyphenated word ("Over-Ear", "T-Shirt") is one
 * word, so no phrase starts or ends inside it ("ear headphones", "running t").
 */
const titlePhrases = (title: string): Array<Array<string>> =>
  title
    .split(PHRASE_BREAK)
    .map((phrase) =>
      phrase
        .split(/\s+/)
        .map(normalize)
        .filter((word) => word.length > 0)
    )
    .filter((words) => words.length > 0)

/**
 * The distinct (phrase, source) pairs one product contributes, each counted once per product
 * so a phrase's frequency is the number of products carrying it:
 * - brand, and every label of every category path (leaf and parents);
 * - the title's leading 1–4-word phrases, not ending in a stopword;
 * - 1–3-word n-grams of whole words within one of the title's phrases, from and to a salient
 *   word ("cordless drill" inside "bosch professional cordless drill gsr12").
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
  if (product.brand) add(normalize(product.brand), BRAND)
  for (const paths of [product.categories, product.productTypes ?? []]) {
    for (const path of paths) for (const label of path.split(">")) add(normalize(label), CATEGORY)
  }
  let budget = MAX_TITLE_WORDS
  titlePhrases(product.title).forEach((phrase, p) => {
    const words = phrase.slice(0, Math.max(0, budget))
    budget -= words.length
    // The title's opening names the product line; its later phrases only give inner n-grams.
    if (p === 0) {
      for (let n = 1; n <= Math.min(LEADING_WORDS, words.length); n++) {
        if (!STOPWORDS.has(lastWord(words[n - 1]))) add(words.slice(0, n).join(" "), TITLE)
      }
    }
    for (let i = p === 0 ? 1 : 0; i < words.length; i++) {
      if (!isSalient(firstWord(words[i]))) continue
      for (let n = 1; n <= NGRAM_WORDS && i + n <= words.length && isSalient(lastWord(words[i + n - 1])); n++) {
        add(words.slice(i, i + n).join(" "), TITLE)
      }
    }
  })
  return out
}

const firstWord = (word: string): string => word.split(" ")[0]
const lastWord = (word: string): string => word.slice(word.lastIndexOf(" ") + 1)
