import type { FacetAnswer, FacetCount, FacetRequest, Intervals } from "../CatalogIndex.js"
import { groupBuckets, intervalsOf, rankCounts } from "../ColumnValues.js"
import type { PayloadValue } from "../../../model/IndexDocument.js"

/** A slot without a value. */
const NONE = -1
/** A slot with several values (an array): their ids are in `many`. */
const MANY = -2
const EMPTY = new Int32Array(0)

/** A numeric column by slot: its number, or NaN. */
class NumberColumn {
  private bySlot = new Float64Array(0)

  set(slot: number, value: PayloadValue | undefined): void {
    if (slot >= this.bySlot.length) {
      const grown = new Float64Array(Math.max(1024, 2 * this.bySlot.length, slot + 1)).fill(Number.NaN)
      grown.set(this.bySlot)
      this.bySlot = grown
    }
    this.bySlot[slot] = typeof value === "number" ? value : Number.NaN
  }

  at(slot: number): number {
    return slot < this.bySlot.length ? this.bySlot[slot] : Number.NaN
  }
}

/**
 * One column as numbers by slot: each value the column takes gets an id (kept while the column
 * is: a value no point holds any more counts 0 and is left out), each slot the id of its value.
 * A facet column's values are what termsOf reads (strings, booleans as "true"/"false", each
 * string of an array); a group column's only a non-empty string (see groupOf: any other value
 * leaves the product a group of its own).
 */
class TrackedColumn {
  private readonly ids = new Map<string, number>()
  readonly names: Array<string> = []
  private bySlot = new Int32Array(0)
  private readonly many: Array<Int32Array | undefined> = []

  constructor(private readonly kind: "facet" | "group") {}

  private idOf(name: string): number {
    let id = this.ids.get(name)
    if (id === undefined) {
      id = this.names.length
      this.ids.set(name, id)
      this.names.push(name)
    }
    return id
  }

  set(slot: number, value: PayloadValue | undefined): void {
    if (slot >= this.bySlot.length) {
      const grown = new Int32Array(Math.max(1024, 2 * this.bySlot.length, slot + 1)).fill(NONE)
      grown.set(this.bySlot)
      this.bySlot = grown
    }
    if (this.bySlot[slot] === MANY) this.many[slot] = undefined
    if (typeof value === "string") {
      this.bySlot[slot] = this.kind === "group" && value.length === 0 ? NONE : this.idOf(value)
    } else if (this.kind === "group") {
      this.bySlot[slot] = NONE
    } else if (typeof value === "boolean") {
      this.bySlot[slot] = this.idOf(String(value))
    } else if (Array.isArray(value) && value.length > 0) {
      this.bySlot[slot] = MANY
      this.many[slot] = Int32Array.from(value, (name) => this.idOf(name))
    } else this.bySlot[slot] = NONE
  }

  /** The slot's value id, NONE, or MANY (see `manyAt`). */
  at(slot: number): number {
    return slot < this.bySlot.length ? this.bySlot[slot] : NONE
  }

  manyAt(slot: number): Int32Array {
    return this.many[slot] ?? EMPTY
  }

  /** The counted ids (`counts` by id) as facet counts, most first, cut at `limit`. */
  ranked(counts: Int32Array, limit: number): Array<FacetCount> {
    const found: Array<FacetCount> = []
    counts.forEach((count, id) => {
      if (count > 0) found.push({ value: this.names[id], count })
    })
    return rankCounts(found, limit)
  }
}

/** What the tally counts: a point's slot and columns. */
export interface Tallied {
  readonly slot: number
  readonly columns: Readonly<Record<string, PayloadValue>>
}

/**
 * Facet counts and group counts of large result sets, over numbers: the columns a facet or a
 * grouping asked for are kept as value ids (or numbers) by slot, so a set of tens of thousands
 * of members is counted in typed arrays rather than maps of names. Gives what tallyFacets
 * gives over the same members (each backend's answer). Members are given as their slots.
 */
export class ColumnTally {
  private readonly columns = new Map<string, TrackedColumn | NumberColumn>()

