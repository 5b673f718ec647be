import { Context, Effect, Layer, Option } from "effect"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import type { ProductKey, StoredProduct } from "../model/StoredProduct.js"
import { Suggester } from "../services/suggester/Suggester.js"
import { TextEmbedder } from "../services/text-embedder/TextEmbedder.js"
import { embeddingText, productCategories, toIndexDocument } from "../model/ProductDocument.js"
import { formatCategoryPath } from "../domain/CategoryPath.js"
import { TEXT_MODEL } from "../services/text-embedder/TextModel.js"
import { createHash } from "node:crypto"

/**
 * Turns stored records into searchable documents. It always reads the current record, so
 * running it twice, late, or for a product deleted in between is harmless.
 */
export class ProductIndexer extends Context.Tag("ProductIndexer")<ProductIndexer, {
  readonly index: (keys: ReadonlyArray<ProductKey>) => Effect.Effect<void, unknown>
}>() {}

export const suggestSource = (p: StoredProduct) => {
  const { shopping, types } = productCategories(p.data)
  return {
    title: p.data.title ?? "",
    brand: p.data.brand ?? null,
    categories: shopping.map(formatCategoryPath),
    productTypes: types.map(formatCategoryPath)
  }
}

/** Names the text a vector is computed from, and the model that computed it. */
export const textKey = (text: string): string =>
  createHash("sha256").update(TEXT_MODEL.wheel.sha256).update("\u0000").update(text).digest("base64url").slice(0, 32)

export const ProductIndexerLive = Layer.effect(
  ProductIndexer,
  Effect.gen(function*() {
    const store = yield* CatalogStore
    const index = yield* CatalogIndex
    const embedder = yield* TextEmbedder
    const suggester = yield* Suggester

    const index_ = (keys: ReadonlyArray<ProductKey>) =>
      Effect.gen(function*() {
        const present: Array<StoredProduct> = []
        for (const key of keys) {
          const found = yield* store.get(key.siteId, key.productId)
          if (Option.isSome(found)) {
            present.push(found.value)
          } else {
            yield* index.remove(key.siteId, [key.productId])
            yield* suggester.removeProduct(key.siteId, key.productId)
          }
        }
        if (present.length === 0) return
        // A version whose text is the one already embedded (a price, stock or label change)
        // reuses the saved vector: only new text runs the model.
        const texts = present.map((p) => embeddingText(p.data))
        const textKeys = texts.map(textKey)
        const saved = yield* store.savedTextVectors(present)
        const reusable = saved.map((s, i) =>
          s !== undefined && s.textKey === textKeys[i] && s.textVector.length === embedder.dimensions ? s.textVector : undefined)
        const toEmbed = present.flatMap((_, i) => (reusable[i] === undefined ? [i] : []))
        const embedded = yield* embedder.embed(toEmbed.map((i) => texts[i]))
        const vectors = [...reusable] as Array<Float32Array>
        toEmbed.forEach((i, k) => (vectors[i] = embedded[k]))
        const images = yield* Effect.forEach(present, (p) => store.imageAnalyses(p.siteId, p.productId))
        // The store first: replicated views (the index and vocabulary replicas of the distributed
        // topology) rebuild from it, so whatever they are told must already be there. A failed
        // index write makes the products stale again and fails the job: its retries, or the
        // reconcile pass once they are spent (an index down for minutes), write both again.
        yield* store.saveDerived(present.map((p, i) => ({
          siteId: p.siteId,
          productId: p.productId,
          version: p.version,
          textVector: vectors[i],
          textKey: textKeys[i]
        })))
        yield* index.upsert(present.map((p, i) => toIndexDocument(p, vectors[i], images[i]))).pipe(
          Effect.tapError(() => store.markStale(present.map((p) => ({ siteId: p.siteId, productId: p.productId, version: p.version }))))
        )
        // Concurrently: in the distributed topology each is a round trip to the shared vocabulary.
        yield* Effect.forEach(present, (p) => suggester.indexProduct(p.siteId, p.productId, suggestSource(p)), { concurrency: "unbounded", discard: true })
      })

    return { index: index_ }
  })
)
