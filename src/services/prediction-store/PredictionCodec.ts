import { Schema } from "effect"
import { PredictionResult } from "../../model/Prediction.js"

/**
 * A prediction result as JSON, shared by the SQLite and the Redis backend. A decoding failure
 * throws; each backend turns it into a StoreError like any other failed read.
 */
const PredictionResultJson = Schema.parseJson(PredictionResult)
export const decodeResult = Schema.decodeUnknownSync(PredictionResultJson)
export const encodeResult = Schema.encodeSync(PredictionResultJson)
