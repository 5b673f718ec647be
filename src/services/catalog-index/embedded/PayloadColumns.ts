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
   * values of such columns are unique, and a collection each cost ~800 bytes per product.
   */
  readonly postings = new Map<string, number | SlotList>()
  /** NaN marks a missing or non-numeric value, which no range accepts. */
  numbers: Float64Array = new Float64Array(0)
}

/** Inverted lists and numeric arrays over the payload columns of one site. */
export class PayloadColumns {
  private readonly columns = new Map<string, Column>()

  put(slot: number, payload: Readonly<Record<string, PayloadValue>>): void {
    for (const [name, value] of Object.entries(payload)) {
      const column = this.column(name)
      for (const term of termsOf(value)) {
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
  }

  /** Forgets the values `payload` put for `slot`. */
  delete(slot: number, payload: Readonly<Record<string, PayloadValue>>): void {
    for (const [name, value] of Object.entries(payload)) {
      const column = this.columns.get(name)
      if (column === undefined) continue
      for (const term of termsOf(value)) {
        const slots = column.postings.get(term)
        if (slots === slot) column.postings.delete(term)
        else if (typeof slots === "object") {
          slots.delete(slot)
          if (slots.size === 0) column.postings.delete(term)
        }
      }
      if (slot < column.numbers.length) column.numbers[slot] = NaN
    }
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
      } else slots?.forEach((slot) => {
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
