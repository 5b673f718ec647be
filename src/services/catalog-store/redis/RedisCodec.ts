import type { ProductRecord } from "../../../domain/Product.js"
import type { ImageAnalysisRecord } from "../../../model/ImageAnalysis.js"
import type { StoredImage, StoredProduct } from "../../../model/StoredProduct.js"
import { imageId } from "../../../model/ImageIds.js"

/** How values travel in Redis: JSON strings, and Float32Array bytes kept exact (raw or base64). */
export const vectorToBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength)
export const bytesToVector = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))

/** The product hash's fields (data, images, version, updated) back to a product; null when absent. */
export const toProduct = (
  siteId: number,
  productId: string,
  [data, images, version, updated]: ReadonlyArray<string | null>
): StoredProduct | null =>
  data === null || images === null || version === null
    ? null
    : {
      siteId,
      productId,
      data: JSON.parse(data) as ProductRecord,
      images: JSON.parse(images) as ReadonlyArray<StoredImage>,
      version: Number(version),
      updatedAt: Number(updated)
    }

export const encodeAnalysis = (a: ImageAnalysisRecord): string =>
  JSON.stringify({ ...a, embedding: a.embedding === null ? null : vectorToBytes(a.embedding).toString("base64") })

export const decodeAnalysis = (json: string): ImageAnalysisRecord => {
  const raw = JSON.parse(json) as Omit<ImageAnalysisRecord, "embedding"> & { embedding: string | null }
  return { ...raw, embedding: raw.embedding === null ? null : bytesToVector(Buffer.from(raw.embedding, "base64")) }
}

/** Analyses in the product's image order; images not analysed yet are absent. */
export const inImageOrder = (images: ReadonlyArray<StoredImage>, stored: Record<string, string>) =>
  images.flatMap((i) => (stored[i.id] === undefined ? [] : [decodeAnalysis(stored[i.id])]))

/** The same ids as the embedded store: one per distinct URL, first occurrence wins. */
export const dedupeImages = (images: ReadonlyArray<{ readonly url: string }>): ReadonlyArray<StoredImage> => {
  const seen = new Set<string>()
  const out: Array<StoredImage> = []
  for (const { url } of images) {
    if (seen.has(url)) continue
    seen.add(url)
    out.push({ id: imageId(url), url })
  }
  return out
}
