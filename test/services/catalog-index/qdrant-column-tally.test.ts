import { describe, expect, it } from "@effect/vitest"
import { ColumnTally, type Tallied } from "../../../src/services/catalog-index/qdrant/ColumnTally.js"
import { tallyFacets } from "../../../src/services/catalog-index/ColumnValues.js"
import type { PayloadValue } from "../../../src/model/IndexDocument.js"

/** A small deterministic generator (mulberry32), so a failure repeats. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const request = {
  values: [
    { column: "brand", limit: 3 },
    { column: "tags", limit: 10 },
    { column: "inStock", limit: 10 },
    { column: "missing", limit: 10 }
  ],
  intervals: [{ column: "price", buckets: 4 }]
}

describe("ColumnTally", () => {
  it("counts facets and groups as tallyFacets does over the same members, as points come, change and go", () => {
    const next = random(7)
    const pick = <A>(values: ReadonlyArray<A>): A => values[Math.floor(next() * values.length)]
    const points = new Map<number, Tallied & { readonly productId: string }>()
    const tally = new ColumnTally(() => points.values())
    const columnsOf = (): Record<string, PayloadValue> => ({
      brand: pick(["Bosch", "Makita", "", "Ryobi"]),
      tags: pick([["red", "blue"], ["red"], [], ["red", "red"], "green"]),
      inStock: pick([true, false, "true"]),
      price: pick([5, 10, 12.5, 99, "n/a"]),
      group: pick(["g1", "g2", "g3", "", 4])
    })
    const write = (slot: number) => {
      const point = { slot, productId: `p${slot}`, columns: columnsOf() }
      points.set(slot, point)
      tally.set(point)
    }
    for (let slot = 0; slot < 60; slot++) write(slot)
    for (let round = 0; round < 5; round++) {
      const members = [...points.values()].filter(() => next() < 0.7)
      const slots = Int32Array.from(members, (member) => member.slot)
      for (const groupBy of [undefined, "group", "brand"]) {
        expect(tally.facets(slots, request, groupBy), `round ${round}, ${groupBy}`).toEqual(
          tallyFacets(members, request, groupBy)
        )
      }
      const groups = new Set(
        members.map((m) =>
          typeof m.columns.group === "string" && m.columns.group !== "" ? `g${m.columns.group}` : `p${m.productId}`
        )
      )
      expect(tally.groups(slots, "group").count).toBe(groups.size)
      // Some points change, some go, slots are taken again.
      for (let i = 0; i < 15; i++) {
        const slot = Math.floor(next() * 70)
        if (next() < 0.3 && points.has(slot)) {
          points.delete(slot)
          tally.clear(slot)
        } else write(slot)
      }
    }
  })
})
