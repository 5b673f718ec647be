import { Context, Effect, Layer, Option } from "effect"
import { type AnalyzeOptions, ImageAnalyzer } from "../services/image-analyzer/ImageAnalyzer.js"
import { isImageFailure, isImageUnavailable } from "../services/image-intake/IntakeErrors.js"
import { ImageIntake } from "../services/image-intake/ImageIntake.js"
import { toRgb } from "../services/image-intake/Rgb.js"
import { CatalogStore, type PendingImageWork } from "../services/catalog-store/CatalogStore.js"
import { ANALYSIS_SIZE, type ImageAnalysisRecord, type ImageObjects } from "../model/ImageAnalysis.js"
import type { ProductKey, StoredImage } from "../model/StoredProduct.js"
import { visualAttributes } from "../model/ProductDocument.js"
import { colorSignature } from "../visual-space/ColorSignature.js"

/**
 * Images fetched and analysed at once per call (the products of a batch together). The models
 * are the bottleneck, not the network: this only keeps the next images fetched and decoded
 * while the model threads work. DNS lookups occupy libuv's thread pool (which `npm start`
 * widens with UV_THREADPOOL_SIZE).
 */
const IMAGE_CONCURRENCY = 4

export type AnalysedProduct = ProductKey & { readonly photos: number }

/** An image of a product with the request field that named it, for error messages. */
interface ProductImage extends StoredImage {
  readonly key: ProductKey
  readonly field: string
}

/**
 * The two passes over product images. Each image is fetched through the SSRF-safe intake.
 * - analyze: features, adult score, colours and colour signature (visual-space/ColorSignature.ts)
 *   of images without an analysis: what makes the product visually searchable. An image that
 *   cannot be fetched or decoded is recorded as failed with its reason (and not retried until its
 *   URL changes), so it never blocks the product.
 * - detect: objects of analysed images that have none yet, a pass of its own because detection
 *   costs several times the rest (it only feeds text search and predicted attributes).
 * Both read the current record and save through store methods that keep only images the
 * product still has, so a late or repeated call is harmless. Both return the products whose
 * index documents changed, for re-indexing.
 */
export class ProductImages extends Context.Tag("ProductImages")<
  ProductImages,
  {
    /** `objects`: detect in the same pass (attribute prediction, where a merchant waits for them). */
    /** The products whose analyses were saved, each with how many of its photos were analysed ok. */
    readonly analyze: (
      keys: ReadonlyArray<ProductKey>,
      options?: { readonly objects?: boolean }
    ) => Effect.Effect<ReadonlyArray<AnalysedProduct>, unknown>
    /** "background" for the catalog's detection pass, "batch" when a merchant waits. */
    readonly detect: (
      keys: ReadonlyArray<ProductKey>,
      options: { readonly priority: NonNullable<AnalyzeOptions["priority"]> }
    ) => Effect.Effect<ReadonlyArray<ProductKey>, unknown>
    readonly pending: (keys: ReadonlyArray<ProductKey>) => Effect.Effect<PendingImageWork, unknown>
  }
>() {}

const sameKey = (a: ProductKey, b: ProductKey) => a.siteId === b.siteId && a.productId === b.productId

