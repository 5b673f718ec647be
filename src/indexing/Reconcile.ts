import { Effect } from "effect"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { type ProductKey, productIdsBySite } from "../model/StoredProduct.js"
import { JobQueue } from "../services/job-queue/JobQueue.js"
import { Suggester } from "../services/suggester/Suggester.js"
import { suggestSource } from "./ProductIndexer.js"
import { indexWithoutModel } from "./AfterWrite.js"
import type { Job } from "../model/Jobs.js"
import { toIndexDocument } from "../model/ProductDocument.js"
import { TEXT_MODEL } from "../services/text-embedder/TextModel.js"

/** Most products of each kind one pass queues; the rest wait for the next pass. */
const LIMIT = 1_000_000

/**
 * Queues every product whose derived data is missing or older than its record, and the image
 * work of every product whose images still need a pass: a job lost to a crash (the embedded
 * queue lives in memory), a job that failed for good, an enqueue that failed. A product
 * queued for indexing is left out of the image work: its indexing asks for that itself. A
 * product whose image job is waiting or running gets no second one (the queue coalesces), at
 * most one cheap follow-up that finds nothing left to do. Jobs the queue still holds are not
 * queued again. Returns how many jobs it queued.
 */
export const reconcile = Effect.gen(function*() {
  const store = yield* CatalogStore
  const queue = yield* JobQueue
  const stale = yield* store.stale(LIMIT)
  const images = yield* store.pendingImageWork(LIMIT)
  const indexing = new Set(stale.map(keyOf))
  const jobs: Array<Job> = [
    ...stale.map((k) => ({ _tag: "IndexProduct" as const, siteId: k.siteId, productId: k.productId })),
    ...images.analyze.filter((k) => !indexing.has(keyOf(k))).map((k) => ({ _tag: "AnalyzeImages" as const, ...k })),
    ...images.detect.filter((k) => !indexing.has(keyOf(k))).map((k) => ({ _tag: "DetectObjects" as const, ...k }))
  ]
  if (jobs.length === 0) return 0
  // What is waiting or running will be handled anyway (a bulk push's backlog): not queued again.
  // If the queue cannot tell, everything is queued; coalescing keeps that harmless.
  const queued = yield* Effect.orElseSucceed(queue.queued(jobs), () => jobs.map(() => false))
  const missing = jobs.filter((_, i) => !queued[i])
  if (missing.length > 0) yield* queue.enqueue(missing)
  return missing.length
})

const keyOf = (k: ProductKey) => `${k.siteId}\u0000${k.productId}`

/** Feeds the suggester's vocabulary from every indexed product (it lives in memory only). */
export const restoreSuggestions = Effect.gen(function*() {
  const store = yield* CatalogStore
  const suggester = yield* Suggester
  return yield* store.forEachIndexed(1000, (page) =>
    Effect.forEach(page, ({ product }) => suggester.indexProduct(product.siteId, product.productId, suggestSource(product)), { discard: true }))
})

/**
 * Startup of the embedded topology: the in-memory index is rebuilt from the vectors the
 * store kept (no model calls), what was acknowledged but not embedded is indexed by its words
 * (and the vectors it can reuse), and its indexing is queued. A
 * vector of another text model (a store written before a model change: its length differs)
 * is not restored: the product is indexed without it, searchable by its words at once, and
 * counts as stale, so the reconcile pass queues its embedding.
 */
export const restoreIndex = Effect.gen(function*() {
  const store = yield* CatalogStore
  const index = yield* CatalogIndex
  const suggester = yield* Suggester
  const restored = yield* store.forEachIndexed(1000, (page) =>
    Effect.gen(function*() {
      const current = (vector: Float32Array | null) => vector === null || vector.length === TEXT_MODEL.dimensions
      const outdated = page.filter(({ derived }) => !current(derived.textVector))
      if (outdated.length > 0) yield* store.markStale(outdated.map(({ derived }) => ({ siteId: derived.siteId, productId: derived.productId, version: derived.version })))
      yield* index.upsert(page.map(({ derived, images, product }) => toIndexDocument(product, current(derived.textVector) ? derived.textVector : null, images)))
      for (const { product } of page) yield* suggester.indexProduct(product.siteId, product.productId, suggestSource(product))
    }))
  // Acknowledged but not indexed before the restart (a bulk push cut short): searchable by
  // their words at once, as after their write, while reconcile queues their embedding.
  const stale = yield* store.stale(LIMIT)
  for (let i = 0; i < stale.length; i += 1000) {
    for (const [siteId, ids] of productIdsBySite(stale.slice(i, i + 1000))) {
      yield* indexWithoutModel(yield* store.getMany(siteId, ids), [])
    }
  }
  const queued = yield* reconcile
  return { restored, unembedded: stale.length, queued }
})
