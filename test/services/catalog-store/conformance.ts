import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, type Layer, Option } from "effect"
import type { ProductRecord } from "../../../src/domain/Product.js"
import {
  CatalogStore,
  type CatalogStoreService,
  type CatalogWriteResult
} from "../../../src/services/catalog-store/CatalogStore.js"
import type { ImageAnalysisRecord } from "../../../src/model/ImageAnalysis.js"
import type { StoredProduct } from "../../../src/model/StoredProduct.js"

const record = (title: string, extra: Partial<ProductRecord> = {}): ProductRecord =>
  ({ title, ...extra }) as ProductRecord
const urls = (...names: Array<string>) => names.map((n) => ({ url: `https://img.example.com/${n}.jpg` }))
const ids = (products: ReadonlyArray<StoredProduct>) => products.map((p) => p.productId)
const vector = (...values: Array<number>) => new Float32Array(values)

const analysis = (
  imageId: string,
  url: string,
  embedding: Float32Array | null = vector(0.1, -2.5, 1e-7)
): ImageAnalysisRecord => ({
  imageId,
  url,
  status: embedding === null ? "failed" : "ok",
  reason: embedding === null ? "not an image" : null,
  embedding,
  adult: embedding === null ? null : 0.01,
  colors: [{ name: "blue", hex: "#0000ff", share: 0.7 }],
  objects: [{ classId: 3, class: "drill", score: 0.9, rectangle: { left: 0.1, top: 0.2, width: 0.5, height: 0.4 } }],
  analyzedAt: 1_700_000_000_000
})

/** Puts a product and saves derived data for the version the put returned. */
const indexed = (
  store: CatalogStoreService,
  siteId: number,
  productId: string,
  textVector: Float32Array | null = vector(1, 2, 3)
) =>
  Effect.gen(function* () {
    const { product } = yield* store.put(siteId, productId, record(productId), urls(productId))
    expect(yield* store.saveDerived([{ siteId, productId, version: product.version, textVector }])).toBe(1)
    return product
  })

const collect = (store: CatalogStoreService, pageSize: number) =>
  Effect.gen(function* () {
    const pages: Array<number> = []
    const seen: Array<{
      key: string
      version: number
      derivedVersion: number | null
      vector: Array<number> | null
      textKey: string | null
      images: Array<string>
    }> = []
    const total = yield* store.forEachProduct(pageSize, (page) =>
      Effect.sync(() => {
        pages.push(page.length)
        for (const { derived, images, product } of page) {
          seen.push({
            key: `${product.siteId}/${product.productId}`,
            version: product.version,
            derivedVersion: derived?.version ?? null,
            vector: derived?.textVector == null ? null : Array.from(derived.textVector),
            textKey: derived?.textKey ?? null,
            images: images.map((i) => i.imageId)
          })
        }
      })
    )
    return { total, pages, seen }
  })

/**
 * The behaviour every CatalogStore layer must show, through the interface only. `makeLayer`
 * is called once per test and must give an empty store (a fresh data dir, a flushed Redis).
 */
/**
 * One product of each kind of image work (a photo never analysed, an analysed photo whose
 * objects are not detected, no photo), for the upgrade tests of both backends; returns the
 * pending work they must report.
 */
export const seedImageWork = (store: CatalogStoreService) =>
  Effect.gen(function* () {
    const image = (n: string) => ({ url: `https://img.example.com/${n}.jpg` })
    yield* store.put(1, "new-photo", { title: "a" } as ProductRecord, [image("a")])
    const [b] = (yield* store.put(2, "undetected", { title: "b" } as ProductRecord, [image("b")])).product.images
    yield* store.saveImageAnalyses(2, "undetected", [
      {
        imageId: b.id,
        url: b.url,
        status: "ok",
        reason: null,
        embedding: new Float32Array([1]),
        adult: 0,
        colors: [],
        objects: null,
        analyzedAt: 1
      }
    ])
    yield* store.put(1, "no-photo", { title: "c" } as ProductRecord, undefined)
    return { analyze: [{ siteId: 1, productId: "new-photo" }], detect: [{ siteId: 2, productId: "undetected" }] }
  })

