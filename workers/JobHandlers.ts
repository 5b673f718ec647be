import { Effect, Layer } from "effect"
import { ProductImages } from "../src/catalog/ProductImages.js"
import { ProductIndexer } from "../src/catalog/ProductIndexer.js"
import { type Job, JobHandler } from "../src/services/JobQueue.js"

const keys = (jobs: ReadonlyArray<Job>) => jobs.map((j) => ({ siteId: j.siteId, productId: j.productId }))

/**
 * The work behind every job kind. The in-process queue runs it inside the api process; the
 * BullMQ worker processes run the same layer.
 * - IndexProduct / RemoveProduct: reconcile the index with the current record (text first, so a
 *   product is searchable before its images are looked at), then ask for image analysis.
 * - AnalyzeImages: fetch and analyse new images, then re-index with the image vectors.
 */
export const JobHandlersLive = Layer.effect(
  JobHandler,
  Effect.gen(function*() {
    const indexer = yield* ProductIndexer
    const images = yield* ProductImages
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
          return followUps
        })
    }
  })
)
