import { randomUUID } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { QdrantClient } from "@qdrant/js-client-rest"
import { Context, Effect, Layer } from "effect"
import { CatalogIndex } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../../src/model/Filter.js"
import { skewedApparel, skewedApparelPrices, titled, upsert, vec } from "./fixtures.js"
import { CurrentTimings, Timings } from "../../../src/platform/ServerTiming.js"
import { QdrantCatalogIndex } from "../../../src/services/catalog-index/QdrantCatalogIndex.js"
import { qdrantForThisFile } from "../../support/QdrantServer.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { catalogIndexConformance } from "./conformance.js"

const qdrant = qdrantForThisFile()
const redis = redisForThisFile()

/**
 * Each test builds the layer afresh, so each gets its own collection (4-d vectors, like the
 * fixtures), dropped when the test's scope closes: tests never see each other's points.
 */
const collectionWith = (tuning: { readonly matchCap?: number; readonly denseCandidates?: number }) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const { apiKey, url } = qdrant
      const collection = `conformance_${randomUUID().replaceAll("-", "")}`
      const client = new QdrantClient({ url, ...(apiKey && { apiKey }), checkCompatibility: false })
      yield* Effect.addFinalizer(() => Effect.promise(() => client.deleteCollection(collection).catch(() => false)))
      return QdrantCatalogIndex.layer({ url, apiKey, collection, textDimension: 4, imageDimension: 4, ...tuning }).pipe(
        Layer.orDie
      )
    })
  )
const freshCollection = collectionWith({})

/**
 * A collection of the test's own (dropped when its scope closes), its client, and a layer over
 * it: each provision is another process starting over the same collection.
 */
const ownCollection = (prefix: string) =>
  Effect.gen(function* () {
    const { apiKey, url } = qdrant
    const collection = `${prefix}_${randomUUID().replaceAll("-", "")}`
    const client = new QdrantClient({ url, ...(apiKey && { apiKey }), checkCompatibility: false })
    yield* Effect.addFinalizer(() => Effect.promise(() => client.deleteCollection(collection).catch(() => false)))
    const layer = QdrantCatalogIndex.layer({ url, apiKey, collection, textDimension: 4, imageDimension: 4 })
    return { client, collection, layer }
  })

