/** Whether the ascending `ids` hold `id` (a binary search). */
export const holdsId = (ids: Uint32Array, id: number): boolean => {
  let low = 0
  let high = ids.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const at = ids[middle]
    if (at === id) return true
    if (at < id) low = middle + 1
    else high = middle - 1
  }
  return false
}

const EMPTY = new Uint32Array(0)

/**
 * By term id: the slots of the points holding the term in some field, so a result set is
 * counted to its last member in memory (Qdrant's lists stop at their best; see
 * SiteTerms.covering). A point that lets a term go (a new text, a removal) leaves its slot
 * behind in the term's list, which is then stale: swept before it is read next (or once it
 * grows to twice its holders), so a read checks nothing per slot. A term no point holds is
 * dropped (its id may be another term's next).
 */
export class TermPostings {
  private readonly lists: Array<Array<number> | undefined> = []
  private readonly stale = new Set<number>()

  /** `termsAt`: the term ids (ascending) the point in a slot holds now; none for a free slot. */
  constructor(private readonly termsAt: (slot: number) => Uint32Array | undefined) {}

  /** Whether some slot is listed for the term. */
  has(id: number): boolean {
    return this.lists[id] !== undefined
  }

  /** The point in `slot` holds the term now, one of `holders` points that do. */
  add(id: number, slot: number, holders: number): void {
    const slots = this.lists[id]
    if (slots === undefined) {
      this.lists[id] = [slot]
      return
    }
    if (slots.length >= 2 * holders + 8) this.sweep(id, slots)
    slots.push(slot)
  }

  /** A point let the term go; `left` points still hold it. */
  letGo(id: number, left: number): void {
    if (left > 0) this.stale.add(id)
    else {
      this.lists[id] = undefined
      this.stale.delete(id)
    }
  }

  /** The slots of the points holding the term, each once. */
  holders(id: number): ReadonlyArray<number> {
    const slots = this.lists[id]
    if (slots === undefined) return []
    if (this.stale.has(id)) this.sweep(id, slots)
    return slots
  }

  /** The term's list without the slots that no longer hold it, each once. */
  private sweep(id: number, slots: Array<number>): void {
    const kept = new Set<number>()
    for (const listed of slots) if (holdsId(this.termsAt(listed) ?? EMPTY, id)) kept.add(listed)
    slots.length = 0
    slots.push(...kept)
    this.stale.delete(id)
  }
}
