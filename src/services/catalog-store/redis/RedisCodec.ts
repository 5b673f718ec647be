import type { StoredImage, StoredProduct } from "../../../model/StoredProduct.js"
import { decodeAnalysis, decodeImages, decodeRecord } from "../CatalogCodec.js"

/**
 * The product hash's fields (data, images, version, updated, created, tver) back to a product; null
 * when absent. Throws on malformed data.
 */
export const toProduct = (
  siteId: number,
  productId: string,
  [data, images, version, updated, created, textVersion]: ReadonlyArray<string | null>
): StoredProduct | null =>
  data === null || images === null || version === null
    ? null
    : {
        siteId,
        productId,
        data: decodeRecord(data),
        images: decodeImages(images),
        version: Number(version),
        // A hash written before text versions were kept: every write counted as a new text.
        textVersion: Number(textVersion ?? version),
        updatedAt: Number(updated),
        // A product stored before creation times were kept: its update time stands in.
        createdAt: Number(created ?? updated)
      }

/** Analyses in the product's image order; images not analysed yet are absent. Throws on malformed data. */
export const inImageOrder = (images: ReadonlyArray<StoredImage>, stored: Record<string, string>) =>
  images.flatMap((i) => (stored[i.id] === undefined ? [] : [decodeAnalysis(stored[i.id])]))