  /** `points`: every point held, to fill a column the first time it is asked for. */
  constructor(private readonly points: () => Iterable<Tallied>) {}

  /** A point came, or its columns changed. */
  set(point: Tallied): void {
    for (const [key, column] of this.columns) column.set(point.slot, point.columns[key.slice(2)])
  }

  /** A point went. */
  clear(slot: number): void {
    for (const column of this.columns.values()) column.set(slot, undefined)
  }

  private column<C extends TrackedColumn | NumberColumn>(name: string, kind: string, make: () => C): C {
    const key = `${kind}:${name}`
    let column = this.columns.get(key) as C | undefined
    if (column === undefined) {
      column = make()
      for (const point of this.points()) column.set(point.slot, point.columns[name])
      this.columns.set(key, column)
    }
    return column
  }

  private values(name: string): TrackedColumn {
    return this.column(name, "f", () => new TrackedColumn("facet"))
  }

  /**
   * Each member's group under `groupBy` as a number (equal numbers: one group; a member without a
   * group value is a group of its own), and how many groups there are.
   */
  groups(slots: Int32Array, groupBy: string): { readonly ids: Int32Array; readonly count: number } {
    const column = this.column(groupBy, "g", () => new TrackedColumn("group"))
    const named = column.names.length
    const ids = new Int32Array(slots.length)
    const seen = new Uint8Array(named)
    let count = 0
    for (let i = 0; i < slots.length; i++) {
      const id = column.at(slots[i])
      if (id < 0) {
        ids[i] = named + i
        count++
      } else {
        ids[i] = id
        if (seen[id] === 0) {
          seen[id] = 1
          count++
        }
      }
    }
    return { ids, count }
  }

  /** Exact facets of the members (see tallyFacets): each value counts products, or groups with `groupBy`. */
  facets(slots: Int32Array, request: FacetRequest, groupBy: string | undefined): FacetAnswer {
    const groups = groupBy === undefined ? null : this.groups(slots, groupBy).ids
    // With groups, members of one group side by side (a counting sort by group id), so a value
    // counts a group once: at its first member holding it.
    const order = groups === null ? null : byGroup(groups)
    const values = new Map<string, ReadonlyArray<FacetCount>>()
    for (const { column: name, limit } of request.values) {
      const column = this.values(name)
      const counts = new Int32Array(column.names.length)
      if (order === null) {
        for (let i = 0; i < slots.length; i++) {
          const id = column.at(slots[i])
          if (id >= 0) counts[id]++
          else if (id === MANY) for (const each of column.manyAt(slots[i])) counts[each]++
        }
      } else {
        const last = new Int32Array(column.names.length).fill(-1)
        for (let k = 0; k < order.length; k++) {
          const i = order[k]
          const group = groups![i]
          const id = column.at(slots[i])
          if (id >= 0) {
            if (last[id] !== group) {
              last[id] = group
              counts[id]++
            }
          } else if (id === MANY) {
            for (const each of column.manyAt(slots[i])) {
              if (last[each] === group) continue
              last[each] = group
              counts[each]++
            }
          }
        }
      }
      values.set(name, column.ranked(counts, limit))
    }
    const intervals = new Map<string, Intervals | null>()
    for (const { column: name, buckets } of request.intervals) {
      const column = this.column(name, "n", () => new NumberColumn())
      const numbers = Array.from(slots, (slot) => column.at(slot))
      const found = intervalsOf(numbers, buckets)
      intervals.set(
        name,
        found === null || groups === null ? found : { ...found, counts: groupBuckets(numbers, groups, found.edges) }
      )
    }
    return { values, intervals }
  }
}

/** Member indices ordered by group id (a counting sort: ids are below members + groups named). */
const byGroup = (groups: Int32Array): Int32Array => {
  let top = 0
  for (const group of groups) if (group >= top) top = group + 1
  const starts = new Int32Array(top + 1)
  for (const group of groups) starts[group + 1]++
  for (let g = 0; g < top; g++) starts[g + 1] += starts[g]
  const order = new Int32Array(groups.length)
  groups.forEach((group, i) => {
    order[starts[group]++] = i
  })
  return order
}
