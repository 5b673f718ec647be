import type { IndexDocument } from "../../../model/IndexDocument.js"
import type { FeedEntry } from "../../../platform/redis/ChangeFeed.js"

/** One write to the catalog index, as it travels through the change feed. */
export type IndexChange =
  | { readonly _tag: "Upsert"; readonly doc: IndexDocument }
  | { readonly _tag: "Remove"; readonly siteId: number; readonly productIds: ReadonlyArray<string> }

// Vectors travel as raw Float32 bytes: exact, and a quarter of their JSON size.
const vectorBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength)
// Copied: a Float32Array needs a 4-byte aligned offset, which a slice of a socket buffer may not have.
const bytesVector = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))

interface UpsertHeader {
  readonly siteId: number
  readonly productId: string
  readonly text: IndexDocument["text"]
  readonly payload: IndexDocument["payload"]
  readonly hasTextVector: boolean
  /** Number of image vectors; null when the document has no image list at all (not an empty one). */
  readonly images: number | null
}

/** `U`, the header as JSON, the text vector (when present), then each image vector. */
export const encodeUpsert = (doc: IndexDocument): FeedEntry => {
  const { text, image } = doc.vectors
  const header: UpsertHeader = {
    siteId: doc.siteId,
    productId: doc.productId,
    text: doc.text,
    payload: doc.payload,
    hasTextVector: text !== undefined,
    images: image === undefined ? null : image.length
  }
  return ["U", JSON.stringify(header), ...(text === undefined ? [] : [vectorBytes(text)]), ...(image ?? []).map(vectorBytes)]
}

/** `R` and `{siteId, productIds}` as JSON. */
export const encodeRemove = (siteId: number, productIds: ReadonlyArray<string>): FeedEntry => [
  "R",
  JSON.stringify({ siteId, productIds })
]

/** Throws on an entry this codec did not write. */
export const decodeChange = (values: ReadonlyArray<Buffer>): IndexChange => {
  const [tag, json, ...vectors] = values
  switch (tag?.toString()) {
    case "U": {
      const header = JSON.parse(json.toString()) as UpsertHeader
      const textVector = header.hasTextVector ? vectors.shift() : undefined
      if (vectors.length !== (header.images ?? 0) || (header.hasTextVector && textVector === undefined)) {
        throw new Error(`upsert of ${header.productId} carries ${values.length - 2} vectors, its header announces others`)
      }
      return {
        _tag: "Upsert",
        doc: {
          siteId: header.siteId,
          productId: header.productId,
          text: header.text,
          payload: header.payload,
          vectors: {
            text: textVector === undefined ? undefined : bytesVector(textVector),
            image: header.images === null ? undefined : vectors.map(bytesVector)
          }
        }
      }
    }
    case "R": {
      const { siteId, productIds } = JSON.parse(json.toString()) as { siteId: number; productIds: Array<string> }
      return { _tag: "Remove", siteId, productIds }
    }
    default:
      throw new Error(`unknown index change ${String(tag)}`)
  }
}
