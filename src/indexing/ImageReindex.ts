import { Effect } from "effect"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import type { IndexDocument } from "../model/IndexDocument.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { type ProductKey, productIdsBySite } from "../model/StoredProduct.js"
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
export const reindexImageData = (keys: ReadonlyArray<ProductKey>, options: { readonly embed: boolean } = { embed: true }) =>
  Effect.gen(function*() {
    const store = yield* CatalogStore
    const index = yield* CatalogIndex
    const indexer = yield* ProductIndexer
    const full: Array<ProductKey> = []
    const docs: Array<IndexDocument> = []
    const versions: Array<ProductKey & { readonly version: number }> = []
    for (const [siteId, ids] of productIdsBySite(keys)) {
      const products = yield* store.getMany(siteId, ids)
      const { imageSpace, images, vectors } = yield* reusableVectors(products)
      const position = new Map(products.map((p, i) => [p.productId, i]))
      for (const productId of ids) {
        const i = position.get(productId)
        const vector = i === undefined ? null : vectors[i]
        if (i === undefined || (vector === null && options.embed)) {
          if (options.embed) full.push({ siteId, productId })
        } else {
          docs.push(toIndexDocument(products[i], vector, images[i], imageSpace(siteId)))
          versions.push({ siteId, productId, version: products[i].version })
        }
      }
    }
    // A retried image job finds the images analysed and has nothing to re-index: a failed write
    // makes the products stale, so the reconcile pass indexes them in full.
    if (docs.length > 0) yield* index.upsert(docs).pipe(Effect.tapError(() => store.markStale(versions)))
    if (full.length > 0) yield* indexer.index(full)
  })
