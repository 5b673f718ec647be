import type { CatalogKind } from "./Phrases.js"
import { CONNECTORS } from "./TitlePhrases.js"
import { WordList } from "./WordList.js"

/**
 * Popularity in [0, 100): log-scaled so one runaway phrase cannot bury the rest. A search
 * counts double (in log space) a product carrying the phrase: it is demand, a title is supply.
 */
export const popularityOf = (products: number, searches: number): number =>
  Math.min(99.99, Math.log2(1 + products) + 2 * Math.log2(1 + searches))

interface Postings {
  /** Phrases whose first word is this word, best first once `ordered`: exact-prefix candidates. */
  readonly first: Array<number>
  ordered: boolean
  /** Phrases holding this word at a later position: word-start candidates. */
  readonly inner: Array<number>
  /**
   * Largest product and search counts seen in `first`: never lowered, so still an upper bound
   * after removals, and it lets a short prefix skip a word's bucket without ordering it.
   */
  maxProducts: number
  maxSearches: number
}

const NONE: ReadonlyArray<number> = []

/**
 * One site's phrases (catalog-derived and searched queries) and the indexes completion runs on.
 *
 * Phrases get small integer ids with their counters in parallel arrays, not one object each.
 * Rather than one sorted array of all phrases (costly to keep sorted under live updates), the
 * phrases are bucketed by word: the prefix's first word selects a bucket, and only the list of
 * distinct words needs ordering. That list doubles as the implicit trie the fuzzy pass walks.
 * Everything updates in place; a bucket is re-ordered by popularity only when next read.
 */
export class Vocabulary {
  private readonly ids = new Map<string, number>()
  private readonly freeIds: Array<number> = []
  private readonly postings = new Map<string, Postings>()
  readonly texts: Array<string> = []
  /** Number of products contributing each phrase, per catalog source (title, brand, category). */
  readonly catalog: readonly [Array<number>, Array<number>, Array<number>] = [[], [], []]
  /** Times the phrase was searched with results, and when last (epoch ms). */
  readonly queryCount: Array<number> = []
  readonly lastSearched: Array<number> = []
  /** Each phrase's first-word bucket, to keep its order and bounds current without re-splitting. */
  private readonly firstOf: Array<Postings> = []
  private readonly wordList = new WordList((word) => this.postings.has(word))
  /** For each word, how many catalog phrases (carried by at least one product) contain it. */
  private readonly catalogWords = new Map<string, number>()

  /** Counts one more product carrying the phrase from this source; returns the phrase id. */
  addCatalog(phrase: string, kind: CatalogKind): number {
    const id = this.intern(phrase)
    if (this.products(id) === 0) this.countWords(phrase, 1)
    this.catalog[kind][id]++
    this.changed(id)
    return id
  }

  /** Undoes one `addCatalog`; the id must come from it. */
  removeCatalog(id: number, kind: CatalogKind): void {
    this.catalog[kind][id]--
    if (this.products(id) === 0) this.countWords(this.texts[id], -1)
    this.changed(id)
    this.releaseIfUnused(id)
  }

  /**
   * Whether the phrase may be offered as a completion: a catalog phrase always; a searched
   * query only while every one of its words is in the catalog. Anyone holding the public
   * read-only token can search, so a search alone must not be able to put arbitrary words into
   * other shoppers' completions; and when the products a query named are deleted, it stops
   * being offered.
   */
  grounded(id: number): boolean {
    if (this.products(id) > 0) return true
    for (const word of this.texts[id].split(" ")) {
      // Titles give no phrase holding a connector ("maker with milk"), yet a clicked
      // "coffee maker with milk frother" is grounded; a fixed list of words plants nothing.
      if (!this.catalogWords.has(word) && !CONNECTORS.has(word)) return false
    }
    return true
  }

  private countWords(phrase: string, delta: 1 | -1): void {
    this.eachWord(phrase, (word) => {
      const count = (this.catalogWords.get(word) ?? 0) + delta
      if (count > 0) this.catalogWords.set(word, count)
      else this.catalogWords.delete(word)
    })
  }

