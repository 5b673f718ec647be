import type { Condition, Filter } from "../../../model/Filter.js"
import type { PayloadValue } from "../../../model/IndexDocument.js"
import { SlotList } from "./SlotList.js"
import { termsOf } from "../ColumnValues.js"

/** One byte per document slot: 1 = in the set. Cheap to build, AND and test at 100k slots. */
export type SlotMask = Uint8Array

class Column {
  /**
   * value → slots holding it: `anyOf` costs the size of the answer, not of the site. A value
   * held by one slot (a GTIN, a part number) is that slot's number rather than a list: most
   * values of such columns are unique, and a collection each would cost memory per product.
   */
  readonly postings = new Map<string, number | SlotList>()
  /** NaN marks a missing or non-numeric value, which no range accepts. */
  numbers: Float64Array = new Float64Array(0)
  /**
   * Per slot, 1 + the number of its one term in `terms` (0: none, or several): a set's value
   * counts are then one array read per member. `multiSlots` counts slots with several terms;
   * while there are any, counting reads the postings instead.
   */
  codes: Int32Array = new Int32Array(0)
  readonly terms: Array<string> = []
  readonly termCodes = new Map<string, number>()
  multiSlots = 0

  codeOf(term: string): number {
    let code = this.termCodes.get(term)
    if (code === undefined) {
      this.terms.push(term)
      this.termCodes.set(term, (code = this.terms.length))
    }
    return code
  }
}

