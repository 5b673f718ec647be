import { titlePairs } from "../../../text/TextAnalysis.js"

/**
 * The slots whose title holds each pair of neighbouring terms (see `titlePairs`): what a
 * phrase match is looked up in. A pair held by one slot, as most are, is that slot's number;
 * a shared one an array of slots.
 */
export class PairPostings {
  private readonly holders = new Map<string, number | Array<number>>()

  put(slot: number, title: string): void {
    for (const pair of titlePairs(title)) {
      const held = this.holders.get(pair)
      if (held === undefined) this.holders.set(pair, slot)
      else if (typeof held === "number") this.holders.set(pair, [held, slot])
      else held.push(slot)
    }
  }

  delete(slot: number, title: string): void {
    for (const pair of titlePairs(title)) {
      const held = this.holders.get(pair)
      if (held === slot) this.holders.delete(pair)
      else if (Array.isArray(held)) {
        const at = held.indexOf(slot)
        if (at >= 0) held.splice(at, 1)
        if (held.length === 1) this.holders.set(pair, held[0])
      }
    }
  }

  /** The slots holding `pair`. */
  slotsOf(pair: string): ReadonlyArray<number> {
    const held = this.holders.get(pair)
    return held === undefined ? [] : typeof held === "number" ? [held] : held
  }
}
