import { normalize } from "../../text/NormalForm.js"
import { BRAND_MARK, type TitleWord, unitOf, wordSet, wordsOf } from "./TitleWords.js"

/**
 * Where a title's phrases part: a spaced dash, ",", "|", ":", ";", "+", a slash not inside a
 * fraction ("1/2"). "Espresso Machine, Brushed Steel" names two things; a completion joining
 * them ("machine brushed steel") is nothing a shopper would type.
 */
const PHRASE_BREAK = /\s+[-–—|:+]\s+|:\s|,(?!\d)|[;|]|(?<!\d)\/|\/(?!\d)|\s[–—]|[–—]\s/

/**
 * Bracketed text qualifies the product ("(2nd Generation)", "(Pack of 6)", "(USB-C)") rather
 * than naming it: it gives no completion, and it parts the phrases around it.
 */
const BRACKETED = /\([^()]*\)?|\[[^[\]]*\]?|\{[^{}]*\}?|[()[\]{}]/g

/**
 * Words that join two phrases rather than belong to either ("Coffee Maker with Milk Frother",
 * "Shoes for Kids"): each starts a new phrase, and no completion ends in one.
 */
export const CONNECTORS: ReadonlySet<string> = wordSet(
  "with without for and or in by of from on at to including featuring"
)

/** Connectors joining two of a kind: "Coffee and Espresso Machine" is a coffee machine. */
const COORDINATORS: ReadonlySet<string> = wordSet("and or")

/** The catalog's shorthands for connectors, spelled out before the title is split. */
const expandShorthands = (title: string): string =>
  title
    .replace(/(^|\s)w\/o(?=\s)/gi, "$1 without ")
    .replace(/(^|\s)w\/(?=\s)/gi, "$1 with ")
    .replace(/\s&\s/g, " and ")

/**
 * Words that qualify the noun before them ("Drill Driver Set", "AirPods Pro", "Smart Plug
 * Mini"): a completion ends at one only after that noun, and at that noun too.
 */
const QUALIFIERS: ReadonlySet<string> = wordSet(
  "set sets kit kits pack packs bundle bundles combo pair pairs collection pro max mini plus ultra lite edition"
)

/** Colours and sizes a title trails after the thing it names ("Cordless Drill AB1234 Black", "Comforter Queen"). */
const ATTRIBUTES: ReadonlySet<string> = wordSet(
  "black white grey gray silver red blue navy green beige brown pink purple yellow orange gold cream ivory khaki " +
    "tan teal turquoise burgundy maroon olive queen king twin small medium large"
)

/**
 * What a quantity comes in or counts ("Black Beans 15 oz Can", "Nest Cam 2nd Gen"): after the
 * quantity, it is not the thing sold.
 */
const COUNTED: ReadonlySet<string> = wordSet(
  "can cans jar jars bottle bottles box boxes bag bags pouch tub carton gen generation"
)

/** Particles that belong to the word before ("Lace Up Boots"): no completion starts at one. */
const PARTICLES: ReadonlySet<string> = wordSet("up down off out")

/**
 * Words that belong to the word after ("Over Ear Headphones" unhyphenated, "Twin over Twin"):
 * no completion starts after one ("ear headphones") or ends at one.
 */
const PREFIXES: ReadonlySet<string> = wordSet("over under")

/**
 * A run of whole words with no separator or connector inside, and where completions from it
 * end: at its head, the noun it names (usually its last plain word: "headphones", "t shirt"),
 * and before a qualifying head ("drill driver" of "drill driver set").
 */
export interface TitlePhrase {
  readonly words: ReadonlyArray<TitleWord>
  /** Whether a completion inside the phrase may start at each word. */
  readonly starts: ReadonlyArray<boolean>
  /** Where completions end: the head, then the word before it when the head qualifies that word. */
  readonly ends: ReadonlyArray<number>
  /** Whether the head qualifies the word before it ("set" of "drill driver set"): never a completion alone. */
  readonly qualified: boolean
}

/** The last index before `before` whose word passes `ok`, or -1. */
const lastWhere = (words: ReadonlyArray<TitleWord>, before: number, ok: (w: TitleWord) => boolean): number => {
  for (let i = before - 1; i >= 0; i--) if (ok(words[i])) return i
  return -1
}

/**
 * The head's index: the last plain word, passing over what trails the noun: a model code
 * ("Drill GSR 12V"), a colour or size ("Running Shoes Black", "Drill AB1234 Black"; "Matte
 * Black" keeps its colour), a package after a quantity ("Beans 15 oz Can"). -1 with no plain word.
 */