export const catalogStoreConformance = (name: string, makeLayer: () => Layer.Layer<CatalogStore, unknown>) =>
  describe(`CatalogStore conformance: ${name}`, () => {
    const test = (title: string, body: (store: CatalogStoreService) => Effect.Effect<void, unknown>) =>
      it.live(title, () => Effect.flatMap(CatalogStore, body).pipe(Effect.provide(makeLayer())))

    test("put creates, then updates with a strictly greater version across all products", (store) =>
      Effect.gen(function* () {
        const before = Date.now()
        const first = yield* store.put(1, "p1", record("Drill"), urls("a"))
        expect(first.created).toBe(true)
        expect(first.product).toMatchObject({ siteId: 1, productId: "p1", data: { title: "Drill" } })
        expect(first.product.updatedAt).toBeGreaterThanOrEqual(before)
        const other = yield* store.put(1, "p2", record("Saw"), undefined)
        const second = yield* store.put(1, "p1", record("Drill v2", { brand: "Bosch" }), urls("a"))
        expect(second.created).toBe(false)
        expect(other.product.version).toBeGreaterThan(first.product.version)
        expect(second.product.version).toBeGreaterThan(other.product.version)
        const stored = Option.getOrThrow(yield* store.get(1, "p1"))
        expect(stored).toEqual(second.product)
        expect(stored.data).toEqual({ title: "Drill v2", brand: "Bosch" })
        expect(yield* store.get(1, "unknown")).toEqual(Option.none())
      }))

    test("images: omitted keeps them, [] clears them, ids are stable per URL and deduplicated", (store) =>
      Effect.gen(function* () {
        const { product } = yield* store.put(1, "p1", record("x"), [...urls("a", "b"), ...urls("a")])
        expect(product.images.map((i) => i.url)).toEqual(urls("a", "b").map((u) => u.url))
        expect(new Set(product.images.map((i) => i.id)).size).toBe(2)
        const kept = yield* store.put(1, "p1", record("y"), undefined)
        expect(kept.product.images).toEqual(product.images)
        expect(Option.getOrThrow(yield* store.get(1, "p1")).images).toEqual(product.images)
        // The same URL gets the same id, on any product and any site.
        const reordered = yield* store.put(1, "p1", record("y"), urls("c", "b"))
        expect(reordered.product.images[1]).toEqual(product.images[1])
        expect((yield* store.put(2, "q", record("z"), urls("a"))).product.images[0]).toEqual(product.images[0])
        expect((yield* store.put(1, "p1", record("y"), [])).product.images).toEqual([])
        expect(Option.getOrThrow(yield* store.get(1, "p1")).images).toEqual([])
        // A new product without images has none.
        expect((yield* store.put(1, "p9", record("n"), undefined)).product.images).toEqual([])
      }))

    test("getMany keeps the order of the ids and skips unknown ones; byItemGroup follows group moves", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "a", record("a", { item_group_id: "g1" }), undefined)
        yield* store.put(1, "c", record("c", { item_group_id: "g1" }), undefined)
        yield* store.put(1, "b", record("b", { item_group_id: "g2" }), undefined)
        expect(ids(yield* store.getMany(1, ["c", "missing", "a", "b"]))).toEqual(["c", "a", "b"])
        expect(yield* store.getMany(1, [])).toEqual([])
        expect(ids(yield* store.byItemGroup(1, "g1"))).toEqual(["a", "c"])
        yield* store.put(1, "c", record("c", { item_group_id: "g2" }), undefined)
        expect(ids(yield* store.byItemGroup(1, "g1"))).toEqual(["a"])
        expect(ids(yield* store.byItemGroup(1, "g2"))).toEqual(["b", "c"])
        yield* store.put(1, "a", record("a"), undefined)
        expect(yield* store.byItemGroup(1, "g1")).toEqual([])
        expect(yield* store.byItemGroup(2, "g2")).toEqual([])
        yield* store.remove(1, "b")
        expect(ids(yield* store.byItemGroup(1, "g2"))).toEqual(["c"])
      }))

    test("lastWrite is the time of the site's latest product put", (store) =>
      Effect.gen(function* () {
        expect(yield* store.lastWrite(1)).toEqual(Option.none())
        const first = yield* store.put(1, "a", record("a"), undefined)
        const second = yield* store.put(1, "b", record("b"), undefined)
        yield* store.put(2, "c", record("c"), undefined)
        expect(yield* store.lastWrite(1)).toEqual(
          Option.some(Math.max(first.product.updatedAt, second.product.updatedAt))
        )
        expect(Option.isSome(yield* store.lastWrite(2))).toBe(true)
        expect(yield* store.lastWrite(3)).toEqual(Option.none())
      }))

    test("imageFailures lists the site's failed images with their reasons, in step with every write", (store) =>
      Effect.gen(function* () {
        const two = yield* store.put(1, "b-two", record("b"), urls("b1", "b2"))
        const one = yield* store.put(1, "a-one", record("a"), urls("a1"))
        const other = yield* store.put(2, "c", record("c"), urls("c1"))
        expect(yield* store.imageFailures(1, 10)).toEqual({ products: 0, images: [] })
        const [b1, b2] = two.product.images
        yield* store.saveImageAnalyses(1, "b-two", [analysis(b1.id, b1.url, null), analysis(b2.id, b2.url)])
        yield* store.saveImageAnalyses(1, "a-one", [
          analysis(one.product.images[0].id, one.product.images[0].url, null)
        ])
        yield* store.saveImageAnalyses(2, "c", [
          analysis(other.product.images[0].id, other.product.images[0].url, null)
        ])
        expect(yield* store.imageFailures(1, 10)).toEqual({
          products: 2,
          images: [
            { productId: "a-one", url: "https://img.example.com/a1.jpg", reason: "not an image" },
            { productId: "b-two", url: "https://img.example.com/b1.jpg", reason: "not an image" }
          ]
        })
        // The first products by id; the count is every one.
        expect(yield* store.imageFailures(1, 1)).toEqual({
          products: 2,
          images: [{ productId: "a-one", url: "https://img.example.com/a1.jpg", reason: "not an image" }]
        })
        // New images drop the failed one's analysis; a removed product takes its failures along.
        yield* store.put(1, "b-two", record("b"), urls("b2"))
        yield* store.remove(1, "a-one")
        expect(yield* store.imageFailures(1, 10)).toEqual({ products: 0, images: [] })
        expect((yield* store.imageFailures(2, 10)).products).toBe(1)
      }))

    test("remove returns the removed product and deletes its derived data and image analyses", (store) =>
      Effect.gen(function* () {
        const product = yield* indexed(store, 1, "p1")
        expect(yield* store.saveImageAnalyses(1, "p1", [analysis(product.images[0].id, product.images[0].url)])).toBe(1)
        yield* indexed(store, 1, "p2")
        expect(yield* store.remove(1, "p1")).toEqual(Option.some(product))
        expect(yield* store.remove(1, "p1")).toEqual(Option.none())
        expect(yield* store.get(1, "p1")).toEqual(Option.none())
        expect(yield* store.count(1)).toBe(1)
        expect(yield* store.imageAnalyses(1, "p1")).toEqual([])
        expect((yield* collect(store, 10)).seen.map((s) => s.key)).toEqual(["1/p2"])
        // Re-created under the same id, it starts without derived data or analyses.
        const again = yield* store.put(1, "p1", record("p1"), urls("p1"))
        expect(again.created).toBe(true)
        expect(yield* store.imageAnalyses(1, "p1")).toEqual([])
        expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "p1", version: again.product.version }])
        expect(yield* store.remove(3, "never")).toEqual(Option.none())
      }))

    test("saveDerived saves the current version's data only; stale() lists products lacking current data", (store) =>
      Effect.gen(function* () {
        const v1 = (yield* store.put(1, "p1", record("a"), undefined)).product.version
        const p2 = (yield* store.put(1, "p2", record("b"), undefined)).product.version
        expect(yield* store.stale(10)).toEqual(
          expect.arrayContaining([
            { siteId: 1, productId: "p1", version: v1 },
            { siteId: 1, productId: "p2", version: p2 }
          ])
        )
        expect(yield* store.stale(1)).toHaveLength(1)
        const v2 = (yield* store.put(1, "p1", record("a2"), undefined)).product.version
        // A late job for v1 is refused; the one for v2 and the one for p2 are saved.
        expect(yield* store.saveDerived([{ siteId: 1, productId: "p1", version: v1, textVector: vector(9) }])).toBe(0)
        expect(yield* store.saveDerived([{ siteId: 1, productId: "unknown", version: v2, textVector: null }])).toBe(0)
        expect(
          yield* store.saveDerived([
            { siteId: 1, productId: "p1", version: v2, textVector: vector(1, 2) },
            { siteId: 1, productId: "p2", version: p2, textVector: null }
          ])
        ).toBe(2)
        expect(yield* store.stale(10)).toEqual([])
        // Derived data of v2 is never overwritten by the late v1 job, and a newer put makes it stale again.
        expect(yield* store.saveDerived([{ siteId: 1, productId: "p1", version: v1, textVector: vector(9) }])).toBe(0)
        expect((yield* collect(store, 10)).seen).toMatchObject([
          { key: "1/p1", vector: [1, 2] },
          { key: "1/p2", vector: null }
        ])
        const v3 = (yield* store.put(1, "p1", record("a3"), undefined)).product.version
        expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "p1", version: v3 }])
        // Still visited (searchable by its words), with the derived data of its older version.
        expect((yield* collect(store, 10)).seen).toMatchObject([
          { key: "1/p1", version: v3, derivedVersion: v2, vector: [1, 2] },
          { key: "1/p2", version: p2, derivedVersion: p2 }
        ])
      }))

    test("writeMany applies puts, modifications and removals in order, each with its own result", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "kept", record("Kept"), urls("k"))
        const priceOf = (fields: { readonly data: ProductRecord }) => (fields.data as { price?: number }).price
        const results = yield* store.writeMany(1, [
          { _tag: "Put", productId: "a", data: record("A", { price: 1 } as Partial<ProductRecord>), images: urls("a") },
          // Sees the put before it (in the same call), keeps its images.
          {
            _tag: "Modify",
            productId: "a",
            modify: (current) =>
              Either.right({ data: { ...current.data, price: priceOf(current)! + 1 } as ProductRecord })
          },
          { _tag: "Put", productId: "a", data: record("A2"), images: undefined },
          { _tag: "Modify", productId: "kept", modify: () => Either.left("price: must be a number") },
          { _tag: "Modify", productId: "never", modify: (current) => Either.right({ data: current.data }) },
          { _tag: "Remove", productId: "never" },
          { _tag: "Put", productId: "b", data: record("B"), images: undefined },
          { _tag: "Remove", productId: "b" }
        ])
        expect(results.map((r) => r._tag)).toEqual([
          "Written",
          "Written",
          "Written",
          "Refused",
          "Absent",
          "Absent",
          "Written",
          "Removed"
        ])
        expect(results.map((r) => (r._tag === "Written" ? r.created : null))).toEqual([
          true,
          false,
          false,
          null,
          null,
          null,
          true,
          null
        ])
        expect(results[3]).toEqual({ _tag: "Refused", message: "price: must be a number" })
        const versions = results.flatMap((r) => (r._tag === "Written" ? [r.product.version] : []))
        expect(versions[1]).toBeGreaterThan(versions[0])
        expect(versions[2]).toBeGreaterThan(versions[1])
        const a = Option.getOrThrow(yield* store.get(1, "a"))
        // The last write wins; the images of the first put stay (the later writes kept them).
        expect(a).toMatchObject({ version: versions[2], data: { title: "A2" } })
        expect(a.images.map((i) => i.url)).toEqual(urls("a").map((u) => u.url))
        expect(results[1]._tag === "Written" && results[1].product.data).toEqual({ title: "A", price: 2 })
        expect(Option.getOrThrow(yield* store.get(1, "kept")).data).toEqual({ title: "Kept" })
        expect(yield* store.get(1, "b")).toEqual(Option.none())
        expect(yield* store.get(1, "never")).toEqual(Option.none())
        expect((yield* store.stale(10)).map((k) => k.productId).sort()).toEqual(["a", "kept"])
      }))

    test(
      "a Modify that keeps the embedded text keeps the text version and its derived data; " +
        "a new text starts a new one",
      (store) =>
        Effect.gen(function* () {
          const withPrice = (price: number) => (current: StoredProduct) =>
            Either.right({ data: { ...current.data, price } as ProductRecord })
          const written = (results: ReadonlyArray<CatalogWriteResult>) => {
            const [result] = results
            if (result._tag !== "Written") throw new Error(`expected Written, got ${result._tag}`)
            return result
          }
          const v1 = (yield* store.put(1, "p1", record("Drill"), undefined)).product
          expect(v1.textVersion).toBe(v1.version)
          // A price change before the vector is saved: same text version, still stale (never embedded).
          const v2 = written(yield* store.writeMany(1, [{ _tag: "Modify", productId: "p1", modify: withPrice(10) }]))
          expect(v2.product).toMatchObject({
            version: expect.any(Number),
            textVersion: v1.version,
            data: { title: "Drill", price: 10 }
          })
          expect(v2.product.version).toBeGreaterThan(v1.version)
          expect(v2.previous).toMatchObject({ version: v1.version, data: { title: "Drill" } })
          expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "p1", version: v2.product.version }])
          // The job that embedded the text of v1 saves it though the product moved on: the text is the same.
          expect(
            yield* store.saveDerived([
              { siteId: 1, productId: "p1", version: v1.version, textVector: vector(1, 0), textKey: "k" }
            ])
          ).toBe(1)
          expect(yield* store.stale(10)).toEqual([])
          // More price changes: nothing becomes stale, the derived data stays.
          const v3 = written(
            yield* store.writeMany(1, [{ _tag: "Modify", productId: "p1", modify: withPrice(12) }])
          ).product
          expect(v3.textVersion).toBe(v1.version)
          expect(Option.getOrThrow(yield* store.get(1, "p1")).textVersion).toBe(v1.version)
          expect(yield* store.stale(10)).toEqual([])
          expect((yield* collect(store, 10)).seen).toMatchObject([
            { key: "1/p1", version: v3.version, derivedVersion: v1.version, vector: [1, 0] }
          ])
          // A new title: a new text version, stale, and a late save for the old text is refused.
          const v4 = written(
            yield* store.writeMany(1, [
              {
                _tag: "Modify",
                productId: "p1",
                modify: (current) => Either.right({ data: { ...current.data, title: "Hammer drill" } as ProductRecord })
              }
            ])
          ).product
          expect(v4.textVersion).toBe(v4.version)
          expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "p1", version: v4.version }])
          expect(
            yield* store.saveDerived([{ siteId: 1, productId: "p1", version: v1.version, textVector: vector(9, 9) }])
          ).toBe(0)
          expect(
            yield* store.saveDerived([{ siteId: 1, productId: "p1", version: v4.version, textVector: vector(0, 1) }])
          ).toBe(1)
          expect(yield* store.stale(10)).toEqual([])
          // A put is a new text version whatever its text (reuseTextVectors finds the same text by its key).
          const v5 = (yield* store.put(1, "p1", record("Hammer drill"), undefined)).product
          expect(v5.textVersion).toBe(v5.version)
          expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "p1", version: v5.version }])
          // markStale takes the product version; it makes the text version's derived data stale.
          const v6 = written(
            yield* store.writeMany(1, [{ _tag: "Modify", productId: "p1", modify: withPrice(3) }])
          ).product
          expect(
            yield* store.saveDerived([{ siteId: 1, productId: "p1", version: v5.version, textVector: vector(1, 1) }])
          ).toBe(1)
          expect(yield* store.stale(10)).toEqual([])
          yield* store.markStale([{ siteId: 1, productId: "p1", version: v6.version }])
          expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "p1", version: v6.version }])
        })
    )

    test("reuseTextVectors moves a vector saved for the same text to the new version, and nothing else", (store) =>
      Effect.gen(function* () {
        const v1 = (yield* store.put(1, "p1", record("Drill"), undefined)).product.version
        const w1 = (yield* store.put(1, "w1", record("Wrench"), undefined)).product.version
        yield* store.saveDerived([
          { siteId: 1, productId: "p1", version: v1, textVector: vector(1, 0), textKey: "k-drill" },
          // Saved without a key (before keys existed): never reused.
          { siteId: 1, productId: "w1", version: w1, textVector: vector(0, 1) }
        ])
        // New versions (a price change): stale until their derived data is saved.
        const v2 = (yield* store.put(1, "p1", record("Drill", { price: 10 } as Partial<ProductRecord>), undefined))
          .product.version
        const w2 = (yield* store.put(1, "w1", record("Wrench", { price: 5 } as Partial<ProductRecord>), undefined))
          .product.version
        expect((yield* store.stale(10)).map((k) => k.productId).sort()).toEqual(["p1", "w1"])
        // Another text, an older version, another site, an unknown product, a vector without a key:
        // none fits, nothing moves.
        const refused = yield* store.reuseTextVectors([
          { siteId: 1, productId: "p1", version: v2, textKey: "k-hammer" },
          { siteId: 1, productId: "p1", version: v1, textKey: "k-drill" },
          { siteId: 2, productId: "p1", version: v2, textKey: "k-drill" },
          { siteId: 1, productId: "none", version: v2, textKey: "k-drill" },
          { siteId: 1, productId: "w1", version: w2, textKey: "" }
        ])
        expect(refused).toEqual([null, null, null, null, null])
        expect((yield* store.stale(10)).map((k) => k.productId).sort()).toEqual(["p1", "w1"])
        // The same text at the current version: the vector, now saved for that version.
        const [reused] = yield* store.reuseTextVectors([
          { siteId: 1, productId: "p1", version: v2, textKey: "k-drill" }
        ])
        expect(reused === null ? null : [...reused]).toEqual([1, 0])
        expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "w1", version: w2 }])
        expect((yield* collect(store, 10)).seen).toMatchObject([
          { key: "1/p1", version: v2, derivedVersion: v2, vector: [1, 0], textKey: "k-drill" },
          { key: "1/w1", version: w2, derivedVersion: w1 }
        ])
        // Gone with the product.
        yield* store.remove(1, "p1")
        expect(
          yield* store.reuseTextVectors([{ siteId: 1, productId: "p1", version: v2, textKey: "k-drill" }])
        ).toEqual([null])
      }))

    test("markStale makes a version whose index write failed stale again, and leaves newer versions alone", (store) =>
      Effect.gen(function* () {
        const v1 = (yield* store.put(1, "p1", record("Drill"), undefined)).product.version
        const other = (yield* store.put(1, "p2", record("Saw"), undefined)).product.version
        yield* store.saveDerived([
          { siteId: 1, productId: "p1", version: v1, textVector: vector(1, 0) },
          { siteId: 1, productId: "p2", version: other, textVector: vector(0, 1) }
        ])
        expect(yield* store.stale(10)).toEqual([])
        yield* store.markStale([{ siteId: 1, productId: "p1", version: v1 }])
        expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "p1", version: v1 }])
        // Replicas rebuild from every product, whether its indexing is current or not.
        const rebuilt: Array<string> = []
        yield* store.forEachProduct(10, (page) =>
          Effect.sync(() => void rebuilt.push(...page.map((row) => row.product.productId)))
        )
        expect(rebuilt).toEqual(["p1", "p2"])
        yield* store.saveDerived([{ siteId: 1, productId: "p1", version: v1, textVector: vector(1, 0) }])
        expect(yield* store.stale(10)).toEqual([])
        // A failure reported for an older version does not touch the current one.
        const v2 = (yield* store.put(1, "p1", record("Drill v2"), undefined)).product.version
        yield* store.saveDerived([{ siteId: 1, productId: "p1", version: v2, textVector: vector(1, 1) }])
        yield* store.markStale([
          { siteId: 1, productId: "p1", version: v1 },
          { siteId: 1, productId: "gone", version: 1 }
        ])
        expect(yield* store.stale(10)).toEqual([])
      }))

    test("forEachProduct pages through every site's products with saved derived data and current analyses", (store) =>
      Effect.gen(function* () {
        const exact = vector(0.1, Math.PI, -1e-30, 3.4e38)
        const names = Array.from({ length: 7 }, (_, i) => `p${i}`)
        for (const id of names) yield* indexed(store, 1, id, id === "p3" ? exact : vector(1, 2, 3))
        yield* indexed(store, 2, "p0", null)
        yield* store.put(1, "unindexed", record("u"), undefined)
        const p5 = Option.getOrThrow(yield* store.get(1, "p5"))
        expect(yield* store.saveImageAnalyses(1, "p5", [analysis(p5.images[0].id, p5.images[0].url)])).toBe(1)
        const { pages, seen, total } = yield* collect(store, 3)
        expect(total).toBe(9)
        expect(pages.every((n) => n > 0 && n <= 3)).toBe(true)
        expect(seen.map((s) => s.key).sort()).toEqual([...names.map((n) => `1/${n}`), "1/unindexed", "2/p0"].sort())
        expect(new Set(seen.map((s) => s.key)).size).toBe(9)
        expect(seen.filter((s) => s.key !== "1/unindexed").every((s) => s.derivedVersion === s.version)).toBe(true)
        expect(seen.find((s) => s.key === "1/unindexed")).toMatchObject({ derivedVersion: null, vector: null })
        expect(seen.find((s) => s.key === "1/p3")?.vector).toEqual(Array.from(exact))
        expect(seen.find((s) => s.key === "2/p0")?.vector).toBeNull()
        expect(seen.find((s) => s.key === "1/p5")?.images).toEqual([p5.images[0].id])
        expect(seen.find((s) => s.key === "1/p4")?.images).toEqual([])
        // The visitor's failure stops the walk and reaches the caller.
        const failed = yield* Effect.flip(store.forEachProduct(2, () => Effect.fail("stop")))
        expect(failed).toBe("stop")
        expect(yield* store.forEachProduct(5, () => Effect.void).pipe(Effect.map((n) => n))).toBe(9)
      }))

    test(
      "image analyses are kept only for images the product still has and saved once; " +
        "a PUT that drops an image drops its analysis",
      (store) =>
        Effect.gen(function* () {
          const { product } = yield* store.put(1, "p1", record("x"), urls("a", "b"))
          const [a, b] = product.images
          const emb = vector(0.25, -1.5, 7e-8)
          expect(
            yield* store.saveImageAnalyses(1, "p1", [
              analysis(b.id, b.url, null),
              analysis(a.id, a.url, emb),
              analysis("img_gone", "https://img.example.com/gone.jpg")
            ])
          ).toBe(2)
          const stored = yield* store.imageAnalyses(1, "p1")
          // In the product's image order, every field exact (the embedding's bytes too).
          expect(stored).toEqual([analysis(a.id, a.url, emb), analysis(b.id, b.url, null)])
          expect(Array.from(stored[0].embedding!)).toEqual(Array.from(emb))
          // A second analysis of an analysed image (two jobs racing) does not replace the first.
          expect(
            yield* store.saveImageAnalyses(1, "p1", [{ ...analysis(a.id, a.url, vector(9)), objects: null }])
          ).toBe(0)
          expect(yield* store.imageAnalyses(1, "p1")).toEqual(stored)
          expect(yield* store.saveImageAnalyses(1, "unknown", [analysis(a.id, a.url)])).toBe(0)
          expect(yield* store.imageAnalyses(1, "unknown")).toEqual([])
          // Omitting images keeps the analyses.
          yield* store.put(1, "p1", record("y"), undefined)
          expect((yield* store.imageAnalyses(1, "p1")).map((x) => x.imageId)).toEqual([a.id, b.id])
          // Dropping b removes its analysis for good: re-adding b later does not bring it back.
          yield* store.put(1, "p1", record("y"), urls("a", "c"))
          expect((yield* store.imageAnalyses(1, "p1")).map((x) => x.imageId)).toEqual([a.id])
          yield* store.put(1, "p1", record("y"), urls("a", "b"))
          expect((yield* store.imageAnalyses(1, "p1")).map((x) => x.imageId)).toEqual([a.id])
          yield* store.put(1, "p1", record("y"), [])
          expect(yield* store.imageAnalyses(1, "p1")).toEqual([])
        })
    )

    test("saveImageObjects fills in pending detections once, only on current ok analyses", (store) =>
      Effect.gen(function* () {
        const { product } = yield* store.put(1, "p1", record("x"), urls("a", "b", "c"))
        const [a, b, c] = product.images
        const pending = (image: { id: string; url: string }) => ({
          ...analysis(image.id, image.url, vector(0.5, 1e-9, -3.25)),
          objects: null
        })
        expect(yield* store.saveImageAnalyses(1, "p1", [pending(a), analysis(b.id, b.url, null)])).toBe(2)
        expect((yield* store.imageAnalyses(1, "p1"))[0].objects).toBeNull()
        const cup = [
          {
            classId: 41,
            class: "cup",
            score: 0.8123456789012345,
            rectangle: { left: 0.1, top: 0.2, width: 0.3, height: 0.4 }
          }
        ]
        // a: pending → filled; b: failed → untouched; c: not analysed yet → nothing to fill;
        // unknown image → refused.
        expect(
          yield* store.saveImageObjects(1, "p1", [
            { imageId: a.id, objects: cup },
            { imageId: b.id, objects: cup },
            { imageId: c.id, objects: cup },
            { imageId: "img_unknown", objects: cup }
          ])
        ).toBe(1)
        const [storedA, storedB] = yield* store.imageAnalyses(1, "p1")
        // Everything else of the analysis is kept exactly; the objects are exact too.
        expect(storedA).toEqual({ ...pending(a), objects: cup })
        expect(storedB).toEqual(analysis(b.id, b.url, null))
        // A late or repeated detection never replaces what is there.
        expect(yield* store.saveImageObjects(1, "p1", [{ imageId: a.id, objects: [] }])).toBe(0)
        expect((yield* store.imageAnalyses(1, "p1"))[0].objects).toEqual(cup)
        // An image the product dropped (its analysis went with it) is not brought back by a late detection.
        yield* store.put(1, "p1", record("x"), urls("b"))
        expect(yield* store.saveImageObjects(1, "p1", [{ imageId: a.id, objects: cup }])).toBe(0)
        expect((yield* store.imageAnalyses(1, "p1")).map((x) => x.imageId)).toEqual([b.id])
        // Unknown product, other site, nothing to save.
        expect(yield* store.saveImageObjects(1, "unknown", [{ imageId: a.id, objects: cup }])).toBe(0)
        yield* store.put(2, "p1", record("x"), urls("a"))
        expect(yield* store.saveImageAnalyses(2, "p1", [pending(a)])).toBe(1)
        expect(yield* store.saveImageObjects(1, "p1", [{ imageId: a.id, objects: cup }])).toBe(0)
        expect((yield* store.imageAnalyses(2, "p1"))[0].objects).toBeNull()
        expect(yield* store.saveImageObjects(2, "p1", [])).toBe(0)
      }))

    test("pendingImageWork: products with images to analyse or objects to detect, in step with every write", (store) =>
      Effect.gen(function* () {
        const pending = Effect.map(store.pendingImageWork(100), ({ analyze, detect }) => ({
          analyze: analyze.map((k) => `${k.siteId}/${k.productId}`).sort(),
          detect: detect.map((k) => `${k.siteId}/${k.productId}`).sort()
        }))
        const undetected = (image: { id: string; url: string }) => ({ ...analysis(image.id, image.url), objects: null })
        expect(yield* pending).toEqual({ analyze: [], detect: [] })
        const [a, b] = (yield* store.put(1, "p1", record("x"), urls("a", "b"))).product.images
        yield* store.put(1, "none", record("no images"), undefined)
        yield* store.put(2, "p1", record("other site"), urls("a"))
        expect(yield* pending).toEqual({ analyze: ["1/p1", "2/p1"], detect: [] })
        // One image analysed: the other still is not. Then both, one of them awaiting detection.
        yield* store.saveImageAnalyses(1, "p1", [undetected(a)])
        expect(yield* pending).toEqual({ analyze: ["1/p1", "2/p1"], detect: ["1/p1"] })
        yield* store.saveImageAnalyses(1, "p1", [analysis(b.id, b.url)])
        expect(yield* pending).toEqual({ analyze: ["2/p1"], detect: ["1/p1"] })
        // A record update that keeps the images changes nothing; a failed image is done.
        yield* store.put(1, "p1", record("y"), undefined)
        yield* store.saveImageAnalyses(2, "p1", [analysis(a.id, a.url, null)])
        expect(yield* pending).toEqual({ analyze: [], detect: ["1/p1"] })
        expect(yield* store.saveImageObjects(1, "p1", [{ imageId: a.id, objects: [] }])).toBe(1)
        expect(yield* pending).toEqual({ analyze: [], detect: [] })
        // A new photo needs its analysis; dropping the only undetected image ends that detection.
        const c = (yield* store.put(1, "p1", record("y"), urls("a", "c"))).product.images[1]
        expect(yield* pending).toEqual({ analyze: ["1/p1"], detect: [] })
        yield* store.saveImageAnalyses(1, "p1", [undetected(c)])
        expect(yield* pending).toEqual({ analyze: [], detect: ["1/p1"] })
        yield* store.put(1, "p1", record("y"), urls("a"))
        expect(yield* pending).toEqual({ analyze: [], detect: [] })
        // Removed products and cleared images leave the list; `limit` bounds each list.
        yield* store.put(1, "p2", record("z"), urls("d"))
        yield* store.put(1, "p3", record("z"), urls("e"))
        yield* store.put(1, "p4", record("z"), urls("f"))
        expect((yield* store.pendingImageWork(2)).analyze).toHaveLength(2)
        yield* store.remove(1, "p2")
        yield* store.put(1, "p3", record("z"), [])
        expect(yield* pending).toEqual({ analyze: ["1/p4"], detect: [] })
      }))

    test("sites are isolated: the same product id in two sites, counted per site", (store) =>
      Effect.gen(function* () {
        expect(yield* store.count(1)).toBe(0)
        const one = yield* store.put(1, "same", record("site one", { item_group_id: "g" }), urls("a"))
        const two = yield* store.put(2, "same", record("site two", { item_group_id: "g" }), urls("a"))
        expect(two.created).toBe(true)
        yield* store.put(2, "other", record("other"), undefined)
        expect(yield* store.count(1)).toBe(1)
        expect(yield* store.count(2)).toBe(2)
        expect(yield* store.count(3)).toBe(0)
        expect(Option.getOrThrow(yield* store.get(1, "same")).data.title).toBe("site one")
        expect(ids(yield* store.byItemGroup(2, "g"))).toEqual(["same"])
        expect((yield* store.byItemGroup(1, "g"))[0].siteId).toBe(1)
        // Derived data and analyses of one site do not count for the other.
        expect(
          yield* store.saveDerived([{ siteId: 2, productId: "same", version: one.product.version, textVector: null }])
        ).toBe(0)
        expect(
          yield* store.saveDerived([{ siteId: 1, productId: "same", version: one.product.version, textVector: null }])
        ).toBe(1)
        expect(
          yield* store.saveImageAnalyses(1, "same", [analysis(one.product.images[0].id, one.product.images[0].url)])
        ).toBe(1)
        expect(yield* store.imageAnalyses(2, "same")).toEqual([])
        expect((yield* store.stale(10)).map((s) => `${s.siteId}/${s.productId}`).sort()).toEqual(["2/other", "2/same"])
        expect(yield* store.remove(2, "same")).toEqual(Option.some(two.product))
        expect(Option.isSome(yield* store.get(1, "same"))).toBe(true)
        expect(yield* store.imageAnalyses(1, "same")).toHaveLength(1)
        expect((yield* collect(store, 10)).seen.map((s) => [s.key, s.derivedVersion !== null])).toEqual([
          ["1/same", true],
          ["2/other", false]
        ])
      }))

    test("concurrent puts of one product: one creates, versions are distinct, the highest version is stored", (store) =>
      Effect.gen(function* () {
        const results = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, n) => n),
          (n) => store.put(1, "hot", record(`t${n}`, { item_group_id: `g${n % 3}` }), urls(`i${n}`)),
          { concurrency: "unbounded" }
        )
        expect(results.filter((r) => r.created)).toHaveLength(1)
        expect(new Set(results.map((r) => r.product.version)).size).toBe(20)
        const last = results.reduce((a, b) => (b.product.version > a.product.version ? b : a))
        expect(Option.getOrThrow(yield* store.get(1, "hot"))).toEqual(last.product)
        // Only the stored group lists it.
        const groups = yield* Effect.forEach(["g0", "g1", "g2"], (g) => store.byItemGroup(1, g))
        expect(groups.flat().map((p) => p.data.item_group_id)).toEqual([last.product.data.item_group_id])
        expect(yield* store.count(1)).toBe(1)
      }))

    test("product and group ids with separators do not collide", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "a:b", record("colon", { item_group_id: "g:1" }), undefined)
        yield* store.put(1, "a", record("plain", { item_group_id: "g" }), undefined)
        yield* store.put(1, "ids", record("ids"), undefined)
        expect(ids(yield* store.getMany(1, ["a:b", "a", "ids"]))).toEqual(["a:b", "a", "ids"])
        expect(yield* store.count(1)).toBe(3)
        expect(ids(yield* store.byItemGroup(1, "g:1"))).toEqual(["a:b"])
        expect(ids(yield* store.byItemGroup(1, "g"))).toEqual(["a"])
        yield* store.remove(1, "a")
        expect(ids(yield* store.getMany(1, ["a:b", "ids"]))).toEqual(["a:b", "ids"])
      }))

    test(
      "a photo's views are kept beside its analysis: read only as training samples, " +
        "saved once, dropped with the image or the product",
      (store) =>
        Effect.gen(function* () {
          const first = yield* store.put(1, "p1", record("Drill"), urls("a", "b", "c"))
          const [a, b, c] = first.product.images
          expect(
            yield* store.saveImageAnalyses(1, "p1", [
              { ...analysis(a.id, a.url, vector(1, 2, 3)), colorSignature: Uint8Array.from([0, 255, 7]) },
              analysis(b.id, b.url, vector(4, 4, 4)),
              { ...analysis(c.id, c.url, null), status: "failed", reason: "404" }
            ])
          ).toBe(3)
          const samplesOf = (productId: string) =>
            Effect.map(
              store.imageSamples(1, [productId]),
              (all) =>
                new Map(all.map((s) => [s.imageId, { url: s.url, vectors: s.vectors.map((v) => Array.from(v)) }]))
            )
          // Before a fit saved views: each photo with features is one sample; a failed one is none.
          expect(yield* samplesOf("p1")).toEqual(
            new Map([
              [a.id, { url: a.url, vectors: [[1, 2, 3]] }],
              [b.id, { url: b.url, vectors: [[4, 4, 4]] }]
            ])
          )
          // Views of a photo without features, of one the product lacks, or of one not analysed: not saved.
          expect(
            yield* store.saveImageViews(1, "p1", [
              { imageId: a.id, views: [vector(5, 6, 7), vector(8, 9, 10)] },
              { imageId: c.id, views: [vector(1, 1, 1)] },
              { imageId: "not-an-image", views: [vector(1, 1, 1)] }
            ])
          ).toBe(1)
          // Saved once: a second fit's views change nothing.
          expect(yield* store.saveImageViews(1, "p1", [{ imageId: a.id, views: [vector(0, 0, 0)] }])).toBe(0)
          expect((yield* samplesOf("p1")).get(a.id)?.vectors).toEqual([
            [1, 2, 3],
            [5, 6, 7],
            [8, 9, 10]
          ])
          // The analyses read as before: no views in them; the signature round-trips.
          const read = yield* store.imageAnalyses(1, "p1")
          expect(read.map((r) => "views" in r)).toEqual([false, false, false])
          expect(Array.from(read[0].colorSignature ?? [])).toEqual([0, 255, 7])
          // A photo the product no longer has is no sample, and gets no views; nor anything of a removed product.
          yield* store.put(1, "p1", record("Drill"), urls("b"))
          expect([...(yield* samplesOf("p1")).keys()]).toEqual([b.id])
          expect(yield* store.saveImageViews(1, "p1", [{ imageId: a.id, views: [vector(1, 1, 1)] }])).toBe(0)
          yield* store.put(1, "p1", record("Drill"), urls("a", "b"))
          expect(yield* store.saveImageAnalyses(1, "p1", [analysis(a.id, a.url, vector(1, 2, 3))])).toBe(1)
          expect((yield* samplesOf("p1")).get(a.id)?.vectors).toEqual([[1, 2, 3]])
          yield* store.saveImageViews(1, "p1", [{ imageId: b.id, views: [vector(2, 2, 2)] }])
          yield* store.remove(1, "p1")
          expect(yield* store.imageSamples(1, ["p1", "absent"])).toEqual([])
          yield* store.put(1, "p1", record("Drill"), urls("b"))
          expect(yield* store.saveImageAnalyses(1, "p1", [analysis(b.id, b.url, vector(4, 4, 4))])).toBe(1)
          expect((yield* samplesOf("p1")).get(b.id)?.vectors).toEqual([[4, 4, 4]])
        })
    )

    test("productIds pages through one site's ids in order", (store) =>
      Effect.gen(function* () {
        for (const id of ["b", "a:1", "c", "a"]) yield* store.put(1, id, record(id), undefined)
        yield* store.put(2, "z", record("z"), undefined)
        expect(yield* store.productIds(1, "", 2)).toEqual(["a", "a:1"])
        expect(yield* store.productIds(1, "a:1", 2)).toEqual(["b", "c"])
        expect(yield* store.productIds(1, "c", 2)).toEqual([])
        expect(yield* store.productIds(3, "", 2)).toEqual([])
      }))
  })
