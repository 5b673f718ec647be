import type { CatalogKind } from "./phrases.js"

interface Postings {
  /** Phrases whose first word is this word: candidates for an exact-prefix match. */
  readonly first: Array<number>
  /** Phrases holding this word at a later position: candidates for a word-start match. */
  readonly inner: Array<number>
  /**
   * Largest product and search counts seen among `first`: an upper bound (never lowered, so
   * still a bound after removals) that lets a short prefix skip whole words' buckets.
   */
  maxCatalog: number
  maxSearches: number
}

const NONE: ReadonlyArray<number> = []

const lowerBound = (sorted: ReadonlyArray<string>, key: string): number => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * One site's phrases (catalog-derived and searched queries) and the indexes completion runs on.
 *
 * Phrases get small integer ids and their counters live in parallel arrays rather than one
 * object per phrase, which keeps a 100k-product catalog's few hundred thousand phrases cheap.
 * Instead of one sorted array of all phrases (costly to keep sorted under live updates), the
 * phrases are bucketed by word: a prefix's first word selects the bucket, and only the sorted
 * list of distinct words (tens of thousands) needs ordered inserts. That list also serves as
 * the implicit trie the fuzzy pass walks. Everything updates in place; nothing is rebuilt.
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
  /** Each phrase's first-word bucket, to keep its bounds current without re-splitting. */
  private readonly firstOf: Array<Postings> = []
  /**
   * Distinct words, sorted, for prefix ranges and the fuzzy walk. Ordered inserts into one big
   * array would cost a memmove per new word (every model number is one), so new words wait in
   * `newWords` and are merged in on the next read; words gone from `postings` are dropped then.
   */
  private sortedWords: Array<string> = []
  private newWords: Array<string> = []

  /** Counts one more product carrying the phrase from this source; returns the phrase id. */
  addCatalog(phrase: string, kind: CatalogKind): number {
    const id = this.intern(phrase)
    this.catalog[kind][id]++
    const bucket = this.firstOf[id]
    bucket.maxCatalog = Math.max(bucket.maxCatalog, this.catalogCount(id))
    return id
  }

  /** Undoes one `addCatalog`; the id must come from it. */
  removeCatalog(id: number, kind: CatalogKind): void {
    this.catalog[kind][id]--
    this.releaseIfUnused(id)
  }

  addSearches(phrase: string, count: number, at: number): void {
    const id = this.intern(phrase)
    this.queryCount[id] += count
    this.lastSearched[id] = Math.max(this.lastSearched[id], at)
    const bucket = this.firstOf[id]
    bucket.maxSearches = Math.max(bucket.maxSearches, this.queryCount[id])
  }

  catalogCount(id: number): number {
    return this.catalog[0][id] + this.catalog[1][id] + this.catalog[2][id]
  }

  postingsOf(word: string, where: "first" | "inner"): ReadonlyArray<number> {
    return this.postings.get(word)?.[where] ?? NONE
  }

  /** Upper bounds of product and search counts over the phrases starting with `word`. */
  firstBounds(word: string): { readonly maxCatalog: number; readonly maxSearches: number } {
    return this.postings.get(word) ?? { maxCatalog: 0, maxSearches: 0 }
  }

  get words(): ReadonlyArray<string> {
    if (this.newWords.length > 0) {
      const added = this.newWords.sort()
      const merged: Array<string> = []
      let i = 0
      let j = 0
      while (i < this.sortedWords.length || j < added.length) {
        const word = j === added.length || (i < this.sortedWords.length && this.sortedWords[i] < added[j])
          ? this.sortedWords[i++]
          : added[j++]
        if (this.postings.has(word) && merged[merged.length - 1] !== word) merged.push(word)
      }
      this.sortedWords = merged
      this.newWords = []
    }
    return this.sortedWords
  }

  /** Index range of `words` starting with `prefix`. */
  wordRange(prefix: string): readonly [number, number] {
    const words = this.words
    return [lowerBound(words, prefix), lowerBound(words, prefix + "\uffff")]
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
        entry = { first: [], inner: [], maxCatalog: 0, maxSearches: 0 }
        this.postings.set(word, entry)
        this.newWords.push(word)
      }
      entry[where].push(id)
      if (where === "first") this.firstOf[id] = entry
    })
    return id
  }

  /** Drops a phrase no product or query supports any more, so removed products leave no trace. */
  private releaseIfUnused(id: number): void {
    if (this.catalogCount(id) > 0 || this.queryCount[id] > 0) return
    const phrase = this.texts[id]
    this.eachWord(phrase, (word, where) => {
      const entry = this.postings.get(word)!
      const list = entry[where]
      // Order inside a bucket carries no meaning, so swap-remove keeps this O(bucket scan).
      list[list.lastIndexOf(id)] = list[list.length - 1]
      list.pop()
      // The sorted list forgets the word at its next merge; until then it just has no phrases.
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
