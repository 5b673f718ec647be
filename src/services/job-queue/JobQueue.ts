import { Context, type Effect, Schema } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"

/**
 * Work that runs outside the request path. Payloads are schemas because in the distributed
 * topology they cross a process boundary (BullMQ) and are decoded by the worker.
 * Jobs name a product, not a version: the handler always works on the current record, so a
 * job that is retried or arrives late is harmless (idempotent).
 */
export const IndexProduct = Schema.TaggedStruct("IndexProduct", {
  siteId: Schema.Int,
  productId: Schema.String
})
export const RemoveProduct = Schema.TaggedStruct("RemoveProduct", {
  siteId: Schema.Int,
  productId: Schema.String
})
/**
 * Fetch and analyse the product's images that have no analysis yet (features, adult score,
 * colours: what visual search needs), then re-index it.
 */
export const AnalyzeImages = Schema.TaggedStruct("AnalyzeImages", {
  siteId: Schema.Int,
  productId: Schema.String
})
/**
 * Run object detection on the product's analysed images that have no objects yet, then
 * re-index it (objects become `image_object` words and values). A follow-up of AnalyzeImages:
 * detection costs about four times the rest of an analysis, so it runs as a pass of its own,
 * after the images are visually searchable and behind them on the image threads.
 */
export const DetectObjects = Schema.TaggedStruct("DetectObjects", {
  siteId: Schema.Int,
  productId: Schema.String
})
/**
 * Predict the product's attributes (POST /product/{id}/predicted-attributes) and store the result.
 * It first indexes the product like IndexProduct (and analyses its pending images, objects
 * included, at once), so it may
 * coalesce with IndexProduct in either direction without losing the indexing.
 */
export const PredictAttributes = Schema.TaggedStruct("PredictAttributes", {
  siteId: Schema.Int,
  productId: Schema.String
})
export const Job = Schema.Union(IndexProduct, RemoveProduct, AnalyzeImages, DetectObjects, PredictAttributes)
export type Job = typeof Job.Type

export class QueueError extends BackendFailure("QueueError") {}

export interface JobQueueService {
  readonly enqueue: (jobs: ReadonlyArray<Job>) => Effect.Effect<void, QueueError>
  /** Jobs accepted but not finished yet. */
  readonly pending: Effect.Effect<number, QueueError>
  /** Completes once every job enqueued so far has been handled (tests, benchmarks, shutdown). */
  readonly drained: Effect.Effect<void, QueueError>
}

export class JobQueue extends Context.Tag("JobQueue")<JobQueue, JobQueueService>() {}

/**
 * What a queue backend runs for a batch of jobs; the handlers live in workers/. A handler may
 * return follow-up jobs (e.g. image analysis after text indexing), which the backend enqueues —
 * so handlers never depend on the queue that runs them.
 */
export class JobHandler extends Context.Tag("JobHandler")<
  JobHandler,
  { readonly handle: (jobs: ReadonlyArray<Job>) => Effect.Effect<ReadonlyArray<Job> | void, unknown> }
>() {}
