import { Context, type Effect, type Option } from "effect"
import type { StoreError } from "../catalog-store/CatalogStore.js"
import type { StoredPrediction } from "../../model/Prediction.js"

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
