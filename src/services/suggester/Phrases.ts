import { Schema } from "effect"
import { normalize } from "../../text/NormalForm.js"
import { titlePhrases } from "./TitlePhrases.js"
import type { TitleWord } from "./TitleWords.js"

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

// Words past the 12th are specs and noise. A product line's name ("sony wh 1000xm5", "iphone
// 15") is within a phrase's first 4 words; a run up to a phrase's head within 6 is still typed
// whole ("sony wh 1000xm5 over ear wireless headphones"); a noun with 3 words of its own before
// it is as specific as shoppers type ("noise canceling over ear headphones").
const MAX_TITLE_WORDS = 12
const NAME_WORDS = 4
const OPENING_WORDS = 6
const HEAD_RUN_WORDS = 4
const MAX_PHRASE_CHARS = 80

/**
 * Where a completion from the opening of a phrase may end, besides the phrase's head: after
 * the brand, and at a product line's name, which is a model number or the word before one
 * ("jabra elite" and "jabra elite 4" of "Jabra Elite 4 True Wireless Earbuds", "iphone 15" of
 * "Case for iPhone 15 Pro").
 */
const endsAName = (words: ReadonlyArray<TitleWord>, at: number): boolean => {
  const [word, next] = [words[at], words[at + 1]]
  if (word.brand) return true
  return at > 0 && (word.model || (word.plain && !word.code && next?.model === true))
}

/**
 * The distinct (phrase, source) pairs one product contributes, each counted once per product
 * so a phrase's frequency is the number of products carrying it:
 * - brand, and every label of every category path (leaf and parents);
 * - runs of plain words ending at the head of one of the title's phrases ("cordless drill",
 *   "over ear wireless headphones"), never at a word that only describes it ("wireless noise");
 * - from the opening of a phrase: the run up to its head, the brand, and a product line's name
 *   (see `endsAName`).
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
  const brand = product.brand ? normalize(product.brand) : ""
  if (brand) add(brand, BRAND)
  for (const paths of [product.categories, product.productTypes ?? []]) {
    for (const path of paths) for (const label of path.split(">")) add(normalize(label), CATEGORY)
  }
  let budget = MAX_TITLE_WORDS
  for (const { words: all, starts, ends, qualified } of titlePhrases(product.title, brand)) {
    const words = all.slice(0, Math.max(0, budget))
    budget -= words.length
    if (words.length > 0 && words[0].plain) {
      for (let at = 0; at < Math.min(NAME_WORDS, words.length); at++) {
        if (endsAName(words, at)) add(join(words.slice(0, at + 1)), TITLE)
      }
      for (const end of ends) if (end < Math.min(OPENING_WORDS, words.length)) add(join(words.slice(0, end + 1)), TITLE)
    }
    ends.forEach((end, e) => {
      // A qualifying head ("set", "pro") completes only after the word it qualifies.
      const shortest = qualified && e === 0 ? 2 : 1
      for (let n = shortest; n <= HEAD_RUN_WORDS && n <= end + 1 && end < words.length; n++) {
        if (!words[end + 1 - n].plain) break
        if (starts[end + 1 - n]) add(join(words.slice(end + 1 - n, end + 1)), TITLE)
      }
    })
  }
  return out
}
