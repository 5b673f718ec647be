import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { ProductRecord } from "../../src/domain/Product.js"
import { ProductIndexer, ProductIndexerLive } from "../../src/indexing/ProductIndexer.js"
import { Sqlite } from "../../src/platform/Sqlite.js"
import { CatalogIndex, IndexError } from "../../src/services/catalog-index/CatalogIndex.js"
import { EmbeddedCatalogIndex } from "../../src/services/catalog-index/EmbeddedCatalogIndex.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import { EmbeddedCatalogStore } from "../../src/services/catalog-store/EmbeddedCatalogStore.js"
import { EmbeddedSuggester } from "../../src/services/suggester/EmbeddedSuggester.js"
import { HashingTextEmbedder } from "../support/HashingTextEmbedder.js"
import { settings } from "../support/Settings.js"

/**
 * The embedded index behind a switch that makes its writes fail, as a Qdrant that is down
 * does: the fault is injected at the index interface, everything else is the real thing.
 */
const switchableIndex = (down: { value: boolean }) =>
  Layer.effect(CatalogIndex, Effect.map(CatalogIndex, (index) => ({
    ...index,
    upsert: (docs) => (down.value ? Effect.fail(new IndexError({ message: "the index is down" })) : index.upsert(docs))
  }))).pipe(Layer.provide(EmbeddedCatalogIndex.layer))

const world = (down: { value: boolean }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-indexer-"))
  const backends = Layer.mergeAll(EmbeddedCatalogStore.layer, EmbeddedSuggester.layer).pipe(
    Layer.provideMerge(Sqlite.layer),
    Layer.provide(settings({ DATA_DIR: dataDir }))
  )
  return ProductIndexerLive.pipe(Layer.provideMerge(Layer.mergeAll(backends, switchableIndex(down), HashingTextEmbedder)))
}

describe("ProductIndexer", () => {
  it.live("a failed index write leaves the product stale, so the reconcile pass indexes it again", () => {
    const down = { value: true }
    return Effect.gen(function*() {
      const store = yield* CatalogStore
      const indexer = yield* ProductIndexer
      const { product } = yield* store.put(1, "kettle", { title: "Enamel kettle" } as ProductRecord, [])
      const failed = yield* Effect.flip(indexer.index([{ siteId: 1, productId: "kettle" }]))
      expect(failed).toMatchObject({ _tag: "IndexError" })
      // The text vector was saved before the write, yet the product counts as not indexed.
      expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "kettle", version: product.version }])
      down.value = false
      yield* indexer.index([{ siteId: 1, productId: "kettle" }])
      expect(yield* store.stale(10)).toEqual([])
      const found = yield* Effect.flatMap(CatalogIndex, (index) => index.retrieve(1, ["kettle"]))
      expect(found.map((d) => d.productId)).toEqual(["kettle"])
    }).pipe(Effect.provide(world(down)))
  })
})
