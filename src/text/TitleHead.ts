import { headGroup, queryWords } from "./TextAnalysis.js"

/**
 * Where a title's naming phrase ends: what follows names a variant, a part or a use ("Stoneware
 * Mug - Red", "Drill, 20V", "Sofa with Chaise", "Case for iPhone").
 */
const PHRASE_END =
  /\s[-–—|:]\s|,\s|[([;]|(?<!\d)\/(?!\d)|(?<![\d.]\s?\w{0,3}\.?)\sin\s|\s(?:with|for|w\/|by|including)\s/i

/**
 * The stem of a title's head word: the last word of its naming phrase that is no colour, size,
 * audience or number ("watch" of "Armitron Men's Gold Dress Watch", "dress" of "Women's Gold
 * Sleeveless Dress - Chiasso"); null when none.
 */
export const titleHead = (title: string): string | null => {
  const phrase = title.split(PHRASE_END)[0] ?? title
  const words = queryWords(phrase)
  const group = headGroup(words)
  if (group === null) return null
  const head = words.find((word) => word.group === group)
  return head === undefined ? null : head.stem
}

/**
 * The stem of a query's head word (see `headGroup`) in its naming phrase, as a title's ("fan"
 * of "ceiling fan with light", "case" of "case for iphone 6"); null when every word is a modifier.
 */
export const queryHead = (text: string): string | null => {
  const words = queryWords(text.split(PHRASE_END)[0] ?? text)
  const group = headGroup(words)
  if (group === null) return null
  return words.find((word) => word.group === group)?.stem ?? null
}
