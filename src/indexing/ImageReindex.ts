import { Effect } from "effect"
import { StoredReindexing } from "../visual-space/VisualSpaceFit.js"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import type { ImageAnalysisRecord } from "../model/ImageAnalysis.js"
import { SiteVisualSpaces } from "../visual-space/SiteVisualSpaces.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { type ProductKey, productIdsBySite, type StoredProduct } from "../model/StoredProduct.js"
import { toIndexDocument } from "../model/ProductDocument.js"
import { ProductIndexer, reusableVectors } from "./ProductIndexer.js"

/**
 * Re-indexes products whose image data changed (an image pass finished). The text embedding
 * is most of an indexing's cost and a photo does not change it, so a product whose saved text
 * vector fits its current text (the same rule as every other write, see `reusableVectors`) is
 * indexed with it at once. Anything else (a text changed since, a vector not computed yet, a
 * product deleted meanwhile) goes through a full indexing, or with `embed: false` (a site
 * re-indexed in a new visual space: no model call for thousands of products) is indexed
 * without a text vector, as the write path indexed it (its embedding job is queued already).
 */
export const reindexImageData = (
  keys: ReadonlyArray<ProductKey>,
  options: { readonly embed: boolean } = { embed: true }
) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const index = yield* CatalogIndex
    const indexer = yield* ProductIndexer
    const spaces = yield* SiteVisualSpaces
    const full: Array<ProductKey> = []
    const parts: Array<{
      readonly product: StoredProduct
      readonly vector: Float32Array | null
      readonly images: ReadonlyArray<ImageAnalysisRecord>
    }> = []
    for (const [siteId, ids] of productIdsBySite(keys)) {
      const products = yield* store.getMany(siteId, ids)
      const { images, vectors } = yield* reusableVectors(products)
      const position = new Map(products.map((p, i) => [p.productId, i]))
      for (const productId of ids) {
        const i = position.get(productId)
        const vector = i === undefined ? null : vectors[i]
        if (i === undefined || (vector === null && options.embed)) {
          if (options.embed) full.push({ siteId, productId })
        } else {
          parts.push({ product: products[i], vector, images: images[i] })
        }
      }
    }
    // A retried image job finds the images analysed and has nothing to re-index: a failed write
    // makes the products stale, so the reconcile pass indexes them in full.
    const versions = parts.map(({ product }) => ({
      siteId: product.siteId,
      productId: product.productId,
      version: product.version
    }))
    if (parts.length > 0) {
      yield* spaces
        .writing(
          parts.map(({ product }) => product.siteId),
          (spaceOf) =>
            index.upsert(
              parts.map(({ images, product, vector }) =>
                toIndexDocument(product, vector, images, spaceOf(product.siteId))
              )
            )
        )
        .pipe(Effect.tapError(() => store.markStale(versions)))
    }
    if (full.length > 0) yield* indexer.index(full)
  })

/** A fit's re-indexing of a whole site (visual-space/VisualSpaceFit.ts): no model call for thousands of products. */
export const storedReindexing = Effect.map(
  Effect.context<CatalogStore | CatalogIndex | SiteVisualSpaces | ProductIndexer>(),
  (context) =>
    StoredReindexing.of({ reindex: (keys) => reindexImageData(keys, { embed: false }).pipe(Effect.provide(context)) })
)
