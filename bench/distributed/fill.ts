/**
 * The bulk path that brings the catalog to its full size before anything is measured. Indexing
 * a full catalog through the workers (a model call per product, an image pass per photo) would
 * take too long per topology; instead this process writes what a worker would write, through
 * the same services a worker builds (src/topology's distributedCatalog, from the cluster's own
 * environment): the stored record, the image analysis, the derived text vector, the index
 * document (the Redis change feed every replica follows, or Qdrant) and the suggester's
 * vocabulary, in the worker's order (the store before the index, which replicas rebuild from).
 * Text vectors come from the real embedder (text-vectors.ts); photo analyses are precomputed
 * (bench/catalog/visual.ts): no image is fetched.
 */
import { ConfigProvider, Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { suggestSource } from "../../src/indexing/ProductIndexer.js"
import { toIndexDocument } from "../../src/model/ProductDocument.js"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import { EmbeddedImageAnalyzer } from "../../src/services/image-analyzer/EmbeddedImageAnalyzer.js"
import { EmbeddedImageIntake } from "../../src/services/image-intake/EmbeddedImageIntake.js"
import { ImageIntakeConfig } from "../../src/services/image-intake/ImageIntakeConfig.js"
import { Suggester } from "../../src/services/suggester/Suggester.js"
import { distributedCatalog } from "../../src/topology/DistributedCatalog.js"
import { TopologyConfig } from "../../src/topology/Topology.js"
import { fmtRate, log, memory } from "../catalog/common.js"
import type { GeneratedProduct } from "../catalog/generator.js"
import { makePhotoAnalyses } from "../catalog/visual.js"
import type { Cluster } from "./cluster.js"

/** Products per write: one store pipeline and one index write each, as a busy worker batches. */
const PAGE = 500
/** Store writes in flight: the Redis store shares round trips between concurrent calls. */
const CONCURRENCY = 64

export interface FillCatalog {
  readonly products: ReadonlyArray<GeneratedProduct>
  /** The text vector of each product, in the same order. */
  readonly vectors: ReadonlyArray<Float32Array>
  /** Products from this position on get their first photo (one each). */
  readonly photoFrom: number
}

export interface FillResult {
  readonly products: number
  readonly photos: number
  /** Seconds to embed the photo vectors' anchors (image models loaded in this process), before any write. */
  readonly anchorSeconds: number
  /** Seconds writing the products. */
  readonly seconds: number
  /** Seconds spent writing the store (records, analyses, derived data), the index and the vocabulary. */
  readonly storeSeconds: number
  readonly indexSeconds: number
  readonly suggestSeconds: number
}

/**
 * The services a worker of this cluster builds, with the cluster's environment over this process's,
 * and image models for the photo analyses.
 */
const workerServices = (env: Readonly<Record<string, string>>) => {
  const catalog = Layer.unwrapEffect(
    Effect.flatMap(TopologyConfig, (topology) =>
      topology.redisUrl === undefined
        ? Effect.die(new Error("the cluster's environment has no REDIS_URL"))
        : Effect.succeed(distributedCatalog(topology.redisUrl, topology.qdrant))
    )
  )
  const imageModels = Layer.mergeAll(
    EmbeddedImageAnalyzer.layer,
    EmbeddedImageIntake.layer.pipe(Layer.provide(ImageIntakeConfig.fromEnv))
  )
  const config = ConfigProvider.fromMap(new Map(Object.entries(env))).pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromEnv())
  )
  // The services' own progress lines (replica rebuilt, models loaded) are the api's business, not the bench's output.
  return Layer.mergeAll(catalog, imageModels).pipe(
    Layer.provide(Layer.mergeAll(Layer.setConfigProvider(config), Logger.minimumLogLevel(LogLevel.Warning)))
  )
}

export const fillCatalog = async (cluster: Cluster, catalog: FillCatalog, seed: number): Promise<FillResult> => {
  if (catalog.products.length === 0)
    return { products: 0, photos: 0, anchorSeconds: 0, seconds: 0, storeSeconds: 0, indexSeconds: 0, suggestSeconds: 0 }
  const started = performance.now()
  const runtime = ManagedRuntime.make(workerServices(cluster.env))
  try {
    const photoAnalysis = await makePhotoAnalyses(runtime.runPromise, seed)
    const writing = performance.now()
    const siteId = cluster.siteId
    const spent = { store: 0, index: 0, suggest: 0 }
    const writePage = (from: number, to: number) =>
      Effect.gen(function* () {
        const store = yield* CatalogStore
        const index = yield* CatalogIndex
        const suggester = yield* Suggester
        const t0 = performance.now()
        const page = catalog.products.slice(from, to)
        const stored = yield* Effect.forEach(
          page,
          (p, k) => store.put(siteId, p.id, p.data, from + k >= catalog.photoFrom ? p.images.slice(0, 1) : []),
          { concurrency: CONCURRENCY }
        )
        const analyses = stored.map(({ product }) =>
          product.images.slice(0, 1).map((image) => photoAnalysis(product.data, image))
        )
        yield* Effect.forEach(
          stored,
          ({ product }, k) =>
            analyses[k].length > 0
              ? Effect.asVoid(store.saveImageAnalyses(siteId, product.productId, analyses[k]))
              : Effect.void,
          {
            concurrency: CONCURRENCY,
            discard: true
          }
        )
        // Copies, as the embedder hands each worker its own vector.
        const vectors = page.map((_, k) => catalog.vectors[from + k].slice())
        yield* store.saveDerived(
          stored.map(({ product }, k) => ({
            siteId,
            productId: product.productId,
            version: product.version,
            textVector: vectors[k]
          }))
        )
        const t1 = performance.now()
        yield* index.upsert(stored.map(({ product }, k) => toIndexDocument(product, vectors[k], analyses[k])))
        const t2 = performance.now()
        yield* suggester.indexProducts(stored.map(({ product }) => suggestSource(product)))
        spent.store += t1 - t0
        spent.index += t2 - t1
        spent.suggest += performance.now() - t2
      })
    const total = catalog.products.length
    let lastLog = performance.now()
    for (let from = 0; from < total; from += PAGE) {
      await runtime.runPromise(writePage(from, Math.min(total, from + PAGE)))
      if (performance.now() - lastLog > 15_000) {
        lastLog = performance.now()
        const done = Math.min(total, from + PAGE)
        log(
          `fill: ${done}/${total} products (${fmtRate(done / ((lastLog - writing) / 1000))}/s; store ` +
            `${(spent.store / 1000).toFixed(0)} s, ` +
            `index ${(spent.index / 1000).toFixed(0)} s, vocabulary ${(spent.suggest / 1000).toFixed(0)} ` +
            `s), bench ${memory()}`
        )
      }
    }
    return {
      products: total,
      photos: Math.max(0, total - catalog.photoFrom),
      anchorSeconds: (writing - started) / 1000,
      seconds: (performance.now() - writing) / 1000,
      storeSeconds: spent.store / 1000,
      indexSeconds: spent.index / 1000,
      suggestSeconds: spent.suggest / 1000
    }
  } finally {
    // The bench process's own replicas and model threads go: they are no part of what is measured.
    await runtime.dispose()
  }
}
