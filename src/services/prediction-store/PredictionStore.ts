import { Context, type Effect, type Option } from "effect"
import type { StoreError } from "../catalog-store/CatalogStore.js"

/** One predicted attribute as computed (the wire shape plus how sure we are and why). */
export interface ComputedAttribute {
  readonly name: string
  /** The catalog's current value (null when the record has none). */
  readonly value: unknown
  /** The predicted value, or null when nothing in the catalog or the images gives evidence. */
  readonly prediction: unknown
  /** Share of the evidence behind `prediction` (0..1); null without a prediction. */
  readonly confidence: number | null
  /** Where the prediction came from: the product's own images, its title, or its neighbours. */
  readonly source: "image" | "title" | "neighbours" | null
}

export interface ComputedImage {
  readonly url: string
  readonly imageId: string
  readonly attributes: ReadonlyArray<ComputedAttribute>
}

/** Everything predicted for one product version (every predictable attribute, every image). */
export interface PredictionResult {
  readonly attributes: ReadonlyArray<ComputedAttribute>
  readonly images: ReadonlyArray<ComputedImage>
  /** Distinct neighbours that voted. */
  readonly neighbours: number
}

export interface StoredPrediction {
  readonly siteId: number
  readonly productId: string
  /** The record version the prediction was computed from. */
  readonly version: number
  /** Fingerprint of every input of the product itself (version and image analyses): see `predictionInputs`. */
  readonly inputs: string
  readonly result: PredictionResult
  readonly computedAt: number
}

/**
 * Predictions are derived data, like vectors: one row per product, the latest computation,
 * tagged with the inputs it came from so a reader can tell whether it is still current.
 */
export interface PredictionStoreService {
  readonly get: (siteId: number, productId: string) => Effect.Effect<Option.Option<StoredPrediction>, StoreError>
  /** Keeps the newer of the stored and the given prediction (by record version). */
  readonly save: (prediction: StoredPrediction) => Effect.Effect<void, StoreError>
  readonly remove: (siteId: number, productId: string) => Effect.Effect<void, StoreError>
}

export class PredictionStore extends Context.Tag("PredictionStore")<PredictionStore, PredictionStoreService>() {}