if (qdrant.available) {
  catalogIndexConformance("qdrant", freshCollection)

  // Scopes larger than the lists Qdrant is asked for (small bounds stand in for 10,000).
  describe("qdrant beyond its list bounds", () => {
    const ids = Array.from({ length: 60 }, (_, i) => `p${String((i * 37) % 60).padStart(2, "0")}`)
    const bounded = collectionWith({ matchCap: 20, denseCandidates: 5 })
    const shortLists = collectionWith({ denseCandidates: 5 })
    it.effect("browse pages by product id and counts the whole scope", () =>
      Effect.gen(function* () {
        yield* upsert(...ids.map((id) => titled(id, "Cordless drill")))
        const index = yield* CatalogIndex
        const page = yield* index.search({ siteId: 1, filter: emptyFilter, limit: 5 })
        expect(page.hits.map((hit) => hit.productId)).toEqual(["p00", "p01", "p02", "p03", "p04"])
        expect(page.total).toBe(60)
        expect(yield* index.matchIds({ siteId: 1, filter: emptyFilter })).toEqual([...ids].sort().slice(0, 20))
        const second = yield* index.scroll(1, emptyFilter, 25, "p29")
        expect(second.docs.map((doc) => doc.productId)).toEqual([...ids].sort().slice(30, 55))
      }).pipe(Effect.provide(bounded))
    )

    it.effect("a word matching more products than a list holds counts them all", () =>
      Effect.gen(function* () {
        yield* upsert(...ids.map((id) => titled(id, "Cordless drill")), titled("other", "Garden hose"))
        const index = yield* CatalogIndex
        const result = yield* index.search({ siteId: 1, text: "drill", filter: emptyFilter, limit: 1 })
        expect(result.total).toBe(60)
        expect(result.hits).toHaveLength(1)
        // A bounded id set: the best matchCap of the word.
        expect(yield* index.matchIds({ siteId: 1, text: "drill", filter: emptyFilter })).toHaveLength(20)
      }).pipe(Effect.provide(bounded))
    )

    it.effect("a text search with facets and a cut list answers in one round, its set counted from memory", () =>
      Effect.gen(function* () {
        yield* upsert(
          ...ids.map((id, i) =>
            titled(id, i % 2 === 0 ? "Cordless drill" : "Cordless drill driver", {
              // Some not embedded yet: found by their words all the same.
              ...(i % 6 === 5 ? {} : { vector: [1, i / 60, 0, 0] }),
              payload: { brand: i % 3 === 0 ? "Bosch" : "Makita", price: 10 + i }
            })
          )
        )
        const index = yield* CatalogIndex
        const timings = new Timings()
        const query = {
          siteId: 1,
          text: "cordles drill",
          textVector: vec(1, 0.5, 0, 0),
          filter: emptyFilter,
          limit: 5,
          facets: { values: [{ column: "brand", limit: 10 }], intervals: [{ column: "price", buckets: 3 }] }
        }
        const result = yield* index.search(query).pipe(Effect.locally(CurrentTimings, timings))
        // 60 matches, more than the lists' 5 + 5: the rest of the set is counted from memory.
        expect(result.total).toBe(60)
        const unembedded = yield* index.search({
          siteId: 1,
          text: "drill",
          textVector: vec(1, 0.5, 0, 0),
          filter: { must: [{ column: "brand", anyOf: ["Makita"] }], mustNot: [] },
          limit: 60
        })
        expect(
          unembedded.hits
            .filter((hit) => hit.text === 0)
            .map((hit) => hit.productId)
            .sort()
        ).toEqual(ids.filter((_, i) => i % 6 === 5 && i % 3 !== 0).sort())
        expect(result.hits).toHaveLength(5)
        expect(result.facets?.values.get("brand")).toEqual([
          { value: "Makita", count: 40 },
          { value: "Bosch", count: 20 }
        ])
        expect(timings.rounds("qdrant").rounds).toBe(1)
        // Writes change the set at once: one more Bosch drill, one Makita drill gone, one drill
        // renamed to a word the query does not hold.
        yield* upsert(
          titled("p-new", "Cordless drill", { vector: [1, 0, 0, 0], payload: { brand: "Bosch", price: 5 } })
        )
        yield* index.remove(1, [ids[1]])
        yield* upsert(titled(ids[2], "Garden hose", { vector: [0, 0, 1, 0], payload: { brand: "Makita", price: 12 } }))
        const again = new Timings()
        const changed = yield* index.search(query).pipe(Effect.locally(CurrentTimings, again))
        expect(changed.total).toBe(59)
        expect(changed.facets?.values.get("brand")).toEqual([
          { value: "Makita", count: 38 },
          { value: "Bosch", count: 21 }
        ])
        expect(again.rounds("qdrant").rounds).toBe(1)
      }).pipe(Effect.provide(shortLists))
    )

    it.effect("a result set larger than its lists has the price intervals of every member", () =>
      Effect.gen(function* () {
        // 45 apparel products, above the 20 a list holds here.
        yield* upsert(...skewedApparel)
        const index = yield* CatalogIndex
        const request = { values: [], intervals: [{ column: "price", buckets: 5 }] }
        const apparel = { must: [{ column: "category", anyOf: ["Apparel"] }], mustNot: [] }
        const browsed = yield* index.facets({ siteId: 1, filter: apparel }, request)
        expect(browsed.intervals.get("price")).toEqual(skewedApparelPrices)
        const searched = yield* index.facets({ siteId: 1, filter: emptyFilter, text: "apparel" }, request)
        expect(searched.intervals.get("price")).toEqual(skewedApparelPrices)
      }).pipe(Effect.provide(bounded))
    )
  })

  describe("qdrant writes", () => {
    it.scopedLive("an upsert Qdrant refuses fails with Qdrant's reason, and nothing is remembered of it", () =>
      Effect.gen(function* () {
        const { client, collection, layer } = yield* ownCollection("writes")
        yield* Effect.gen(function* () {
          const index = yield* CatalogIndex
          yield* index.upsert([titled("a", "Cordless drill")])
          // The collection goes away under the index (an operator deleting it): the write is refused.
          yield* Effect.promise(() => client.deleteCollection(collection))
          const error = yield* Effect.flip(index.upsert([titled("b", "Garden hose")]))
          expect(error.message).toMatch(/^Qdrant upsert failed: 404 Not Found: .*doesn't exist/)
          const hoses = yield* index.search({ siteId: 1, text: "hose", filter: emptyFilter, limit: 10 })
          expect(hoses.hits).toEqual([])
        }).pipe(Effect.provide(layer))
      })
    )
  })

  describe("qdrant term memory", () => {
    it.scopedLive("a process starting over an existing collection learns its words from it", () =>
      Effect.gen(function* () {
        const { layer } = yield* ownCollection("terms")
        const search = (text: string) =>
          Effect.flatMap(CatalogIndex, (index) => index.search({ siteId: 1, text, filter: emptyFilter, limit: 10 }))
        yield* upsert(
          titled("a", "Cordless drill", { vector: [1, 0, 0, 0] }),
          titled("b", "Garden hose"),
          titled("c", "Hose reel", { site: 2 })
        ).pipe(Effect.provide(layer))
        // Another process: its memory is filled from the collection before it answers.
        const later = yield* search("cordles").pipe(Effect.provide(layer))
        expect(later.hits.map((hit) => hit.productId)).toEqual(["a"])
        // Its lexical matches without a text vector are found too: the memory knows b has none.
        const hoses = yield* search("hose").pipe(Effect.provide(layer))
        expect(hoses.hits.map((hit) => hit.productId)).toEqual(["b"])
        // Once b is embedded the site has no point without a text vector; its words still find it.
        yield* upsert(titled("b", "Garden hose", { vector: [0, 1, 0, 0] })).pipe(Effect.provide(layer))
        const embedded = yield* search("hose").pipe(Effect.provide(layer))
        expect(embedded.hits.map((hit) => hit.productId)).toEqual(["b"])
      })
    )

    it.scopedLive("processes writing the same products at once all end with each one's newest version", () =>
      Effect.gen(function* () {
        const { collection } = yield* ownCollection("feed")
        const { apiKey, url } = qdrant
        // Two processes on one change feed (the distributed topology), each with its own memory.
        const open = () =>
          Layer.build(
            QdrantCatalogIndex.layer(
              { url, apiKey, collection, textDimension: 4, imageDimension: 4 },
              { redisUrl: redis.url }
            ).pipe(Layer.orDie)
          ).pipe(Effect.map((context) => Context.get(context, CatalogIndex)))
        const [first, second] = [yield* open(), yield* open()]
        const words = ["amber", "cobalt", "scarlet", "violet", "indigo", "ochre", "teal", "mauve"]
        const products = ["p0", "p1", "p2"]
        // Versions interleaved between the writers, so each one's changes cross the other's.
        yield* Effect.all(
          [first, second].map((index, writer) =>
            Effect.forEach(
              words.flatMap((_, version) => (version % 2 === writer ? [version] : [])),
              (version) =>
                index.upsert(
                  products.map((id, p) => ({
                    ...titled(id, `Kettle ${words[(version + p) % words.length]}`, { vector: [1, p, 0, 0] }),
                    version
                  }))
                ),
              { discard: true }
            )
          ),
          { concurrency: "unbounded" }
        )
        const newest = words.length - 1
        for (const index of [first, second]) {
          for (const [w, word] of words.entries()) {
            const holders = products.filter((_, p) => (newest + p) % words.length === w)
            const found = yield* index.search({ siteId: 1, text: word, filter: emptyFilter, limit: 10 })
            expect(found.hits.map((hit) => hit.productId).sort(), `${word}`).toEqual(holders)
          }
          const kettles = yield* index.search({ siteId: 1, text: "kettle", filter: emptyFilter, limit: 10 })
          expect(kettles.total).toBe(products.length)
        }
      })
    )
  })
} else {
  console.warn(qdrant.skipReason)
  describe.skip(`CatalogIndex conformance: qdrant (${qdrant.skipReason})`, () => {
    it("runs the shared conformance suite against a Qdrant server", () => {})
  })
}
