import { Effect } from "effect"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import type { IndexDocument } from "../model/IndexDocument.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { type ProductKey, productIdsBySite } from "../model/StoredProduct.js"
import { toIndexDocument } from "../model/ProductDocument.js"
import { ProductIndexer } from "./ProductIndexer.js"

/**
 * Re-indexes products whose image data changed (an image pass finished). The text embedding
 * is most of an indexing's cost and a photo does not change it, so the text vector the index
 * already holds is reused when the text it embeds, the title, is the record's current title
 * (the model is deterministic). Anything else (no title, a changed title, a product not
 * indexed or deleted meanwhile) goes through a full indexing.
 */
export const reindexImageData = (keys: ReadonlyArray<ProductKey>) =>
  Effect.gen(function*() {
    const store = yield* CatalogStore
    const index = yield* CatalogIndex
    const indexer = yield* ProductIndexer
    const full: Array<ProductKey> = []
    const docs: Array<IndexDocument> = []
    const versions: Array<ProductKey & { readonly version: number }> = []
    for (const [siteId, ids] of productIdsBySite(keys)) {
      const products = new Map((yield* store.getMany(siteId, ids)).map((p) => [p.productId, p]))
      const indexed = new Map((yield* index.retrieve(siteId, ids)).map((d) => [d.productId, d]))
      for (const productId of ids) {
        const product = products.get(productId)
        const doc = indexed.get(productId)
        const title = product?.data.title
        if (product === undefined || doc?.vectors.text === undefined || !title?.trim() || doc.text.title !== title) {
          full.push({ siteId, productId })
        } else {
          docs.push(toIndexDocument(product, doc.vectors.text, yield* store.imageAnalyses(siteId, productId)))
          versions.push({ siteId, productId, version: product.version })
        }
      }
    }
    // A retried image job finds the images analysed and has nothing to re-index: a failed write
    // makes the products stale, so the reconcile pass indexes them in full.
    if (docs.length > 0) yield* index.upsert(docs).pipe(Effect.tapError(() => store.markStale(versions)))
    if (full.length > 0) yield* indexer.index(full)
  })