/** Whether two column values are the same (sets element by element). */
export const sameValue = (a: PayloadValue | undefined, b: PayloadValue | undefined): boolean => {
  if (a === b) return true
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Inverted lists and numeric arrays over the payload columns of one site. */
export class PayloadColumns {
  private readonly columns = new Map<string, Column>()

  put(slot: number, payload: Readonly<Record<string, PayloadValue>>): void {
    for (const [name, value] of Object.entries(payload)) this.putValue(slot, name, value)
  }

  /** Forgets the values `payload` put for `slot`. */
  delete(slot: number, payload: Readonly<Record<string, PayloadValue>>): void {
    for (const [name, value] of Object.entries(payload)) this.deleteValue(slot, name, value)
  }

  /**
   * Moves `slot` from `previous` to `next`, touching only the columns whose value changed: a
   * price change leaves the category, brand and availability lists alone (removing a slot
   * from a long list costs the list).
   */
  replace(
    slot: number,
    previous: Readonly<Record<string, PayloadValue>>,
    next: Readonly<Record<string, PayloadValue>>
  ): void {
    for (const [name, value] of Object.entries(previous)) {
      if (!sameValue(value, next[name])) this.deleteValue(slot, name, value)
    }
    for (const [name, value] of Object.entries(next)) {
      if (!sameValue(value, previous[name])) this.putValue(slot, name, value)
    }
  }

  private putValue(slot: number, name: string, value: PayloadValue): void {
    const column = this.column(name)
    const terms = termsOf(value)
    if (terms.length > 0) {
      if (slot >= column.codes.length) column.codes = growCodes(column.codes, slot)
      column.codes[slot] = terms.length === 1 ? column.codeOf(terms[0]) : 0
      if (terms.length > 1) column.multiSlots++
    }
    for (const term of terms) {
      const slots = column.postings.get(term)
      if (slots === undefined) column.postings.set(term, slot)
      else if (typeof slots === "number") {
        if (slots !== slot) column.postings.set(term, slotList(slots, slot))
      } else slots.add(slot)
    }
    if (typeof value === "number") {
      if (slot >= column.numbers.length) column.numbers = grow(column.numbers, slot)
      column.numbers[slot] = value
    }
  }

  private deleteValue(slot: number, name: string, value: PayloadValue): void {
    const column = this.columns.get(name)
    if (column === undefined) return
    const terms = termsOf(value)
    if (slot < column.codes.length) column.codes[slot] = 0
    if (terms.length > 1) column.multiSlots--
    for (const term of terms) {
      const slots = column.postings.get(term)
      if (slots === slot) column.postings.delete(term)
      else if (typeof slots === "object") {
        slots.delete(slot)
        if (slots.size === 0) column.postings.delete(term)
      }
    }
    if (slot < column.numbers.length) column.numbers[slot] = NaN
  }

  /**
   * Per value of a column, how many slots of `mask` hold it; with `groups` (a group number per
   * slot, -1 for a slot that is a group of its own), how many groups. Costs the column's
   * postings, whatever the mask: the way to count a large set (a small one reads its payloads).
   */
  termCounts(
    name: string,
    mask: SlotMask,
    slots: ReadonlyArray<number>,
    groups?: { readonly of: Int32Array; readonly count: number }
  ): Array<{ value: string; count: number }> {
    const column = this.columns.get(name)
    if (column === undefined) return []
    const counts: Array<{ value: string; count: number }> = []
    if (groups === undefined && column.multiSlots === 0) {
      // One term per slot at most: one read per member.
      const tally = new Int32Array(column.terms.length + 1)
      const codes = column.codes
      for (const slot of slots) if (slot < codes.length) tally[codes[slot]]++
      for (let code = 1; code < tally.length; code++)
        if (tally[code] > 0) counts.push({ value: column.terms[code - 1], count: tally[code] })
      return counts
    }
    const stamp = groups === undefined ? null : new Int32Array(groups.count).fill(-1)
    let serial = 0
    for (const [value, slots] of column.postings) {
      let count = 0
      if (groups === undefined)
        count = typeof slots === "number" ? (slots < mask.length ? mask[slots] : 0) : slots.countIn(mask)
      else {
        serial++
        for (const slot of typeof slots === "number" ? [slots] : slots.view()) {
          if (slot >= mask.length || mask[slot] === 0) continue
          const group = groups.of[slot]
          if (group < 0) count++
          else if (stamp![group] !== serial) {
            stamp![group] = serial
            count++
          }
        }
      }
      if (count > 0) counts.push({ value, count })
    }
    return counts
  }

  /** Each slot of `mask`'s group: a dense number per value of the column, -1 for a slot without one. */
  groupNumbers(name: string, mask: SlotMask): { readonly of: Int32Array; readonly count: number } {
    const of = new Int32Array(mask.length).fill(-1)
    let count = 0
    const column = this.columns.get(name)
    if (column === undefined) return { of, count }
    if (column.multiSlots === 0) {
      // One value per slot at most: the masked slots' codes, numbered as first met. Reading
      // every posting instead cost a search at 50,000 products (as many groups) ~7 % of its CPU.
      const numberOf = new Int32Array(column.terms.length + 1).fill(-1)
      const codes = column.codes
      const end = Math.min(mask.length, codes.length)
      for (let slot = 0; slot < end; slot++) {
        const code = codes[slot]
        if (mask[slot] === 0 || code === 0) continue
        if (numberOf[code] < 0) numberOf[code] = count++
        of[slot] = numberOf[code]
      }
      return { of, count }
    }
    for (const slots of column.postings.values()) {
      let used = false
      for (const slot of typeof slots === "number" ? [slots] : slots.view()) {
        if (slot >= mask.length || mask[slot] === 0) continue
        of[slot] = count
        used = true
      }
      if (used) count++
    }
    return { of, count }
  }

  /** The column's numbers by slot (NaN: none); may be shorter than the slots. */
  numbers(name: string): Float64Array {
    return this.columns.get(name)?.numbers ?? new Float64Array(0)
  }

  numberAt(name: string, slot: number): number {
    const numbers = this.columns.get(name)?.numbers
    return numbers !== undefined && slot < numbers.length ? numbers[slot] : NaN
  }

  /** `base` narrowed by the filter; a missing column fails every `must` and no `mustNot`. */
  filterMask(filter: Filter, base: SlotMask): SlotMask {
    const mask = base.slice()
    for (const condition of filter.must) {
      const accepted = this.conditionMask(condition, mask.length)
      for (let slot = 0; slot < mask.length; slot++) mask[slot] &= accepted[slot]
    }
    for (const condition of filter.mustNot) {
      const rejected = this.conditionMask(condition, mask.length)
      for (let slot = 0; slot < mask.length; slot++) mask[slot] &= rejected[slot] ^ 1
    }
    return mask
  }

  /** Slots (below `size`) whose value satisfies `condition`. */
  conditionMask(condition: Condition, size: number): SlotMask {
    const mask = new Uint8Array(size)
    const column = this.columns.get(condition.column)
    if (column === undefined) return mask
    if ("range" in condition) {
      const { gte = -Infinity, lt = Infinity } = condition.range
      const numbers = column.numbers
      for (let slot = 0; slot < Math.min(size, numbers.length); slot++) {
        const x = numbers[slot]
        if (x >= gte && x < lt) mask[slot] = 1
      }
      return mask
    }
    const values = "anyOf" in condition ? condition.anyOf : [String(condition.equals)]
    for (const value of values) {
      const slots = column.postings.get(value)
      if (typeof slots === "number") {
        if (slots < size) mask[slots] = 1
      } else
        slots?.forEach((slot) => {
          if (slot < size) mask[slot] = 1
        })
    }
    return mask
  }

  private column(name: string): Column {
    let column = this.columns.get(name)
    if (column === undefined) this.columns.set(name, (column = new Column()))
    return column
  }
}

const slotList = (first: number, second: number): SlotList => {
  const list = new SlotList()
  list.add(first)
  list.add(second)
  return list
}

const growCodes = (codes: Int32Array, slot: number): Int32Array => {
  const grown = new Int32Array(Math.max(1024, codes.length * 2, slot + 1))
  grown.set(codes)
  return grown
}

const grow = (numbers: Float64Array, slot: number): Float64Array => {
  const grown = new Float64Array(Math.max(1024, numbers.length * 2, slot + 1)).fill(NaN)
  grown.set(numbers)
  return grown
}

export const countMask = (mask: SlotMask): number => {
  let count = 0
  for (let slot = 0; slot < mask.length; slot++) count += mask[slot]
  return count
}
