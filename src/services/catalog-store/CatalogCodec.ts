import { Either, Schema } from "effect"
import { compiledDecoder } from "../../domain/CompiledCheck.js"
import { ProductRecord } from "../../domain/Product.js"
import { ImageAnalysisRecord, ImageColor, StoredObject } from "../../model/ImageAnalysis.js"
import { StoredImage } from "../../model/StoredProduct.js"
import { VectorFromBase64, VectorFromBytes, vectorBytes } from "../../model/Vector.js"

/*
 * How the catalog store's values are written, shared by the SQLite and the Redis backend.
 * Decoders are compiled once: they run for every product a search shows and for every
 * product of the startup restore. A decoding failure throws; each backend turns it into
 * a StoreError like any other failed read.
 */

/**
 * A stored record was checked against every ProductRecord rule when it was written; reading
 * it back checks its shape only (fields, types, enumerations): the encoded side of the schema.
 */
const StoredRecord: Schema.Schema<ProductRecord> = Schema.encodedSchema(ProductRecord)
const decodeStoredRecord = compiledDecoder(StoredRecord)

/** A stored record from its JSON; throws (naming the field) when it is not one. */
export const decodeRecord = (json: string): ProductRecord =>
  Either.getOrThrowWith(decodeStoredRecord(JSON.parse(json)), (e) => e)

/**
 * A record is written as its JSON text: it is a decoded ProductRecord (checked against every
 * rule on its way in), whose type and encoded sides are one shape, so encoding it through the
 * schema would only check it again, on every write of a bulk push or a patch.
 */
export const encodeRecord = (record: ProductRecord): string => JSON.stringify(record)

const ImagesJson = Schema.parseJson(Schema.Array(StoredImage))
const decodeStoredImages = compiledDecoder(Schema.Array(StoredImage))
/** A product's stored images from their JSON; throws (naming the field) when they are not. */
export const decodeImages = (json: string): ReadonlyArray<StoredImage> =>
  Either.getOrThrowWith(decodeStoredImages(JSON.parse(json)), (e) => e)
export const encodeImages = Schema.encodeSync(ImagesJson)

/** A vector as raw Float32 bytes (an SQLite blob, a Redis hash field); null when there is none. */
export const VectorBlob = Schema.NullOr(VectorFromBytes)
export const decodeVector = Schema.decodeUnknownSync(VectorBlob)
export const encodeVector = Schema.encodeSync(VectorBlob)

/** An image's view features as one blob: their Float32 bytes one after another, each as long as its embedding. */
export const encodeViews = (views: ReadonlyArray<Float32Array>): Buffer | null => {
  if (views.length === 0) return null
  const all = new Float32Array(views.reduce((n, v) => n + v.length, 0))
  let at = 0
  for (const v of views) {
    all.set(v, at)
    at += v.length
  }
  return vectorBytes(all)
}
/** The views of an `encodeViews` blob, given the embedding's length; throws when the blob does not divide into them. */
export const splitViews = (
  all: Float32Array | null,
  dims: number | undefined
): ReadonlyArray<Float32Array> | undefined => {
  if (all === null || dims === undefined) return undefined
  if (dims === 0 || all.length % dims !== 0)
    throw new Error(`image views: ${all.length} values are not whole vectors of ${dims}`)
  return Array.from({ length: all.length / dims }, (_, i) => all.subarray(i * dims, (i + 1) * dims))
}

/** An image's dominant colours as JSON. */
export const ColorsJson = Schema.parseJson(Schema.Array(ImageColor))
export const decodeColors = Schema.decodeUnknownSync(ColorsJson)
export const encodeColors = Schema.encodeSync(ColorsJson)

/** An image's detected objects as JSON; JSON null while detection is pending. */
export const ObjectsJson = Schema.parseJson(Schema.NullOr(Schema.Array(StoredObject)))
export const decodeObjects = Schema.decodeUnknownSync(ObjectsJson)
export const encodeObjects = Schema.encodeSync(ObjectsJson)

/** A whole image analysis as one JSON document, its embedding as base64 of its Float32 bytes. */
const AnalysisJson = Schema.parseJson(
  Schema.Struct({
    ...ImageAnalysisRecord.fields,
    embedding: Schema.NullOr(VectorFromBase64),
    colorSignature: Schema.optional(Schema.Uint8ArrayFromBase64)
  })
)
export const decodeAnalysis = Schema.decodeUnknownSync(AnalysisJson)
export const encodeAnalysis = Schema.encodeSync(AnalysisJson)
