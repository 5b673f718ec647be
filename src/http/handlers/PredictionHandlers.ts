import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { IMAGE_ATTRIBUTES, isPredictable, PREDICTABLE_ATTRIBUTES } from "../../indexing/AttributePrediction.js"
import { currentPrediction } from "../../indexing/CurrentPrediction.js"
import { BadRequest } from "../../domain/Errors.js"
import type { PredictedAttribute, PredictedAttributesResponse } from "../../domain/PredictedAttributes.js"
import { requireScope } from "../../services/auth/Auth.js"
import type { ComputedAttribute, PredictionResult } from "../../model/Prediction.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"

/** The requested names, deduplicated in request order; empty or omitted means every predictable one. */
const requestedNames = (names: ReadonlyArray<string> | undefined) =>
  Effect.gen(function* () {
    if (names === undefined || names.length === 0) return [...PREDICTABLE_ATTRIBUTES]
    const unknown = [...new Set(names.filter((n) => !isPredictable(n)))]
    if (unknown.length > 0) {
      return yield* new BadRequest({
        message:
          `attributes: unknown attribute${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `"${n}"`).join(", ")}; ` +
          `predictable attributes are ${PREDICTABLE_ATTRIBUTES.join(", ")}`
      })
    }
    return [...new Set(names)]
  })

/** No confirmation flow exists (nothing records a user's confirmation), so `confirmed` is always null. */
const toWire = (a: ComputedAttribute): PredictedAttribute => ({
  name: a.name,
  value: a.value,
  prediction: a.prediction,
  confirmed: null
})

const respond = (
  productId: string,
  result: PredictionResult,
  names: ReadonlyArray<string>
): PredictedAttributesResponse => {
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

export const PredictionHandlers = HttpApiBuilder.group(CommerceApi, "prediction", (handlers) =>
  handlers.handle("predictAttributes", ({ path, payload }) =>
    Effect.gen(function* () {
      const principal = yield* CurrentPrincipal
      yield* requireScope(principal, "site")
      const names = yield* requestedNames(payload?.attributes)
      const result = yield* restErrors(currentPrediction(principal.siteId, path.productId))
      return respond(path.productId, result, names)
    })
  )
)
