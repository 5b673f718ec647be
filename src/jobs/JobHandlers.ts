import { Effect, Layer, Option } from "effect"
import { predictAttributes } from "../indexing/AttributePrediction.js"
import { reindexImageData, storedReindexing } from "../indexing/ImageReindex.js"
import { ProductImages } from "../indexing/ProductImages.js"
import { ProductIndexer } from "../indexing/ProductIndexer.js"
import type { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import type { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import type { SiteVisualSpaces } from "../visual-space/SiteVisualSpaces.js"
import type { ProductKey } from "../model/StoredProduct.js"
import { isProductJob, type Job, type ProductJob } from "../model/Jobs.js"
import { aggregateJobs } from "../learning/Aggregation.js"
import { fitJobs, photosAnalysed, StoredReindexing } from "../visual-space/VisualSpaceFit.js"
import type { VisualSpaceStore } from "../visual-space/VisualSpaceStore.js"
import type { ImageAnalyzer } from "../services/image-analyzer/ImageAnalyzer.js"
import type { ImageIntake } from "../services/image-intake/ImageIntake.js"
import type { EventLog } from "../services/event-log/EventLog.js"
import type { ShopperStats } from "../services/shopper-stats/ShopperStats.js"
import type { Suggester } from "../services/suggester/Suggester.js"
import { JobHandler } from "../services/job-queue/JobQueue.js"
import { PredictionStore } from "../services/prediction-store/PredictionStore.js"

const keys = (jobs: ReadonlyArray<ProductJob>) => jobs.map((j) => ({ siteId: j.siteId, productId: j.productId }))

const distinct = (list: ReadonlyArray<ProductKey>) => [
  ...new Map(list.map((k) => [`${k.siteId}\u0000${k.productId}`, k])).values()
]

/**
 * The work behind every job kind. The in-process queue runs it inside the api process; the
 * BullMQ worker processes run the same layer.
 * - IndexProduct / RemoveProduct: reconcile the index with the current record (text first, so a
 *   product is searchable before its images are looked at), then ask for the image work it
 *   still lacks: AnalyzeImages for new images, DetectObjects for analysed ones without objects
 *   (a detection pass that a crash or restart cut short is picked up here).
 * - AnalyzeImages: fetch new images, compute features, adult score and colours, re-index with
 *   the image vectors (the product is now visually searchable), then ask for DetectObjects.
 * - DetectObjects: detect objects of analysed images at the image threads' lowest priority,
 *   re-index when the product's object words changed.
 * - PredictAttributes: indexed like IndexProduct (it is one of the text jobs), its pending
 *   images analysed and their objects detected at once rather than as follow-ups, then its
 *   attributes predicted and stored. Needs a PredictionStore; a process without one logs and
 *   skips these jobs.
 * - AggregateEvents: the site's new shopper events added to its statistics (learning/Aggregation.ts).
 * - FitVisualSpace: the site's learned visual space fitted anew and its products re-indexed in it
 *   (visual-space/VisualSpaceFit.ts); image passes queue it when enough new photos came.
 */
export const JobHandlersLive = Layer.effect(
  JobHandler,
  Effect.gen(function* () {
    const indexer = yield* ProductIndexer
    const images = yield* ProductImages
    const predictions = yield* Effect.serviceOption(PredictionStore)
    const catalog = yield* Effect.context<CatalogStore | CatalogIndex | SiteVisualSpaces>()
    const learning = yield* Effect.context<EventLog | ShopperStats | Suggester>()
    const visual = yield* Effect.context<
      CatalogStore | CatalogIndex | VisualSpaceStore | SiteVisualSpaces | ImageIntake | ImageAnalyzer
    >()
    // After an image pass: the text vector is reused when the text is unchanged (ImageReindex).
    const reindex = (changed: ReadonlyArray<ProductKey>) =>
      changed.length > 0
        ? reindexImageData(changed).pipe(Effect.provide(catalog), Effect.provideService(ProductIndexer, indexer))
        : Effect.void
    const fitReindexing = yield* storedReindexing.pipe(Effect.provide(catalog))
    return {
      handle: (all) =>
        Effect.gen(function* () {
          yield* aggregateJobs(all).pipe(Effect.provide(learning))
          yield* fitJobs(all).pipe(Effect.provide(visual), Effect.provideService(StoredReindexing, fitReindexing))
          const jobs = all.filter(isProductJob)
          const keysOfKind = (tag: Job["_tag"]) => keys(jobs.filter((j) => j._tag === tag))
          const textKeys = keys(jobs.filter((j) => j._tag !== "AnalyzeImages" && j._tag !== "DetectObjects"))
          const followUps: Array<Job> = []
          if (textKeys.length > 0) yield* indexer.index(textKeys)
          const imageKeys = keysOfKind("AnalyzeImages")
          if (imageKeys.length > 0) {
            const changed = yield* images.analyze(imageKeys)
            yield* reindex(changed)
            followUps.push(...(yield* photosAnalysed(changed).pipe(Effect.provide(visual))))
            for (const key of (yield* images.pending(changed)).detect) followUps.push({ _tag: "DetectObjects", ...key })
          }
          const detectKeys = keysOfKind("DetectObjects")
          if (detectKeys.length > 0) yield* reindex(yield* images.detect(detectKeys, { priority: "background" }))
          const predictKeys = keysOfKind("PredictAttributes")
          if (predictKeys.length > 0) {
            if (Option.isNone(predictions)) {
              yield* Effect.logWarning("no prediction store in this process; PredictAttributes jobs skipped", {
                jobs: predictKeys.length
              })
            } else {
              // A merchant waits: both passes now, at catalog priority, objects included.
              const analysed = yield* images.analyze((yield* images.pending(predictKeys)).analyze, { objects: true })
              const detected = yield* images.detect(predictKeys, { priority: "batch" })
              yield* reindex(distinct([...analysed, ...detected]))
              followUps.push(...(yield* photosAnalysed(analysed).pipe(Effect.provide(visual))))
              yield* predictAttributes(predictKeys).pipe(
                Effect.provide(catalog),
                Effect.provideService(PredictionStore, predictions.value)
              )
            }
          }
          if (textKeys.length > 0) {
            const pending = yield* images.pending(textKeys)
            for (const key of pending.analyze) followUps.push({ _tag: "AnalyzeImages", ...key })
            for (const key of pending.detect) followUps.push({ _tag: "DetectObjects", ...key })
          }
          return followUps
        })
    }
  })
)