  addSearches(phrase: string, count: number, at: number): void {
    const id = this.intern(phrase)
    this.queryCount[id] += count
    this.lastSearched[id] = Math.max(this.lastSearched[id], at)
    this.changed(id)
  }

  /** Product contributions; a product naming the phrase in two fields (brand and title) counts twice. */
  products(id: number): number {
    return this.catalog[0][id] + this.catalog[1][id] + this.catalog[2][id]
  }

  /** Popularity before searches fade with age: the bound the bucket order is kept by. */
  ceiling(id: number): number {
    return popularityOf(this.products(id), this.queryCount[id])
  }

  /** Phrases starting with `word`, highest `ceiling` first. */
  firstOrdered(word: string): ReadonlyArray<number> {
    const entry = this.postings.get(word)
    if (entry === undefined) return NONE
    if (!entry.ordered) {
      entry.first.sort((a, b) => this.ceiling(b) - this.ceiling(a))
      entry.ordered = true
    }
    return entry.first
  }

  inner(word: string): ReadonlyArray<number> {
    return this.postings.get(word)?.inner ?? NONE
  }

  /** Upper bound of `ceiling` over the phrases starting with `word`. */
  firstBound(word: string): number {
    const entry = this.postings.get(word)
    return entry === undefined ? 0 : popularityOf(entry.maxProducts, entry.maxSearches)
  }

  /** Distinct words of all live phrases, sorted. */
  get words(): ReadonlyArray<string> {
    return this.wordList.all
  }

  /** Index range of `words` starting with `prefix`. */
  wordRange(prefix: string): readonly [number, number] {
    return this.wordList.range(prefix)
  }

  private changed(id: number): void {
    const bucket = this.firstOf[id]
    bucket.ordered = false
    bucket.maxProducts = Math.max(bucket.maxProducts, this.products(id))
    bucket.maxSearches = Math.max(bucket.maxSearches, this.queryCount[id])
  }

  private intern(phrase: string): number {
    const known = this.ids.get(phrase)
    if (known !== undefined) return known
    const id = this.freeIds.pop() ?? this.texts.length
    this.ids.set(phrase, id)
    this.texts[id] = phrase
    this.catalog[0][id] = this.catalog[1][id] = this.catalog[2][id] = 0
    this.queryCount[id] = 0
    this.lastSearched[id] = 0
    this.eachWord(phrase, (word, where) => {
      let entry = this.postings.get(word)
      if (entry === undefined) {
        entry = { first: [], ordered: true, inner: [], maxProducts: 0, maxSearches: 0 }
        this.postings.set(word, entry)
        this.wordList.add(word)
      }
      entry[where].push(id)
      if (where === "first") this.firstOf[id] = entry
    })
    return id
  }

  /** Drops a phrase no product or search supports any more, so removed products leave no trace. */
  private releaseIfUnused(id: number): void {
    if (this.products(id) > 0 || this.queryCount[id] > 0) return
    const phrase = this.texts[id]
    this.eachWord(phrase, (word, where) => {
      const entry = this.postings.get(word)!
      const list = entry[where]
      // Swap-remove; `changed` already marked the first-word bucket for re-ordering.
      list[list.lastIndexOf(id)] = list[list.length - 1]
      list.pop()
      if (entry.first.length === 0 && entry.inner.length === 0) this.postings.delete(word)
    })
    this.ids.delete(phrase)
    this.texts[id] = ""
    this.freeIds.push(id)
  }

  /** Each word with its bucket; a word repeated later in the phrase is posted once as inner. */
  private eachWord(phrase: string, f: (word: string, where: "first" | "inner") => void): void {
    const words = phrase.split(" ")
    f(words[0], "first")
    for (let i = 1; i < words.length; i++) {
      if (words.indexOf(words[i], 1) === i) f(words[i], "inner")
    }
  }
}
