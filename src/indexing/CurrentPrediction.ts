import { Clock, Duration, Effect, Option } from "effect"
import { ServiceUnavailable } from "../domain/Errors.js"
import { requireProduct } from "../services/catalog-store/CatalogStore.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { JobQueue } from "../services/job-queue/JobQueue.js"
import { PredictionStore } from "../services/prediction-store/PredictionStore.js"
import { predictionInputs } from "./AttributePrediction.js"

/** How long a request waits for its prediction job before answering 503. */
export const PREDICTION_TIMEOUT = Duration.seconds(10)
/** How often the request looks for the job's result. */
const POLL_INTERVAL = Duration.millis(50)
/**
 * How often a waiting request asks again: a job that failed (a model thread crashed, an image
 * host timed out) is not retried by the reconcile pass, and a merchant is waiting. A request
 * while the product's prediction job waits is absorbed by the queue's coalescing.
 */
const REENQUEUE_INTERVAL_MS = 1_000

/**
 * The stored prediction if it was computed from the product's current inputs; otherwise asks
 * the queue for one and waits for it. The product is re-read on every look, so an update (or a
 * deletion → 404) during the wait is honoured, and image analyses done by the job itself count.
 */
export const currentPrediction = (siteId: number, productId: string) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const predictions = yield* PredictionStore
    const queue = yield* JobQueue
    const started = yield* Clock.currentTimeMillis
    let enqueuedAt: number | null = null
    while (true) {
      const product = yield* requireProduct(siteId, productId)
      const inputs = predictionInputs(product, yield* store.imageAnalyses(siteId, productId))
      const stored = yield* predictions.get(siteId, productId)
      if (Option.isSome(stored) && stored.value.inputs === inputs) return stored.value.result
      const now = yield* Clock.currentTimeMillis
      if (now - started >= Duration.toMillis(PREDICTION_TIMEOUT)) {
        return yield* new ServiceUnavailable({
          message:
            `the prediction for product "${productId}" did not finish within ${Duration.format(PREDICTION_TIMEOUT)} ` +
            "(the job queue is busy); it keeps running, so retry shortly"
        })
      }
      if (enqueuedAt === null || now - enqueuedAt >= REENQUEUE_INTERVAL_MS) {
        yield* queue.enqueue([{ _tag: "PredictAttributes", siteId, productId }])
        enqueuedAt = now
      }
      yield* Effect.sleep(POLL_INTERVAL)
    }
  })