const headOf = (words: ReadonlyArray<TitleWord>): number => {
  const nominal = (w: TitleWord) => w.plain && !w.code && !PREFIXES.has(w.text)
  const named = lastWhere(words, words.length, nominal)
  let head = named >= 0 ? named : lastWhere(words, words.length, (w) => w.plain && !PREFIXES.has(w.text))
  if (head > 0 && COUNTED.has(words[head].text) && words[head - 1].measure) {
    const noun = lastWhere(words, head, nominal)
    if (noun >= 0) head = noun
  }
  if (head < 0 || !ATTRIBUTES.has(words[head].text)) return head
  const noun = lastWhere(words, head, (w) => nominal(w) && !ATTRIBUTES.has(w.text))
  if (noun < 0) return head
  const modelBetween = words.slice(noun + 1, head).some((w) => !w.plain)
  return modelBetween || lastWhere(words, noun, (w) => w.plain) >= 0 ? noun : head
}

/** How many of the title's leading tokens spell the brand, or 0 when it does not open with it. */
const brandTokens = (tokens: ReadonlyArray<string>, brand: string): number => {
  let spelled = ""
  for (let n = 1; n <= tokens.length && spelled.length < brand.length; n++) {
    spelled = normalize(tokens.slice(0, n).join(" "))
    if (spelled === brand) return n
  }
  return 0
}

/** The title with the brand it opens with as `BRAND_MARK`, keeping what follows the brand ("Brand, Model"). */
const markBrand = (title: string, brand: string): string => {
  const tokens = title.split(/\s+/).filter((token) => token.length > 0)
  const n = brand.length > 0 ? brandTokens(tokens, brand) : 0
  if (n === 0) return title
  const after = /[^\p{L}\p{N}]*$/u.exec(tokens[n - 1])?.[0] ?? ""
  return [BRAND_MARK + after, ...tokens.slice(n)].join(" ")
}

/**
 * The title's phrases, in order; bracketed text is left out. `brand` (normalized) is one
 * word where the title opens with it, whatever it holds ("Made In", "Bath & Body Works").
 */
export const titlePhrases = (title: string, brand = ""): Array<TitlePhrase> => {
  const shouting = title === title.toUpperCase()
  const phrases: Array<TitlePhrase> = []
  for (const part of expandShorthands(markBrand(title, brand)).replace(BRACKETED, " | ").split(PHRASE_BREAK)) {
    const tokens = part.split(/\s+/).filter((token) => token.length > 0)
    let start = 0
    tokens.forEach((token, i) => {
      const text = normalize(token)
      // "12 in." measures.
      const connector = CONNECTORS.has(text) && !unitOf(normalize(tokens[i - 1] ?? ""), text)
      if (!connector && i < tokens.length - 1) return
      const words = wordsOf(tokens.slice(start, connector ? i : i + 1), shouting, brand)
      // "Coffee and Espresso Machine": "coffee" is no head, it shares "machine"; "Pots and Pans" are two.
      const sharesHead = connector && COORDINATORS.has(text) && plainWords(tokens.slice(i + 1)) > 1
      if (words.length > 0) phrases.push(phraseOf(words, sharesHead))
      start = i + 1
    })
  }
  return phrases
}

/** Plain words up to the next connector. */
const plainWords = (tokens: ReadonlyArray<string>): number => {
  const until = tokens.findIndex((t) => CONNECTORS.has(normalize(t)))
  return wordsOf(until < 0 ? tokens : tokens.slice(0, until), false, "").filter((w) => w.plain).length
}

const phraseOf = (words: ReadonlyArray<TitleWord>, headless: boolean): TitlePhrase => {
  const head = headless ? -1 : headOf(words)
  const qualified = head > 0 && QUALIFIERS.has(words[head].text) && words[head - 1].plain
  return {
    words,
    // A qualifier after a number qualifies it ("20V MAX Cordless Drill", "Buds2 Pro True Wireless").
    starts: words.map((w, i) => {
      const after = words[i - 1]
      if (!w.plain || PARTICLES.has(w.text) || (after !== undefined && PREFIXES.has(after.text))) return false
      return !(QUALIFIERS.has(w.text) && after !== undefined && !after.plain)
    }),
    ends: head < 0 ? [] : qualified ? [head, head - 1] : [head],
    qualified
  }
}
