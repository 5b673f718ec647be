import { Schema } from "effect"
import { optionalField } from "./Product.js"

/** The body of POST /product/{id}/predicted-attributes: names of the attributes to predict. */
export const PredictAttributesRequest = Schema.Struct({
  attributes: optionalField(Schema.Array(Schema.String))
}).annotations({ identifier: "PredictAttributesRequest" })
export type PredictAttributesRequest = typeof PredictAttributesRequest.Type

/** Values are any JSON (null included): what the catalog says, what the model predicts, what a user confirmed. */
export const PredictedAttribute = Schema.Struct({
  name: Schema.String,
  value: Schema.Unknown,
  prediction: Schema.Unknown,
  confirmed: optionalField(Schema.Unknown)
})
export type PredictedAttribute = typeof PredictedAttribute.Type

export const ImagePredictions = Schema.Struct({
  url: Schema.String,
  attributes: Schema.Array(PredictedAttribute)
})
export type ImagePredictions = typeof ImagePredictions.Type

export const PredictedAttributesResponse = Schema.Struct({
  id: Schema.String,
  attributes: Schema.Array(PredictedAttribute),
  images: Schema.Array(ImagePredictions)
}).annotations({ identifier: "PredictedAttributesResponse" })
export type PredictedAttributesResponse = typeof PredictedAttributesResponse.Type
