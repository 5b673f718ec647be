import { Effect } from "effect"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import type { ProductKey } from "../model/StoredProduct.js"
import { JobQueue } from "../services/job-queue/JobQueue.js"
import { Suggester } from "../services/suggester/Suggester.js"
import { SiteVisualSpaces } from "../visual-space/SiteVisualSpaces.js"
import { restoredDocuments, savedByAnotherModel, suggestSource } from "./ProductIndexer.js"
import type { Job } from "../model/Jobs.js"

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
export const reconcile = Effect.gen(function* () {
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

/** The queue's backlog above which the periodic pass waits (see `periodicReconcile`). */
export const RECONCILE_BACKLOG = 10_000

/**
 * The pass run every minute after startup, skipped while the queue holds more than `backlog`
 * jobs: during a large push nearly every product is stale and already queued, and a pass would
 * read every stale row and build a job for each on the event loop, while shoppers search, only
 * to find them queued. A job lost meanwhile is queued by the first pass once the backlog has
 * drained. A queue that cannot say how much it holds does not hold the pass back.
 */
export const periodicReconcile = (backlog: number = RECONCILE_BACKLOG) =>
  Effect.gen(function* () {
    const pending = yield* Effect.flatMap(JobQueue, (queue) => queue.pending).pipe(Effect.orElseSucceed(() => 0))
    return pending > backlog ? 0 : yield* reconcile
  })

const keyOf = (k: ProductKey) => `${k.siteId}\u0000${k.productId}`

/** Feeds the suggester's vocabulary from every product (it lives in memory only). */
export const restoreSuggestions = Effect.gen(function* () {
  const store = yield* CatalogStore
  const suggester = yield* Suggester
  return yield* store.forEachProduct(1000, (page) =>
    suggester.indexProducts(page.map(({ product }) => suggestSource(product)))
  )
})

/**
 * Startup of the embedded topology: the in-memory index is rebuilt from the store without
 * model calls, every product with the saved text vector that fits it (restoredDocument); a
 * product acknowledged but not embedded before the restart (a bulk push cut short) is
 * searchable by its words at once, and the reconcile pass queues its embedding. A vector of
 * another text model (a store written before a model change: its length differs) is not
 * restored either, and its product counts as stale again so that it is embedded anew.
 */
export const restoreIndex = Effect.gen(function* () {
  const store = yield* CatalogStore
  const index = yield* CatalogIndex
  const suggester = yield* Suggester
  const spaces = yield* SiteVisualSpaces
  const restored = yield* store.forEachProduct(1000, (page) =>
    Effect.gen(function* () {
      const outdated = page.flatMap(({ derived, product }) =>
        savedByAnotherModel(product, derived)
          ? [{ siteId: product.siteId, productId: product.productId, version: product.version }]
          : []
      )
      if (outdated.length > 0) yield* store.markStale(outdated)
      yield* index.upsert(yield* restoredDocuments(page).pipe(Effect.provideService(SiteVisualSpaces, spaces)))
      yield* suggester.indexProducts(page.map(({ product }) => suggestSource(product)))
    })
  )
  const queued = yield* reconcile
  return { restored, queued }
})
