import { Schema } from "effect"

/**
 * Work that runs outside the request path. Payloads are schemas because in the distributed
 * topology they cross a process boundary (BullMQ) and are decoded by the worker.
 * Jobs name a product, not a version: the handler always works on the current record, so a
 * job that is retried or arrives late is harmless (idempotent).
 */
const product = { siteId: Schema.Int, productId: Schema.String }

export const IndexProduct = Schema.TaggedStruct("IndexProduct", product)
export const RemoveProduct = Schema.TaggedStruct("RemoveProduct", product)
/**
 * Fetch and analyse the product's images that have no analysis yet (features, adult score,
 * colours: what visual search needs), then re-index it.
 */
export const AnalyzeImages = Schema.TaggedStruct("AnalyzeImages", product)
/**
 * Run object detection on the product's analysed images that have no objects yet, then
 * re-index it (objects become `image_object` words and values). A follow-up of AnalyzeImages:
 * detection costs several times the rest of an analysis, so it runs as a pass of its own,
 * after the images are visually searchable and in a lane of its own behind them.
 */
export const DetectObjects = Schema.TaggedStruct("DetectObjects", product)
/**
 * Predict the product's attributes (POST /product/{id}/predicted-attributes) and store the result.
 * It first indexes the product like IndexProduct (and analyses its pending images, objects
 * included, at once), then predicts; it is a kind of its own, so an IndexProduct of the same
 * product never replaces it.
 */
export const PredictAttributes = Schema.TaggedStruct("PredictAttributes", product)
/**
 * Add the site's shopper events not aggregated yet to its statistics (learning/Aggregation.ts).
 * Sent after every stored batch of events; one per site waits at a time (the key has no
 * product), and the one that runs reads everything stored up to then.
 */
export const AggregateEvents = Schema.TaggedStruct("AggregateEvents", { siteId: Schema.Int })
/**
 * Fit the site's learned visual space on its catalog photos and re-project its products' image
 * vectors into it (visual-space/VisualSpaceFit.ts). Queued by image passes when enough new
 * photos were analysed since the last fit, or when the site's photos are all analysed.
 */
export const FitVisualSpace = Schema.TaggedStruct("FitVisualSpace", { siteId: Schema.Int })
export const Job = Schema.Union(
  IndexProduct,
  RemoveProduct,
  AnalyzeImages,
  DetectObjects,
  PredictAttributes,
  AggregateEvents,
  FitVisualSpace
)
export type Job = typeof Job.Type
/** The jobs about one product (every kind but the site-wide AggregateEvents and FitVisualSpace). */
export type ProductJob = Exclude<Job, typeof AggregateEvents.Type | typeof FitVisualSpace.Type>
export const isProductJob = (job: Job): job is ProductJob =>
  job._tag !== "AggregateEvents" && job._tag !== "FitVisualSpace"

/**
 * Each kind of work has a lane of its own in both queue backends (a BullMQ queue each, or a
 * set of fibers each in the embedded queue), so ops can size each one and run image-only
 * workers, and a slow kind holds up no other: text indexing is cheap and batched, image
 * analysis is slow and waits on image hosts, object detection is slower still and may lag
 * behind, attribute prediction is rare and a merchant is waiting for it; shoppers' events are
 * aggregated apart from all catalog work; a site's visual-space fit (which re-indexes the whole
 * site) holds up no image analysis.
 */
export type Lane = "index" | "images" | "detect" | "predict" | "events" | "spaces"
export const LANES: ReadonlyArray<Lane> = ["index", "images", "detect", "predict", "events", "spaces"]

const LANE_OF: Record<Job["_tag"], Lane> = {
  IndexProduct: "index",
  RemoveProduct: "index",
  AnalyzeImages: "images",
  DetectObjects: "detect",
  PredictAttributes: "predict",
  AggregateEvents: "events",
  FitVisualSpace: "spaces"
}
export const laneOf = (job: Job): Lane => LANE_OF[job._tag]

/**
 * Jobs with the same key coalesce (a waiting one absorbs a newer one; see the backends for
 * how an active one is followed up). IndexProduct and RemoveProduct share one: both reconcile
 * the product with its current record, so the later one does the other's work. Every other
 * kind is separate work on the product and has a key of its own, so that, say, an
 * AnalyzeImages for a new photo is never absorbed by the product's waiting DetectObjects.
 * ':' separated; product ids may contain ':' but the kind and site come first and hold none.
 */
export const dedupKey = (job: Job) =>
  isProductJob(job)
    ? `${job._tag === "RemoveProduct" ? "IndexProduct" : job._tag}:${job.siteId}:${job.productId}`
    : `${job._tag}:${job.siteId}`
