import { Schema } from "effect"
import { ColumnsUpdate, type IndexDocument, IndexText, Payload } from "../../../model/IndexDocument.js"
import { vectorBytes, VectorFromBytes } from "../../../model/Vector.js"
import type { FeedEntry } from "../../../platform/redis/ChangeFeed.js"

/** One write to the catalog index, as it travels through the change feed. */
export type IndexChange =
  | { readonly _tag: "Upsert"; readonly doc: IndexDocument }
  | { readonly _tag: "Remove"; readonly siteId: number; readonly productIds: ReadonlyArray<string> }
  | { readonly _tag: "Columns"; readonly update: ColumnsUpdate }

/** An upsert's document without its vectors, which travel as raw Float32 bytes after it. */
const UpsertHeader = Schema.Struct({
  siteId: Schema.Number,
  productId: Schema.String,
  version: Schema.optional(Schema.Number),
  text: IndexText,
  payload: Payload,
  hasTextVector: Schema.Boolean,
  /** Number of image vectors; null when the document has no image list at all (not an empty one). */
  images: Schema.NullOr(Schema.Number)
})
const decodeHeader = Schema.decodeUnknownSync(Schema.parseJson(UpsertHeader))
const decodeVectors = Schema.decodeUnknownSync(Schema.Array(VectorFromBytes))

const Remove = Schema.Struct({ siteId: Schema.Number, productIds: Schema.Array(Schema.String) })
const decodeRemove = Schema.decodeUnknownSync(Schema.parseJson(Remove))
const decodeColumns = Schema.decodeUnknownSync(Schema.parseJson(ColumnsUpdate))

/*
 * Both messages encode to themselves (no transformation) and the types already guarantee
 * their shape, so JSON.stringify of the Encoded type is their encoder: running the schema on
 * the write path too would only check them a second time.
 */

/** `U`, the header as JSON, the text vector (when present), then each image vector. */
export const encodeUpsert = (doc: IndexDocument): FeedEntry => {
  const { text, image } = doc.vectors
  const header: typeof UpsertHeader.Encoded = {
    siteId: doc.siteId,
    productId: doc.productId,
    ...(doc.version === undefined ? {} : { version: doc.version }),
    text: doc.text,
    payload: doc.payload,
    hasTextVector: text !== undefined,
    images: image === undefined ? null : image.length
  }
  return [
    "U",
    JSON.stringify(header),
    ...(text === undefined ? [] : [vectorBytes(text)]),
    ...(image ?? []).map(vectorBytes)
  ]
}

/** `R` and `{siteId, productIds}` as JSON. */
export const encodeRemove = (siteId: number, productIds: ReadonlyArray<string>): FeedEntry => [
  "R",
  JSON.stringify({ siteId, productIds } satisfies typeof Remove.Encoded)
]

/** `C` and the update as JSON. */
export const encodeColumns = (update: ColumnsUpdate): FeedEntry => [
  "C",
  JSON.stringify(update satisfies typeof ColumnsUpdate.Encoded)
]

/** Throws on an entry this codec did not write. */
export const decodeChange = (values: ReadonlyArray<Buffer>): IndexChange => {
  const [tag, body, ...bytes] = values
  switch (tag?.toString()) {
    case "U": {
      const header = decodeHeader(body?.toString())
      const vectors = [...decodeVectors(bytes)]
      const textVector = header.hasTextVector ? vectors.shift() : undefined
      if (vectors.length !== (header.images ?? 0) || (header.hasTextVector && textVector === undefined)) {
        throw new Error(
          `upsert of ${header.productId} carries ${values.length - 2} vectors, its header announces others`
        )
      }
      return {
        _tag: "Upsert",
        doc: {
          siteId: header.siteId,
          productId: header.productId,
          ...(header.version === undefined ? {} : { version: header.version }),
          text: header.text,
          payload: header.payload,
          vectors: { text: textVector, image: header.images === null ? undefined : vectors }
        }
      }
    }
    case "R":
      return { _tag: "Remove", ...decodeRemove(body?.toString()) }
    case "C":
      return { _tag: "Columns", update: decodeColumns(body?.toString()) }
    default:
      throw new Error(`unknown index change ${String(tag)}`)
  }
}
