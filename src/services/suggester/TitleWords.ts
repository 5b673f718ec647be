import { normalize, STOPWORDS } from "../../text/NormalForm.js"

/** A set of the space-separated words of `words`. */
export const wordSet = (words: string): ReadonlySet<string> => new Set(words.split(" "))

/**
 * Words a quantity's number is cut from ("128 GB", "500 ml", "2 Pack", "8 Cup"): a completion
 * ending at the number ("iphone 15 pro 128") is a fragment, while "iphone 15" before "Pro" is a name.
 */
const UNITS: ReadonlySet<string> = wordSet(
  "gb tb mb kb ml l cl oz fl lb lbs kg g mg mm cm m km in inch inches ft feet foot yd mah ah wh v w kw hz khz " +
    "ch k p qt quart quarts cup cups gal gallon gallons liter liters litre litres ounce ounces pound pounds " +
    "amp amps lumen lumens pack pk pcs pc piece pieces count ct x"
)

/** A number as normalized: "12", and "1,000", "2.5" or "7-1/4" become several digit runs. */
const BARE_NUMBER = /^\d+(?: \d+)*$/

/** Whether `text` is the unit of the number before it ("128 GB", "12 in."). */
export const unitOf = (previous: string, text: string): boolean => BARE_NUMBER.test(previous) && UNITS.has(text)

/**
 * A number that measures rather than names: one leading a joined token ("3-Port", "2.1ch",
 * "7-in-1"), an ordinal ("2nd"), a size ("12x16") or one glued to its unit ("65w", "500ml").
 */
const isQuantity = (text: string): boolean => {
  if (/^\d+ |^\d+(?:st|nd|rd|th)$|^\d+x\d+/.test(text)) return true
  const glued = /^\d+([a-z]+)$/.exec(text)
  return glued !== null && UNITS.has(glued[1])
}

/** Roman numerals number a model as digits do ("Watertight II", "Nano II"). */
const ROMAN_NUMERAL = /^(?:ii|iii|iv|vi|vii|viii|ix|xi|xii)$/

/** Acronyms that name what is sold ("SSD 1TB"), where other capitals before a number are a model's code ("GSR 12V"). */
const ACRONYM_KINDS: ReadonlySet<string> = wordSet("ssd hdd tv pc nas dvd gps")

/** A token in capitals ("GSR", "HD"). */
const CAPITALS = /^[A-Z]{2,}$/

/**
 * One word of a title as the shopper sees it: a hyphenated or joined token ("Over-Ear",
 * "T-Shirt", "Dri-FIT") stays one word though it normalizes to several, so a completion never
 * starts or ends inside it ("ear headphones", "running t"); so does the brand the title opens
 * with ("Made In", "The North Face").
 */
export interface TitleWord {
  readonly text: string
  /**
   * Plain vocabulary, which completions inside a title run through. Model numbers and sizes
   * ("gsr12", "500ml") would make nearly every such completion unique to one product,
   * bloating memory for completions nobody types.
   */
  readonly plain: boolean
  /** A model number ("1000xm5", "m185", "15", "ii"): a product line's name may end at it. */
  readonly model: boolean
  /** Capitals before a number ("GSR 12V", "HD 560S"): part of a model, neither a name nor a head. */
  readonly code: boolean
  /** A quantity ("65w", "3 port"), or a number or unit of one ("128 GB"). */
  readonly measure: boolean
  /** The brand the title opens with. */
  readonly brand: boolean
}

/** Stands for the brand's tokens in a title that opens with them, so nothing splits the brand ("Made In"). */
export const BRAND_MARK = "\u0001"

/**
 * The words of a run of tokens with no separator inside; `BRAND_MARK` is `brand` (normalized).
 * In a title in capitals throughout, capitals tell nothing.
 */
export const wordsOf = (tokens: ReadonlyArray<string>, shouting: boolean, brand: string): Array<TitleWord> => {
  const words: Array<TitleWord> = []
  const texts = tokens.map(normalize)
  texts.forEach((text, i) => {
    if (tokens[i] === BRAND_MARK) {
      words.push({ text: brand, plain: true, model: false, code: false, measure: false, brand: true })
      return
    }
    if (text.length === 0) return
    const next = texts[i + 1] ?? ""
    const numbered = /\d/.test(text) || ROMAN_NUMERAL.test(text)
    // A unit after its number ("128 GB") is a spec, not something to complete to alone.
    const unit = unitOf(texts[i - 1] ?? "", text)
    const measure = unit || (BARE_NUMBER.test(text) && UNITS.has(next)) || isQuantity(text)
    words.push({
      text,
      plain: !numbered && !unit && text.replaceAll(" ", "").length >= 2 && !STOPWORDS.has(text),
      model: numbered && !measure,
      code: !shouting && CAPITALS.test(tokens[i]) && /\d/.test(next) && !ACRONYM_KINDS.has(text),
      measure,
      brand: false
    })
  })
  return words
}
