import { HttpApiBuilder } from "@effect/platform"
import { Clock, Duration, Effect, Option } from "effect"
import { IMAGE_ATTRIBUTES, isPredictable, PREDICTABLE_ATTRIBUTES, predictionInputs } from "../../indexing/AttributePrediction.js"
import { BadRequest, ServiceUnavailable } from "../../domain/Errors.js"
import type { PredictedAttribute, PredictedAttributesResponse } from "../../domain/PredictedAttributes.js"
import { requireProduct } from "../../search/Products.js"
import { requireScope } from "../../services/auth/Auth.js"
import { CatalogStore } from "../../services/catalog-store/CatalogStore.js"
import { JobQueue } from "../../services/job-queue/JobQueue.js"
import { PredictionStore } from "../../services/prediction-store/PredictionStore.js"
import type { ComputedAttribute, PredictionResult } from "../../model/Prediction.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"

/** How long a request waits for its prediction job before answering 503. */
export const PREDICTION_TIMEOUT = Duration.seconds(10)
/** How often the request looks for the job's result. */
const POLL_INTERVAL = Duration.millis(50)
/**
 * How often a waiting request asks again: jobs of one product coalesce in the queue, so an
 * IndexProduct queued after ours may have taken its place (it indexes, but does not predict).
 */
const REENQUEUE_INTERVAL_MS = 1_000

/** The requested names, deduplicated in request order; empty or omitted means every predictable one. */
const requestedNames = (names: ReadonlyArray<string> | undefined) =>
  Effect.gen(function*() {
    if (names === undefined || names.length === 0) return [...PREDICTABLE_ATTRIBUTES]
    const unknown = [...new Set(names.filter((n) => !isPredictable(n)))]
    if (unknown.length > 0) {
      return yield* new BadRequest({
        message: `attributes: unknown attribute${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")}; ` +
          `predictable attributes are ${PREDICTABLE_ATTRIBUTES.join(", ")}`
      })
    }
    return [...new Set(names)]
  })

/** No confirmation flow exists (nothing records a user's confirmation), so `confirmed` is always null. */
const toWire = (a: ComputedAttribute): PredictedAttribute => ({ name: a.name, value: a.value, prediction: a.prediction, confirmed: null })

const respond = (productId: string, result: PredictionResult, names: ReadonlyArray<string>): PredictedAttributesResponse => {
  const byName = new Map(result.attributes.map((a) => [a.name, a]))
  return {
    id: productId,
    attributes: names.flatMap((n) => {
      const a = byName.get(n)
      return a === undefined ? [] : [toWire(a)]
    }),
    // Each image always carries its own fixed set (IMAGE_ATTRIBUTES), whatever product attributes were asked for.
    images: result.images.map((image) => ({
      url: image.url,
      attributes: IMAGE_ATTRIBUTES.flatMap((n) => image.attributes.filter((a) => a.name === n).map(toWire))
    }))
  }
}

/**
 * The stored prediction if it was computed from the product's current inputs; otherwise asks
 * the queue for one and waits for it. The product is re-read on every look, so an update (or a
 * deletion → 404) during the wait is honoured, and image analyses done by the job itself count.
 */
export const currentPrediction = (siteId: number, productId: string) =>
  Effect.gen(function*() {
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
          message: `the prediction for product "${productId}" did not finish within ${Duration.format(PREDICTION_TIMEOUT)} ` +
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

export const PredictionHandlers = HttpApiBuilder.group(CommerceApi, "prediction", (handlers) =>
  handlers.handle("predictAttributes", ({ path, payload }) =>
    Effect.gen(function*() {
      const principal = yield* CurrentPrincipal
      yield* requireScope(principal, "site")
      const names = yield* requestedNames(payload?.attributes)
      const result = yield* restErrors(currentPrediction(principal.siteId, path.productId))
      return respond(path.productId, result, names)
    }))
)
