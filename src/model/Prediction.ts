import { Schema } from "effect"

/** One predicted attribute as computed (the wire shape plus how sure we are and why). */
export const ComputedAttribute = Schema.Struct({
  name: Schema.String,
  /** The catalog's current value (null when the record has none). */
  value: Schema.Unknown,
  /** The predicted value, or null when nothing in the catalog or the images gives evidence. */
  prediction: Schema.Unknown,
  /** Share of the evidence behind `prediction` (0..1); null without a prediction. */
  confidence: Schema.NullOr(Schema.Number),
  /** Where the prediction came from: the product's own images, its title, or its neighbours. */
  source: Schema.NullOr(Schema.Literal("image", "title", "neighbours"))
})
export type ComputedAttribute = typeof ComputedAttribute.Type

export const ComputedImage = Schema.Struct({
  url: Schema.String,
  imageId: Schema.String,
  attributes: Schema.Array(ComputedAttribute)
})
export type ComputedImage = typeof ComputedImage.Type

/** Everything predicted for one product version (every predictable attribute, every image). */
export const PredictionResult = Schema.Struct({
  attributes: Schema.Array(ComputedAttribute),
  images: Schema.Array(ComputedImage),
  /** Distinct neighbours that voted. */
  neighbours: Schema.Number
})
export type PredictionResult = typeof PredictionResult.Type

/** The latest prediction of one product, with the inputs it was computed from. */
export const StoredPrediction = Schema.Struct({
  siteId: Schema.Number,
  productId: Schema.String,
  /** The record version the prediction was computed from. */
  version: Schema.Number,
  /** Fingerprint of every input of the product itself (version and image analyses): see `predictionInputs`. */
  inputs: Schema.String,
  result: PredictionResult,
  computedAt: Schema.Number
})
export type StoredPrediction = typeof StoredPrediction.Type
