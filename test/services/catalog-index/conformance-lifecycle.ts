import { expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { CatalogIndex } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../../src/model/Filter.js"
import { filteredIds, must, searchIds, titled, upsert, vec } from "./fixtures.js"

/** Updates, removals, reads by id and by page, and isolation between sites. */
export const lifecycleConformance = (layer: Layer.Layer<CatalogIndex>) => {
  const test = (name: string, body: () => Effect.Effect<void, unknown, CatalogIndex>) =>
    it.effect(name, () => body().pipe(Effect.provide(layer)))

  test("an update replaces the old words, vector and columns", () =>
    Effect.gen(function* () {
      yield* upsert(titled("p1", "Garden hose", { vector: [1, 0, 0, 0], payload: { brand: "Acme" } }))
      yield* upsert(titled("p1", "Cordless drill", { vector: [0, 1, 0, 0], payload: { brand: "Bosch" } }))
      expect(yield* searchIds({ text: "hose" })).toEqual([])
      expect(yield* searchIds({ text: "drill" })).toEqual(["p1"])
      expect(yield* searchIds({ textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 })).toEqual([])
      expect(yield* searchIds({ textVector: vec(0, 1, 0, 0), minSimilarity: 0.5 })).toEqual(["p1"])
      expect(yield* filteredIds(must({ column: "brand", anyOf: ["Acme"] }))).toEqual([])
      expect(yield* filteredIds(must({ column: "brand", anyOf: ["Bosch"] }))).toEqual(["p1"])
      const index = yield* CatalogIndex
      expect(yield* index.count(1, emptyFilter)).toBe(1)
    }))

  test(
    "a document of an older record version never replaces a newer one (a late indexing job); " +
      "the same or a newer version does",
    () =>
      Effect.gen(function* () {
        const brands = (brand: string) => filteredIds(must({ column: "brand", anyOf: [brand] }))
        yield* upsert(
          { ...titled("p1", "Cordless drill", { payload: { brand: "Bosch" } }), version: 5 },
          { ...titled("p2", "Garden hose", { payload: { brand: "Acme" } }), version: 3 },
          titled("p3", "Hammer", { payload: { brand: "Stanley" } })
        )
        // One batch: p1 from an older version (kept as it is), p2 from the same one and p3 without
        // a version (both replaced), p4 new (inserted).
        yield* upsert(
          { ...titled("p1", "Cordless drill", { vector: [1, 0, 0, 0], payload: { brand: "Makita" } }), version: 4 },
          { ...titled("p2", "Garden hose", { vector: [0, 1, 0, 0], payload: { brand: "Gardena" } }), version: 3 },
          titled("p3", "Claw hammer", { payload: { brand: "Estwing" } }),
          { ...titled("p4", "Saw", { payload: { brand: "Makita" } }), version: 1 }
        )
        expect(yield* brands("Bosch")).toEqual(["p1"])
        expect(yield* brands("Makita")).toEqual(["p4"])
        expect(yield* searchIds({ textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 })).toEqual([])
        expect(yield* brands("Gardena")).toEqual(["p2"])
        expect(yield* searchIds({ textVector: vec(0, 1, 0, 0), minSimilarity: 0.5 })).toEqual(["p2"])
        expect(yield* brands("Estwing")).toEqual(["p3"])
        // A newer version replaces.
        yield* upsert({ ...titled("p1", "Cordless drill", { payload: { brand: "Metabo" } }), version: 6 })
        expect(yield* brands("Metabo")).toEqual(["p1"])
        expect(yield* brands("Bosch")).toEqual([])
      })
  )

  test(
    "refreshColumns sets columns over the version it is based on only, " +
      "keeping words, vectors and other columns; or answers false",
    () =>
      Effect.gen(function* () {
        const index = yield* CatalogIndex
        const prices = (low: number, high: number) =>
          filteredIds(must({ column: "price", range: { gte: low, lt: high } }))
        yield* upsert(
          {
            ...titled("p1", "Cordless drill", {
              vector: [1, 0, 0, 0],
              payload: { brand: "Bosch", price: 99, availability: "in_stock" }
            }),
            version: 5
          },
          { ...titled("p2", "Garden hose", { payload: { brand: "Acme", price: 10 } }), version: 3 },
          titled("p3", "Hammer", { payload: { brand: "Stanley", price: 20 } })
        )
        const answers = yield* index.refreshColumns([
          { siteId: 1, productId: "p1", version: 6, basedOn: 5, columns: { price: 79, availability: "out_of_stock" } },
          // Based on a version the index does not hold (a write in between), on no version, on nothing.
          { siteId: 1, productId: "p2", version: 5, basedOn: 4, columns: { price: 5 } },
          { siteId: 1, productId: "p3", version: 2, basedOn: 1, columns: { price: 5 } },
          { siteId: 1, productId: "p9", version: 2, basedOn: 1, columns: { price: 5 } },
          // Older than the version held: nothing to do (true), or refused.
          { siteId: 1, productId: "p2", version: 2, basedOn: 1, columns: { price: 5 } }
        ])
        expect(answers.slice(1, 4)).toEqual([false, false, false])
        expect(yield* prices(4, 6)).toEqual([])
        expect(yield* prices(10, 21)).toEqual(["p2", "p3"])
        if (answers[0]) {
          expect(yield* prices(70, 80)).toEqual(["p1"])
          expect(yield* filteredIds(must({ column: "availability", anyOf: ["out_of_stock"] }))).toEqual(["p1"])
          expect(yield* filteredIds(must({ column: "brand", anyOf: ["Bosch"] }))).toEqual(["p1"])
          expect(yield* searchIds({ text: "drill" })).toEqual(["p1"])
          expect(yield* searchIds({ textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 })).toEqual(["p1"])
          const [held] = yield* index.retrieve(1, ["p1"])
          expect(held.version).toBe(6)
          expect(held.payload).toMatchObject({ brand: "Bosch", price: 79, availability: "out_of_stock" })
          // A whole document of the version the refresh replaced is older now: ignored.
          yield* upsert({ ...titled("p1", "Cordless drill", { payload: { brand: "Bosch", price: 99 } }), version: 5 })
          expect(yield* prices(70, 80)).toEqual(["p1"])
          // So is a second refresh based on it.
          expect(
            yield* index.refreshColumns([{ siteId: 1, productId: "p1", version: 7, basedOn: 5, columns: { price: 1 } }])
          ).toEqual([false])
          expect(yield* prices(70, 80)).toEqual(["p1"])
        } else {
          expect(yield* prices(95, 100)).toEqual(["p1"])
          expect((yield* index.retrieve(1, ["p1"]))[0].version).toBe(5)
        }
      })
  )

  test("a removed product is gone from every read", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("p1", "Cordless drill", { vector: [1, 0, 0, 0], payload: { brand: "Bosch" } }),
        titled("p2", "Hammer drill", { vector: [0, 1, 0, 0], payload: { brand: "Bosch" } })
      )
      const index = yield* CatalogIndex
      yield* index.remove(1, ["p1", "never-existed"])
      expect(yield* searchIds({ text: "drill" })).toEqual(["p2"])
      expect(yield* searchIds({ textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 })).toEqual([])
      expect(yield* index.retrieve(1, ["p1"])).toEqual([])
      expect(yield* index.count(1, emptyFilter)).toBe(1)
      expect(yield* index.facet(1, "brand", { filter: emptyFilter }, 10)).toEqual([{ value: "Bosch", count: 1 }])
    }))

  test("retrieve returns the stored documents; count counts them", () =>
    Effect.gen(function* () {
      const stored = titled("p1", "Cordless drill", { vector: [1, 0, 0, 0], payload: { brand: "Bosch", price: 99 } })
      yield* upsert(stored, titled("p2", "Garden hose"))
      const index = yield* CatalogIndex
      const [found] = yield* index.retrieve(1, ["p1", "missing"])
      expect(found.productId).toBe("p1")
      expect(found.text).toEqual(stored.text)
      expect(found.payload).toEqual(stored.payload)
      expect(Array.from(found.vectors.text!)).toEqual([1, 0, 0, 0])
      expect(yield* index.count(1, must({ column: "brand", anyOf: ["Bosch"] }))).toBe(1)
    }))

  test("scroll pages through a filter in product id order", () =>
    Effect.gen(function* () {
      const ids = ["p05", "p01", "p04", "p02", "p03", "x01"]
      yield* upsert(...ids.map((id) => titled(id, "Thing", { payload: { kind: [id.startsWith("p") ? "p" : "x"] } })))
      const index = yield* CatalogIndex
      const onlyP = must({ column: "kind", anyOf: ["p"] })
      const first = yield* index.scroll(1, onlyP, 2)
      expect(first.docs.map((d) => d.productId)).toEqual(["p01", "p02"])
      const second = yield* index.scroll(1, onlyP, 2, first.next!)
      expect(second.docs.map((d) => d.productId)).toEqual(["p03", "p04"])
      const last = yield* index.scroll(1, onlyP, 2, second.next!)
      expect(last.docs.map((d) => d.productId)).toEqual(["p05"])
      expect(last.next).toBeNull()
      const all = yield* index.scroll(1, emptyFilter, 10)
      expect(all.docs.map((d) => d.productId)).toEqual(["p01", "p02", "p03", "p04", "p05", "x01"])
      expect(all.next).toBeNull()
    }))

  test("each site sees only its own products, even under the same id", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("same", "Cordless drill", { site: 1, vector: [1, 0, 0, 0], payload: { brand: "Bosch" } }),
        titled("same", "Garden hose", { site: 2, vector: [1, 0, 0, 0], payload: { brand: "Acme" } }),
        titled("only2", "Cordless drill", { site: 2, payload: { brand: "Bosch" } })
      )
      const index = yield* CatalogIndex
      expect(yield* searchIds({ text: "drill" })).toEqual(["same"])
      expect(yield* searchIds({ text: "hose" })).toEqual([])
      const site2 = yield* index.search({ siteId: 2, text: "drill", filter: emptyFilter, limit: 10 })
      expect(site2.hits.map((hit) => hit.productId)).toEqual(["only2"])
      const [doc2] = yield* index.retrieve(2, ["same"])
      expect(doc2.text.title).toBe("Garden hose")
      expect(yield* index.facet(1, "brand", { filter: emptyFilter }, 10)).toEqual([{ value: "Bosch", count: 1 }])
      expect(yield* index.count(2, emptyFilter)).toBe(2)
      expect(yield* index.count(3, emptyFilter)).toBe(0)
      yield* index.remove(2, ["same"])
      expect(yield* searchIds({ textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 })).toEqual(["same"])
    }))

  test("one site's products do not change another site's ranking", () =>
    Effect.gen(function* () {
      const index = yield* CatalogIndex
      // On site 1 "red" is rare and "shirt" common, so the red scarf leads "red shirt".
      yield* upsert(
        titled("scarf", "Red scarf"),
        titled("blue", "Blue shirt"),
        titled("green", "Green shirt"),
        titled("white", "White shirt", { text: { description: "A shirt for shirt days" } })
      )
      const ranking = () =>
        index
          .search({ siteId: 1, text: "red shirt", filter: emptyFilter, limit: 10 })
          .pipe(
            Effect.map((result) =>
              result.hits.map((hit) => [hit.productId, hit.score.toFixed(9), hit.lexical.toFixed(9)])
            )
          )
      const before = yield* ranking()
      expect(before[0][0]).toBe("scarf")
      // Site 2 makes "red" common and "shirt" rare: collection-wide statistics would flip site 1's order.
      yield* upsert(
        ...Array.from({ length: 30 }, (_, i) => titled(`red${i}`, "Red cap red", { site: 2 })),
        titled("s2", "Shirt", { site: 2 })
      )
      expect(yield* ranking()).toEqual(before)
      const site2 = yield* index.search({ siteId: 2, text: "red shirt", filter: emptyFilter, limit: 1 })
      expect(site2.hits.map((hit) => hit.productId)).toEqual(["s2"])
    }))
}
