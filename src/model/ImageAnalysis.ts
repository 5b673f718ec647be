import { Schema } from "effect"
import { Vector } from "./Vector.js"

/** Side of the square the analyser gets: enough for colours and detection, cheap to move between threads. */
export const ANALYSIS_SIZE = 512

/** A dominant colour of an image: its palette name, its hex and the share of the image it covers. */
export const ImageColor = Schema.Struct({ name: Schema.String, hex: Schema.String, share: Schema.Number })
export type ImageColor = typeof ImageColor.Type

export const StoredObject = Schema.Struct({
  classId: Schema.Number,
  class: Schema.String,
  score: Schema.Number,
  rectangle: Schema.Struct({ left: Schema.Number, top: Schema.Number, width: Schema.Number, height: Schema.Number })
})
export type StoredObject = typeof StoredObject.Type

/** What the vision models derived from one product image (or why they could not). */
export const ImageAnalysisRecord = Schema.Struct({
  imageId: Schema.String,
  url: Schema.String,
  status: Schema.Literal("ok", "failed"),
  /** Why the image could not be used (fetch refused, not an image, …); null when ok. */
  reason: Schema.NullOr(Schema.String),
  embedding: Schema.NullOr(Vector),
  /**
   * The photo's colours as root shares of two histograms, a byte a bin
   * (visual-space/ColorSignature.ts); absent for a failed image and for analyses stored
   * before signatures were kept.
   */
  colorSignature: Schema.optional(Schema.Uint8ArrayFromSelf),
  adult: Schema.NullOr(Schema.Number),
  colors: Schema.Array(ImageColor),
  /**
   * Detected objects; null while object detection, a later and lower-priority pass than
   * features and colours, has not run on the image yet (always [] for a failed image).
   */
  objects: Schema.NullOr(Schema.Array(StoredObject)),
  analyzedAt: Schema.Number
})
export type ImageAnalysisRecord = typeof ImageAnalysisRecord.Type

/**
 * A product photo's training samples for the learned visual space: its features, then the
 * features of its views (its mirror image and its centre, visual-space/PhotoViews.ts) once a
 * fit computed them (CatalogStore.saveImageViews). Stores keep views beside the analysis and read
 * them only here, so reading analyses costs no more for them.
 */
export interface ImageSamples {
  readonly productId: string
  readonly imageId: string
  readonly url: string
  readonly vectors: ReadonlyArray<Float32Array>
}

/** The features of a photo's views, to store beside its analysis. */
export interface ImageViews {
  readonly imageId: string
  readonly views: ReadonlyArray<Float32Array>
}

/** The result of the detection pass for one image. */
export interface ImageObjects {
  readonly imageId: string
  readonly objects: ReadonlyArray<StoredObject>
}
