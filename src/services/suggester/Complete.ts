import { corrections, typoBudget } from "./Fuzzy.js"
import { normalizePrefix } from "../../text/NormalForm.js"
import { BRAND, CATEGORY } from "./Phrases.js"
import { TopHits } from "./TopHits.js"
import { popularityOf, type Vocabulary } from "./Vocabulary.js"

export type SuggestionSource = "query" | "title" | "brand" | "category"

export interface Suggestion {
  readonly suggestion: string
  readonly score: number
  readonly source: SuggestionSource
}

/** Searches of the typed text itself before it is worth suggesting back unchanged. */
const POPULAR_QUERY = 2
/** Past searches fade: one from a month ago weighs half of one today. */
const QUERY_HALF_LIFE_MS = 30 * 24 * 3600 * 1000
/** Corrected spellings tried per word, and combinations kept across words. */
const MAX_ALTERNATIVES = 6

const EXACT = 3
const WORD_START = 2

/** Popularity now: `popularityOf` with each past search fading by its age. */
const popularity = (v: Vocabulary, id: number, now: number): number => {
  const fade = 0.5 ** (Math.max(0, now - v.lastSearched[id]) / QUERY_HALF_LIFE_MS)
  return popularityOf(v.products(id), v.queryCount[id] * fade)
}

const sourceOf = (v: Vocabulary, id: number): SuggestionSource =>
  v.queryCount[id] > 0
    ? "query"
    : v.catalog[BRAND][id] > 0
      ? "brand"
      : v.catalog[CATEGORY][id] > 0
        ? "category"
        : "title"

/** Words of a partial-word range whose buckets are read before any pruning applies. */
const PRESELECT = 32

/**
 * One completion request: the typed words (the last possibly partial, unless the user ended it
 * with a space) matched from the start of a phrase ("first") or of a later word ("inner").
 *
 * Phrase-start buckets are read best first, so a scan stops at the first phrase whose
 * undecayed popularity cannot beat the current last place; a one- or two-letter prefix spans
 * thousands of words, whose buckets are likewise skipped when their bound cannot compete.
 */
class Completion {
  readonly best: TopHits
  constructor(
    private readonly v: Vocabulary,
    private readonly typed: string,
    limit: number,
    private readonly now: number
  ) {
    this.best = new TopHits(v.texts, limit)
  }

  private offer(id: number, tier: number): void {
    if (this.v.texts[id] === this.typed && this.v.queryCount[id] < POPULAR_QUERY) return
    if (!this.v.grounded(id)) return
    this.best.offer({ id, score: tier * 100 + popularity(this.v, id, this.now) })
  }

  /** Offers the phrases of `word`'s phrase-start bucket that pass `accept`, while any can still rank. */
  private scanFirst(word: string, tier: number, accept: (text: string) => boolean): void {
    for (const id of this.v.firstOrdered(word)) {
      if (!this.best.admits(tier * 100 + this.v.ceiling(id))) return
      if (accept(this.v.texts[id])) this.offer(id, tier)
    }
  }

  match(words: ReadonlyArray<string>, lastComplete: boolean, where: "first" | "inner", tier: number): void {
    if (words.length === 1 && !lastComplete) return this.matchWordPrefix(words[0], where, tier)
    // The first word is complete, so its bucket holds every candidate; check the rest in place.
    const typed = words.join(" ")
    const endsWord = (text: string, end: number) => !lastComplete || end === text.length || text.charCodeAt(end) === 32
    if (where === "first") {
      return this.scanFirst(words[0], tier, (text) => text.startsWith(typed) && endsWord(text, typed.length))
    }
    const needle = ` ${typed}`
    for (const id of this.v.inner(words[0])) {
      const text = this.v.texts[id]
      for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
        if (endsWord(text, at + needle.length)) {
          this.offer(id, tier)
          break
        }
      }
    }
  }

  /** Every phrase in the buckets of the words starting with `prefix` matches. */
  private matchWordPrefix(prefix: string, where: "first" | "inner", tier: number): void {
    const v = this.v
    const words = v.words
    const [lo, hi] = v.wordRange(prefix)
    if (where === "inner") {
      for (let w = lo; w < hi; w++) for (const id of v.inner(words[w])) this.offer(id, tier)
      return
    }
    if (hi - lo <= PRESELECT) {
      for (let w = lo; w < hi; w++) this.scanFirst(words[w], tier, () => true)
      return
    }
    // Visit the PRESELECT best-bounded words first so the list fills with strong phrases, then
    // only those words whose bound can still beat its last place.
    const bounds = new Float64Array(hi - lo)
    for (let w = lo; w < hi; w++) bounds[w - lo] = tier * 100 + v.firstBound(words[w])
    const cut = bounds.slice().sort()[bounds.length - PRESELECT]
    for (let w = lo; w < hi; w++) if (bounds[w - lo] >= cut) this.scanFirst(words[w], tier, () => true)
    for (let w = lo; w < hi; w++) {
      if (bounds[w - lo] < cut && this.best.admits(bounds[w - lo])) this.scanFirst(words[w], tier, () => true)
    }
  }
}

/** Spellings of the typed words within the typo budget, cheapest first, excluding the typed one. */
const respellings = (v: Vocabulary, words: ReadonlyArray<string>, lastComplete: boolean, budget: number) => {
  let beams: Array<{ words: Array<string>; cost: number }> = [{ words: [], cost: 0 }]
  words.forEach((word, i) => {
    const partial = i === words.length - 1 && !lastComplete
    // A word also gets no more edits than its own length allows: "gr" is no typo of "drill".
    const options = corrections(v.words, word, Math.min(budget, typoBudget(word.length)), partial ? "prefix" : "word")
    if (!options.some((o) => o.cost === 0)) options.push({ text: word, cost: 0 })
    beams = beams
      .flatMap((b) => options.map((o) => ({ words: [...b.words, o.text], cost: b.cost + o.cost })))
      .filter((b) => b.cost <= budget)
      .sort((a, b) => a.cost - b.cost)
      .slice(0, MAX_ALTERNATIVES)
  })
  return beams.filter((b) => b.cost > 0)
}

/**
 * Completions of `rawPrefix`: exact-prefix matches, then word-start matches, then (only while
 * the result is still short) typo-corrected matches. Within a tier, popularity decides, then
 * brevity. The typed text itself comes back only when it is a popular past search.
 */
export const complete = (v: Vocabulary, rawPrefix: string, limit: number, now: number): Array<Suggestion> => {
  const typed = normalizePrefix(rawPrefix)
  if (typed.text.length === 0 || limit <= 0) return []
  const words = typed.text.split(" ")
  const search = new Completion(v, typed.text, limit, now)
  // `best` holds distinct phrases, so while it is not full it counts every match so far.
  const few = () => search.best.hits.length < limit
  search.match(words, typed.lastWordComplete, "first", EXACT)
  if (few()) search.match(words, typed.lastWordComplete, "inner", WORD_START)
  const budget = typoBudget(typed.text.length)
  if (few() && budget > 0) {
    for (const respelled of respellings(v, words, typed.lastWordComplete, budget)) {
      search.match(respelled.words, typed.lastWordComplete, "first", WORD_START - respelled.cost)
      search.match(respelled.words, typed.lastWordComplete, "inner", WORD_START - respelled.cost)
    }
  }
  return search.best.hits.map(({ id, score }) => ({
    suggestion: v.texts[id],
    score: Math.round(score * 100) / 100,
    source: sourceOf(v, id)
  }))
}
