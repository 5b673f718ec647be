import { SiteVisualSpacesLive } from "../../src/visual-space/SiteVisualSpaces.js"
import { EmbeddedVisualSpaceStore } from "../../src/visual-space/EmbeddedVisualSpaceStore.js"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
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
import { TextEmbedder } from "../../src/services/text-embedder/TextEmbedder.js"
import { settings } from "../support/Settings.js"

/**
 * The embedded index behind a switch that makes its writes fail, as a Qdrant that is down
 * does: the fault is injected at the index interface, everything else is the real thing.
 */
const switchableIndex = (down: { value: boolean }) =>
  Layer.effect(
    CatalogIndex,
    Effect.map(CatalogIndex, (index) => ({
      ...index,
      upsert: (docs) =>
        down.value ? Effect.fail(new IndexError({ message: "the index is down" })) : index.upsert(docs)
    }))
  ).pipe(Layer.provide(EmbeddedCatalogIndex.layer))

/** The test embedder, running `meanwhile.run` (a write while the model works) before each batch. */
const embedderWithWrites = (meanwhile: { run: Effect.Effect<void, unknown, CatalogStore> | null }) =>
  Layer.effect(
    TextEmbedder,
    Effect.gen(function* () {
      const embedder = yield* TextEmbedder
      const store = yield* CatalogStore
      return {
        ...embedder,
        embed: (texts: ReadonlyArray<string>) => {
          const write = meanwhile.run ?? Effect.void
          meanwhile.run = null
          return Effect.zipRight(Effect.orDie(Effect.provideService(write, CatalogStore, store)), embedder.embed(texts))
        }
      }
    })
  ).pipe(Layer.provide(HashingTextEmbedder))

const world = (
  down: { value: boolean },
  meanwhile: { run: Effect.Effect<void, unknown, CatalogStore> | null } = { run: null }
) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-indexer-"))
  const backends = Layer.mergeAll(
    EmbeddedCatalogStore.layer,
    EmbeddedSuggester.layer,
    SiteVisualSpacesLive.pipe(Layer.provideMerge(EmbeddedVisualSpaceStore.layer))
  ).pipe(Layer.provideMerge(Sqlite.layer), Layer.provide(settings({ DATA_DIR: dataDir })))
  const embedder = embedderWithWrites(meanwhile).pipe(Layer.provide(backends))
  return ProductIndexerLive.pipe(Layer.provideMerge(Layer.mergeAll(backends, switchableIndex(down), embedder)))
}

const modify = (productId: string, fields: Partial<ProductRecord>) =>
  Effect.flatMap(CatalogStore, (store) =>
    store.writeMany(1, [
      {
        _tag: "Modify",
        productId,
        modify: (current) => Either.right({ data: { ...current.data, ...fields } as ProductRecord })
      }
    ])
  )

describe("ProductIndexer", () => {
  it.live("a failed index write leaves the product stale, so the reconcile pass indexes it again", () => {
    const down = { value: true }
    return Effect.gen(function* () {
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

  it.live(
    "a price change while the model embeds keeps the embedding: the current version is indexed with it; " +
      "a new title discards it",
    () => {
      const meanwhile: { run: Effect.Effect<void, unknown, CatalogStore> | null } = { run: null }
      return Effect.gen(function* () {
        const store = yield* CatalogStore
        const indexer = yield* ProductIndexer
        const index = yield* CatalogIndex
        const { product } = yield* store.put(1, "kettle", { title: "Enamel kettle", price: 30 } as ProductRecord, [])
        meanwhile.run = Effect.asVoid(modify("kettle", { price: 25 } as Partial<ProductRecord>))
        yield* indexer.index([{ siteId: 1, productId: "kettle" }])
        const [current] = yield* store.getMany(1, ["kettle"])
        expect(current).toMatchObject({ textVersion: product.version, data: { price: 25 } })
        expect(current.version).toBeGreaterThan(product.version)
        expect(yield* store.stale(10)).toEqual([])
        const [doc] = yield* index.retrieve(1, ["kettle"])
        expect(doc).toMatchObject({ version: current.version, payload: { price: 25 } })
        expect(doc.vectors.text).toBeDefined()

        yield* store.put(1, "mug", { title: "Stoneware mug" } as ProductRecord, [])
        meanwhile.run = Effect.asVoid(modify("mug", { title: "Porcelain mug" } as Partial<ProductRecord>))
        yield* indexer.index([{ siteId: 1, productId: "mug" }])
        const [mug] = yield* store.getMany(1, ["mug"])
        expect(yield* store.stale(10)).toEqual([{ siteId: 1, productId: "mug", version: mug.version }])
        expect(yield* index.retrieve(1, ["mug"])).toEqual([])
      }).pipe(Effect.provide(world({ value: false }, meanwhile)))
    }
  )
})
