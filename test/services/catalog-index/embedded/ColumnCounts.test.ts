import { describe, expect, it } from "vitest"
import { facetsOfSlots } from "../../../../src/services/catalog-index/embedded/ColumnCounts.js"
import { resolveOptions } from "../../../../src/services/catalog-index/embedded/EmbeddedIndexOptions.js"
import { SiteIndex } from "../../../../src/services/catalog-index/embedded/SiteIndex.js"
import { doc } from "../fixtures.js"

/** A seeded catalog with single- and multi-valued columns, numbers, groups, gaps and replaced products. */
const site = () => {
  let seed = 7
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
  const pick = <A>(items: ReadonlyArray<A>) => items[Math.floor(random() * items.length)]
  const index = new SiteIndex(resolveOptions())
  for (let i = 0; i < 600; i++) {
    const top = pick(["Tools", "Garden", "Home"])
    index.upsert(
      doc(`p${i}`, {
        payload: {
          brand: random() < 0.9 ? pick(["Acme", "Bolt", "Cora", "Dune"]) : null,
          category: [top, `${top} > ${pick(["A", "B", "C"])}`],
          color: random() < 0.5 ? [pick(["red", "blue"]), "black"] : [pick(["green", "white"])],
          price: random() < 0.95 ? Math.round(random() * 50_000) / 100 : null,
          item_group_id: random() < 0.6 ? `g${Math.floor(random() * 80)}` : null
        }
      })
    )
  }
  // Replaced and removed products leave stale postings behind if deletes were wrong.
  for (let i = 0; i < 600; i += 7)
    index.upsert(
      doc(`p${i}`, { payload: { brand: "Eon", category: ["Home"], color: ["red"], price: 5, item_group_id: "g1" } })
    )
  for (let i = 3; i < 600; i += 11) index.remove(`p${i}`)
  return index
}

const request = {
  values: [
    { column: "brand", limit: 3 },
    { column: "category", limit: 100 },
    { column: "color", limit: 10 },
    { column: "item_group_id", limit: 5 }
  ],
  intervals: [{ column: "price", buckets: 5 }]
}

describe("embedded facets of a result set", () => {
  const index = site()
  const slots = Array.from({ length: index.slotCount }, (_, slot) => slot).filter(
    (slot) => index.docAt(slot) !== undefined && slot % 3 !== 1
  )

  it("counts the same through the columns' postings as through the members' payloads, per product and group", () => {
    for (const groupBy of [undefined, "item_group_id"]) {
      const byPayloads = facetsOfSlots(index, slots, request, groupBy, "payloads")
      const byPostings = facetsOfSlots(index, slots, request, groupBy, "postings")
      expect(byPostings).toEqual(byPayloads)
      expect(byPayloads.values.get("brand")).toHaveLength(3)
      expect(byPayloads.intervals.get("price")!.counts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
    }
  })

  it("a grouped count is at most the product count, and counts a group once", () => {
    const brands = { values: [{ column: "brand", limit: 10 }], intervals: [] }
    const products = facetsOfSlots(index, slots, brands, undefined, "postings")
    const groups = facetsOfSlots(index, slots, brands, "item_group_id", "postings")
    const eon = (answer: typeof products) => answer.values.get("brand")!.find((c) => c.value === "Eon")!.count
    // Every Eon product is in group g1.
    expect(eon(products)).toBeGreaterThan(1)
    expect(eon(groups)).toBe(1)
  })
})
