import { Schema } from "effect"
import { ProductRecord } from "../domain/Product.js"
import { imageId } from "./ImageIds.js"
import { Vector } from "./Vector.js"

/** An image of a product as stored: a stable id derived from its URL, so re-pushing the same URL keeps the id. */
export const StoredImage = Schema.Struct({ id: Schema.String, url: Schema.String })
export type StoredImage = typeof StoredImage.Type

/** The record of truth for one product, as acknowledged to the merchant. */
export const StoredProduct = Schema.Struct({
  siteId: Schema.Number,
  productId: Schema.String,
  data: ProductRecord,
  images: Schema.Array(StoredImage),
  /** Monotonic write stamp: derived data (vectors, index entries) remembers which version it came from. */
  version: Schema.Number,
  /**
   * The version whose write last changed the embedded text (see ProductDocument.embeddingText):
   * this version itself, or an earlier one when only other fields changed since (a price or
   * stock change). Derived data computed from it still fits.
   */
  textVersion: Schema.Number,
  updatedAt: Schema.Number,
  /** When the catalog first received the product (kept by later pushes): what "newest" lists by. */
  createdAt: Schema.Number
})
export type StoredProduct = typeof StoredProduct.Type

/** Derived data computed from a product version (text vector now; image data joins with vision). */
export const DerivedProduct = Schema.Struct({
  siteId: Schema.Number,
  productId: Schema.String,
  /** The product's text version it was computed from (StoredProduct.textVersion). */
  version: Schema.Number,
  textVector: Schema.NullOr(Vector),
  /**
   * Names the text the vector was computed from (see ProductIndexer.textKey): a later version
   * with the same text (a price or stock change) reuses the vector instead of running the model.
   */
  textKey: Schema.optional(Schema.String)
})
export type DerivedProduct = typeof DerivedProduct.Type

export interface ProductKey {
  readonly siteId: number
  readonly productId: string
}

/** A product's images as stored: one per distinct URL, first occurrence wins, ids derived from URLs. */
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

/** Whether two versions of a product have the same images (by id, in order). */
export const sameImages = (a: StoredProduct, b: StoredProduct): boolean =>
  a.images.length === b.images.length && a.images.every((image, i) => image.id === b.images[i].id)

/** Product ids grouped by site, in the order given. */
export const productIdsBySite = (keys: ReadonlyArray<ProductKey>): Map<number, Array<string>> => {
  const sites = new Map<number, Array<string>>()
  for (const { productId, siteId } of keys) {
    const ids = sites.get(siteId)
    if (ids === undefined) sites.set(siteId, [productId])
    else ids.push(productId)
  }
  return sites
}
