import { Effect } from "effect"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { JobQueue } from "../services/job-queue/JobQueue.js"
import { Suggester } from "../services/suggester/Suggester.js"
import { suggestSource } from "./ProductIndexer.js"
import { toIndexDocument } from "../model/ProductDocument.js"

/** Queues every product whose derived data is missing or older than its record. */
export const reconcile = Effect.gen(function*() {
  const store = yield* CatalogStore
  const queue = yield* JobQueue
  const stale = yield* store.stale(1_000_000)
  if (stale.length > 0) {
    yield* queue.enqueue(stale.map((k) => ({ _tag: "IndexProduct" as const, siteId: k.siteId, productId: k.productId })))
  }
  return stale.length
})

/** Feeds the suggester's vocabulary from every indexed product (it lives in memory only). */
export const restoreSuggestions = Effect.gen(function*() {
  const store = yield* CatalogStore
  const suggester = yield* Suggester
  return yield* store.forEachIndexed(1000, (page) =>
    Effect.forEach(page, ({ product }) => suggester.indexProduct(product.siteId, product.productId, suggestSource(product)), { discard: true }))
})

/**
 * Startup of the embedded topology: the in-memory index is rebuilt from the vectors the
 * store kept (no model calls), then whatever was acknowledged but not indexed is queued.
 */
export const restoreIndex = Effect.gen(function*() {
  const store = yield* CatalogStore
  const index = yield* CatalogIndex
  const suggester = yield* Suggester
  const restored = yield* store.forEachIndexed(1000, (page) =>
    Effect.gen(function*() {
      yield* index.upsert(page.map(({ derived, images, product }) => toIndexDocument(product, derived.textVector, images)))
      for (const { product } of page) yield* suggester.indexProduct(product.siteId, product.productId, suggestSource(product))
    }))
  const queued = yield* reconcile
  return { restored, queued }
})
