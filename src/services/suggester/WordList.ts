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
 * The distinct words of a vocabulary, sorted: prefix ranges for partial words, and the
 * implicit trie the fuzzy pass walks. Ordered inserts into one big array would cost a memmove
 * per new word (every model number is one), so new words wait unsorted and are merged in on
 * the next read, once per burst of writes; words no longer live are dropped at that merge
 * (until then they simply lead to no phrases).
 */
export class WordList {
  private sorted: Array<string> = []
  private added: Array<string> = []

  constructor(private readonly isLive: (word: string) => boolean) {}

  add(word: string): void {
    this.added.push(word)
  }

  get all(): ReadonlyArray<string> {
    if (this.added.length > 0) {
      const old = this.sorted
      const added = this.added.sort()
      const merged: Array<string> = []
      for (let i = 0, j = 0; i < old.length || j < added.length; ) {
        const word = j === added.length || (i < old.length && old[i] < added[j]) ? old[i++] : added[j++]
        if (this.isLive(word) && merged[merged.length - 1] !== word) merged.push(word)
      }
      this.sorted = merged
      this.added = []
    }
    return this.sorted
  }

  /** Index range of `all` holding the words that start with `prefix`. */
  range(prefix: string): readonly [number, number] {
    const words = this.all
    return [lowerBound(words, prefix), lowerBound(words, `${prefix}\uffff`)]
  }
}
