import { Effect, Layer, Option } from "effect"
import { predictAttributes } from "../src/catalog/AttributePrediction.js"
import { ProductImages } from "../src/catalog/ProductImages.js"
import { ProductIndexer } from "../src/catalog/ProductIndexer.js"
import type { CatalogIndex } from "../src/services/CatalogIndex.js"
import type { CatalogStore } from "../src/services/CatalogStore.js"
import { type Job, JobHandler } from "../src/services/JobQueue.js"
import { PredictionStore } from "../src/services/prediction/PredictionStore.js"

const keys = (jobs: ReadonlyArray<Job>) => jobs.map((j) => ({ siteId: j.siteId, productId: j.productId }))

/**
 * The work behind every job kind. The in-process queue runs it inside the api process; the
 * BullMQ worker processes run the same layer.
 * - IndexProduct / RemoveProduct: reconcile the index with the current record (text first, so a
 *   product is searchable before its images are looked at), then ask for image analysis.
 * - AnalyzeImages: fetch and analyse new images, then re-index with the image vectors.
 * - PredictAttributes: indexed like IndexProduct (it is one of the text jobs), its pending images
 *   analysed at once rather than as a follow-up, then its attributes predicted and stored.
 *   Needs a PredictionStore; a process without one logs and skips these jobs.
 */
export const JobHandlersLive = Layer.effect(
  JobHandler,
  Effect.gen(function*() {
    const indexer = yield* ProductIndexer
    const images = yield* ProductImages
    const predictions = yield* Effect.serviceOption(PredictionStore)
    const catalog = yield* Effect.context<CatalogStore | CatalogIndex>()
    return {
      handle: (jobs) =>
        Effect.gen(function*() {
          const textJobs = jobs.filter((j) => j._tag !== "AnalyzeImages")
          const imageJobs = jobs.filter((j) => j._tag === "AnalyzeImages")
          const followUps: Array<Job> = []
          if (textJobs.length > 0) {
            yield* indexer.index(keys(textJobs))
            for (const key of yield* images.pending(keys(textJobs))) followUps.push({ _tag: "AnalyzeImages", ...key })
          }
          if (imageJobs.length > 0) {
            const changed = yield* images.analyze(keys(imageJobs))
            if (changed.length > 0) yield* indexer.index(changed)
          }
          const predictJobs = jobs.filter((j) => j._tag === "PredictAttributes")
          if (predictJobs.length > 0) {
            if (Option.isNone(predictions)) {
              yield* Effect.logWarning("no prediction store in this process; PredictAttributes jobs skipped", { jobs: predictJobs.length })
            } else {
              const unanalysed = yield* images.pending(keys(predictJobs))
              if (unanalysed.length > 0) {
                const changed = yield* images.analyze(unanalysed)
                if (changed.length > 0) yield* indexer.index(changed)
              }
              yield* predictAttributes(keys(predictJobs)).pipe(
                Effect.provide(catalog),
                Effect.provideService(PredictionStore, predictions.value)
              )
            }
          }
          return followUps
        })
    }
  })
)
