import { Context, Effect, Layer, Option } from "effect"
import { ImageAnalyzer } from "../services/ImageAnalyzer.js"
import { ImageIntake, toRgb } from "../services/ImageIntake.js"
import { CatalogStore, type ImageAnalysisRecord, type ProductKey } from "../services/CatalogStore.js"

/** Side of the square the analyser gets: enough for colours and detection, cheap to move between threads. */
const ANALYSIS_SIZE = 512
/**
 * Image downloads in flight per product. The models are the bottleneck, not the network, and
 * DNS lookups occupy libuv's thread pool (which `npm start` widens with UV_THREADPOOL_SIZE).
 */
const FETCH_CONCURRENCY = 2

/**
 * Fetches and analyses the product images that have no analysis yet. Each image is fetched
 * through the SSRF-safe intake; an image that cannot be fetched or decoded is recorded as
 * failed with its reason (and not retried until its URL changes), so it never blocks the
 * product. Returns the products whose analyses changed, for re-indexing.
 */
export class ProductImages extends Context.Tag("ProductImages")<ProductImages, {
  readonly analyze: (keys: ReadonlyArray<ProductKey>) => Effect.Effect<ReadonlyArray<ProductKey>, unknown>
  /** Products among `keys` that have images without an analysis. */
  readonly pending: (keys: ReadonlyArray<ProductKey>) => Effect.Effect<ReadonlyArray<ProductKey>, unknown>
}>() {}

export const ProductImagesLive = Layer.effect(
  ProductImages,
  Effect.gen(function*() {
    const store = yield* CatalogStore
    const intake = yield* ImageIntake
    const analyzer = yield* ImageAnalyzer

    const analyzeOne = (url: string, imageId: string, field: string) =>
      Effect.gen(function*() {
        const image = yield* intake.fromUrl(url, field)
        const rgb = yield* toRgb(image, { size: ANALYSIS_SIZE, fit: "contain" })
        const analysis = yield* analyzer.analyze(rgb, { priority: "batch" })
        return {
          imageId,
          url,
          status: "ok",
          reason: null,
          embedding: analysis.embedding,
          adult: analysis.adult,
          colors: analysis.colors,
          objects: analysis.objects,
          analyzedAt: Date.now()
        } satisfies ImageAnalysisRecord
      }).pipe(
        Effect.catchAll((e: { readonly message?: string }) =>
          Effect.succeed({
            imageId,
            url,
            status: "failed",
            reason: e.message ?? String(e),
            embedding: null,
            adult: null,
            colors: [],
            objects: [],
            analyzedAt: Date.now()
          } satisfies ImageAnalysisRecord)
        )
      )

    const missing = (key: ProductKey) =>
      Effect.gen(function*() {
        const product = yield* store.get(key.siteId, key.productId)
        if (Option.isNone(product)) return []
        const done = new Set((yield* store.imageAnalyses(key.siteId, key.productId)).map((a) => a.imageId))
        return product.value.images.flatMap((image, i) => (done.has(image.id) ? [] : [{ ...image, field: `images.${i}.url` }]))
      })

    return {
      pending: (keys) => Effect.filter(keys, (key) => Effect.map(missing(key), (m) => m.length > 0)),
      analyze: (keys) =>
        Effect.gen(function*() {
          const changed: Array<ProductKey> = []
          for (const key of keys) {
            const todo = yield* missing(key)
            if (todo.length === 0) continue
            const analyses = yield* Effect.forEach(todo, (i) => analyzeOne(i.url, i.id, i.field), { concurrency: FETCH_CONCURRENCY })
            const kept = yield* store.saveImageAnalyses(key.siteId, key.productId, analyses)
            for (const a of analyses) {
              if (a.status === "failed") yield* Effect.logWarning("product image failed", { siteId: key.siteId, productId: key.productId, url: a.url, reason: a.reason })
            }
            if (kept > 0) changed.push(key)
          }
          return changed
        })
    }
  })
)
