/**
 * Ranked candidates of one completion request. Candidates arrive by the thousand and only
 * `limit` (about ten) are kept, so a short sorted array with insertion beats any heap.
 */
export interface Hit {
  readonly id: number
  /** Tier × 100 + popularity: tiers never interleave (exact 3, word-start 2, fuzzy 2 − edits). */
  readonly score: number
}

/** The best `limit` hits seen so far, best first; ties go to the shorter, then alphabetical text. */
export class TopHits {
  readonly hits: Array<Hit> = []
  constructor(
    private readonly texts: ReadonlyArray<string>,
    private readonly limit: number
  ) {}

  private before(a: Hit, b: Hit): boolean {
    const ta = this.texts[a.id]
    const tb = this.texts[b.id]
    return a.score !== b.score ? a.score > b.score : ta.length !== tb.length ? ta.length < tb.length : ta < tb
  }

  /** Whether a hit scoring `score` could still enter the list. */
  admits(score: number): boolean {
    return this.hits.length < this.limit || score >= this.hits[this.hits.length - 1].score
  }

  offer(hit: Hit): void {
    const hits = this.hits
    if (hits.length === this.limit && !this.before(hit, hits[hits.length - 1])) return
    const same = hits.findIndex((h) => h.id === hit.id)
    if (same >= 0) {
      if (!this.before(hit, hits[same])) return
      hits.splice(same, 1)
    }
    let at = hits.length
    while (at > 0 && this.before(hit, hits[at - 1])) at--
    hits.splice(at, 0, hit)
    if (hits.length > this.limit) hits.pop()
  }
}