export const ProductImagesLive = Layer.effect(
  ProductImages,
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const intake = yield* ImageIntake
    const analyzer = yield* ImageAnalyzer

    const pixels = (image: ProductImage) =>
      Effect.flatMap(intake.fromUrl(image.url, image.field), (decoded) =>
        toRgb(decoded, { size: ANALYSIS_SIZE, fit: "contain" })
      )

    const analyzeOne = (image: ProductImage, objects: boolean) =>
      Effect.gen(function* () {
        const decoded = yield* intake.fromUrl(image.url, image.field)
        const rgb = yield* toRgb(decoded, { size: ANALYSIS_SIZE, fit: "contain" })
        const [analysis, signature] = yield* Effect.all(
          [analyzer.analyze(rgb, { detect: objects, priority: "batch" }), colorSignature(decoded)],
          { concurrency: 2 }
        )
        return {
          imageId: image.id,
          url: image.url,
          status: "ok",
          reason: null,
          embedding: analysis.embedding,
          colorSignature: signature,
          adult: analysis.adult,
          colors: analysis.colors,
          objects: objects ? analysis.objects : null,
          analyzedAt: Date.now()
        } satisfies ImageAnalysisRecord
      }).pipe(
        Effect.catchAll((e: { readonly message?: string }) =>
          Effect.succeed({
            imageId: image.id,
            url: image.url,
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

    /**
     * An image intake now rejects (no longer an image, too large) is recorded with no objects,
     * as the first pass records such an image failed. A host failing or an analyser failure (a
     * crashed or closing thread) may pass: the image is left pending, for the product's next
     * indexing to ask again.
     */
    const detectOne = (image: ProductImage, priority: NonNullable<AnalyzeOptions["priority"]>) =>
      pixels(image).pipe(
        Effect.flatMap((rgb) => analyzer.detect(rgb, { priority })),
        Effect.map((objects) => Option.some<ImageObjects>({ imageId: image.id, objects })),
        Effect.catchAll((e) =>
          isImageFailure(e) && !isImageUnavailable(e)
            ? Effect.as(
                Effect.logWarning("product image rejected for object detection", {
                  ...image.key,
                  url: image.url,
                  reason: e.message
                }),
                Option.some<ImageObjects>({ imageId: image.id, objects: [] })
              )
            : Effect.as(
                Effect.logWarning("object detection failed; left pending", {
                  ...image.key,
                  url: image.url,
                  reason: e.message
                }),
                Option.none<ImageObjects>()
              )
        )
      )

    const current = (key: ProductKey) =>
      Effect.gen(function* () {
        const product = yield* store.get(key.siteId, key.productId)
        if (Option.isNone(product)) return undefined
        const images = product.value.images.map(
          (image, i): ProductImage => ({ ...image, key, field: `images.${i}.url` })
        )
        return { images, analyses: yield* store.imageAnalyses(key.siteId, key.productId) }
      })

    const unanalysed = (state: Effect.Effect.Success<ReturnType<typeof current>>) => {
      if (state === undefined) return []
      const done = new Set(state.analyses.map((a) => a.imageId))
      return state.images.filter((image) => !done.has(image.id))
    }

    const undetected = (state: Effect.Effect.Success<ReturnType<typeof current>>) => {
      if (state === undefined) return []
      const waiting = new Set(
        state.analyses.filter((a) => a.status === "ok" && a.objects === null).map((a) => a.imageId)
      )
      return state.images.filter((image) => waiting.has(image.id))
    }

    const analyze = (keys: ReadonlyArray<ProductKey>, options?: { readonly objects?: boolean }) =>
      Effect.gen(function* () {
        const todo = (yield* Effect.forEach(keys, current)).flatMap(unanalysed)
        if (todo.length === 0) return []
        const analyses = yield* Effect.forEach(todo, (image) => analyzeOne(image, options?.objects ?? false), {
          concurrency: IMAGE_CONCURRENCY
        })
        const changed: Array<AnalysedProduct> = []
        for (const key of keys) {
          const own = analyses.filter((_, i) => sameKey(todo[i].key, key))
          if (own.length === 0) continue
          const kept = yield* store.saveImageAnalyses(key.siteId, key.productId, own)
          for (const a of own) {
            if (a.status === "failed")
              yield* Effect.logWarning("product image failed", { ...key, url: a.url, reason: a.reason })
          }
          if (kept > 0) changed.push({ ...key, photos: Math.min(kept, own.filter((a) => a.status === "ok").length) })
        }
        return changed
      })

    const detect = (
      keys: ReadonlyArray<ProductKey>,
      options: { readonly priority: NonNullable<AnalyzeOptions["priority"]> }
    ) =>
      Effect.gen(function* () {
        const states = yield* Effect.forEach(keys, current)
        const todo = states.flatMap(undetected)
        if (todo.length === 0) return []
        const found = yield* Effect.forEach(todo, (image) => detectOne(image, options.priority), {
          concurrency: IMAGE_CONCURRENCY
        })
        const changed: Array<ProductKey> = []
        for (const [k, key] of keys.entries()) {
          const detections = found.flatMap((d, i) => (Option.isSome(d) && sameKey(todo[i].key, key) ? [d.value] : []))
          if (detections.length === 0) continue
          const saved = yield* store.saveImageObjects(key.siteId, key.productId, detections)
          // Re-indexing costs a text embedding: only worth it when the product's object words change.
          const before = states[k]?.analyses ?? []
          const byId = new Map(detections.map((d) => [d.imageId, d.objects]))
          const after = before.map((a) =>
            a.objects === null && byId.has(a.imageId) ? { ...a, objects: byId.get(a.imageId)! } : a
          )
          if (saved > 0 && visualAttributes(after).objects.join("\n") !== visualAttributes(before).objects.join("\n"))
            changed.push(key)
        }
        return changed
      })

    return {
      analyze,
      detect,
      pending: (keys) =>
        Effect.gen(function* () {
          const states = yield* Effect.forEach(keys, current)
          return {
            analyze: keys.filter((_, i) => unanalysed(states[i]).length > 0),
            detect: keys.filter((_, i) => undetected(states[i]).length > 0)
          }
        })
    }
  })
)
