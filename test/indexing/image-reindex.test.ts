import { SiteVisualSpacesLive } from "../../src/visual-space/SiteVisualSpaces.js"
import { EmbeddedVisualSpaceStore } from "../../src/visual-space/EmbeddedVisualSpaceStore.js"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { reindexImageData } from "../../src/indexing/ImageReindex.js"
import { toIndexDocument } from "../../src/model/ProductDocument.js"
import { ProductIndexer, textKey } from "../../src/indexing/ProductIndexer.js"
import { embeddingText } from "../../src/model/ProductDocument.js"
import { TEXT_MODEL } from "../../src/services/text-embedder/TextModel.js"
import { settings } from "../support/Settings.js"
import type { ProductRecord } from "../../src/domain/Product.js"
import { EmbeddedCatalogIndex } from "../../src/services/catalog-index/EmbeddedCatalogIndex.js"
import { EmbeddedCatalogStore } from "../../src/services/catalog-store/EmbeddedCatalogStore.js"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import type { ImageAnalysisRecord } from "../../src/model/ImageAnalysis.js"
import type { ProductKey } from "../../src/model/StoredProduct.js"
import { Sqlite } from "../../src/platform/Sqlite.js"

const unit = (n: number, hot: number) => {
  const v = new Float32Array(n).fill(0.01)
  v[hot] = 1
  const norm = Math.hypot(...v)
  return v.map((x) => x / norm)
}

/** A real store and index; the full indexer is a recorder, so a text embedding shows up as a call. */
const services = () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-reindex-"))
  const calls: Array<ReadonlyArray<ProductKey>> = []
  const store = Layer.mergeAll(
    EmbeddedCatalogStore.layer,
    SiteVisualSpacesLive.pipe(Layer.provideMerge(EmbeddedVisualSpaceStore.layer))
  ).pipe(
    Layer.provide(Sqlite.layer),
    Layer.provide(settings({ DATA_DIR: dataDir, SITES_FILE: path.join(dataDir, "sites.json") }))
  )
  const indexer = Layer.succeed(ProductIndexer, { index: (keys) => Effect.sync(() => void calls.push(keys)) })
  return { calls, layer: Layer.mergeAll(store, EmbeddedCatalogIndex.layer, indexer) }
}

/** A text vector of the current model's size. */
const textVector = (hot: number) => unit(TEXT_MODEL.dimensions, hot)

/**
 * Puts a product and indexes it by text the way the indexer would: `textVector` saved with the
 * key of the text it was computed from, then indexed.
 */
const indexedProduct = (productId: string, data: Record<string, unknown>, textVector: Float32Array) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const { product } = yield* store.put(1, productId, data as ProductRecord, [
      { url: `https://img.example.com/${productId}.jpg` }
    ])
    yield* store.saveDerived([
      { siteId: 1, productId, version: product.version, textVector, textKey: textKey(embeddingText(product.data)) }
    ])
    yield* (yield* CatalogIndex).upsert([toIndexDocument(product, textVector)])
    return product
  })

const analysed = (productId: string, imageId: string, url: string) =>
  Effect.flatMap(CatalogStore, (store) =>
    store.saveImageAnalyses(1, productId, [
      {
        imageId,
        url,
        status: "ok",
        reason: null,
        embedding: unit(8, 3),
        adult: 0.01,
        colors: [{ name: "red", hex: "#c81e1e", share: 0.9 }],
        objects: [{ classId: 41, class: "cup", score: 0.9, rectangle: { left: 0, top: 0, width: 1, height: 1 } }],
        analyzedAt: 1
      } satisfies ImageAnalysisRecord
    ])
  )

describe("reindexImageData", () => {
  it.live("adds the image data to the index with the saved text vector that fits, without a text embedding", () => {
    const { calls, layer } = services()
    return Effect.gen(function* () {
      const store = yield* CatalogStore
      const text = textVector(5)
      const product = yield* indexedProduct("mug", { title: "Ceramic mug" }, text)
      // Embedded by its brand (no title); a price change since keeps the text and its vector.
      const untitledVector = textVector(7)
      yield* indexedProduct("untitled", { brand: "Acme", price: 3 }, untitledVector)
      const { product: untitled } = yield* store.put(
        1,
        "untitled",
        { brand: "Acme", price: 4 } as ProductRecord,
        undefined
      )
      for (const p of [product, untitled]) yield* analysed(p.productId, p.images[0].id, p.images[0].url)
      yield* reindexImageData([
        { siteId: 1, productId: "mug" },
        { siteId: 1, productId: "untitled" }
      ])
      expect(calls).toEqual([])
      const docs = yield* (yield* CatalogIndex).retrieve(1, ["mug", "untitled"])
      for (const [doc, vector] of [
        [docs[0], text],
        [docs[1], untitledVector]
      ] as const) {
        expect(doc.payload.image_color).toEqual(["red"])
        expect(doc.payload.image_object).toEqual(["cup"])
        expect(doc.vectors.image).toHaveLength(1)
        Array.from(doc.vectors.text!).forEach((x, i) => expect(x).toBeCloseTo(vector[i], 5))
      }
      expect(docs[1].payload.price).toBe(4)
    }).pipe(Effect.provide(layer))
  })

  it.live("indexes in full whatever it cannot reuse: a changed text, a product not embedded yet or deleted", () => {
    const { calls, layer } = services()
    return Effect.gen(function* () {
      const store = yield* CatalogStore
      yield* indexedProduct("retitled", { title: "Old title" }, textVector(1))
      yield* store.put(1, "retitled", { title: "New title" } as ProductRecord, undefined)
      yield* indexedProduct("rebranded", { brand: "Acme" }, textVector(2))
      yield* store.put(1, "rebranded", { brand: "Acme Tools" } as ProductRecord, undefined)
      yield* store.put(1, "never-indexed", { title: "Fresh" } as ProductRecord, undefined)
      yield* indexedProduct("deleted", { title: "Gone" }, textVector(3))
      yield* store.remove(1, "deleted")
      const keys = ["retitled", "rebranded", "never-indexed", "deleted"].map((productId) => ({ siteId: 1, productId }))
      yield* reindexImageData(keys)
      expect(calls).toEqual([keys])
    }).pipe(Effect.provide(layer))
  })
})
