import { Duration, Effect, Fiber, Schedule } from "effect"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../src/model/Filter.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"
import type { EvalProduct } from "./Dataset.js"

export interface Ingestion {
  readonly products: number
  readonly indexed: number
  /** Store writes and enqueues only. */
  readonly putMs: number
  /** From the first write until the queue drained: every product searchable. */
  readonly totalMs: number
}

/** What PUT /product does, in batches: store the record, enqueue IndexProduct; then wait for the queue. */
export const ingest = (siteId: number, products: ReadonlyArray<EvalProduct>, batchSize = 256) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const queue = yield* JobQueue
    const index = yield* CatalogIndex
    const started = performance.now()
    const progress = yield* Effect.fork(
      Effect.gen(function* () {
        const pending = yield* queue.pending
        const seconds = (performance.now() - started) / 1000
        process.stderr.write(
          `  ingest: ${products.length - pending}/${products.length} indexed after ${seconds.toFixed(0)} s\n`
        )
      }).pipe(Effect.delay(Duration.seconds(20)), Effect.repeat(Schedule.forever))
    )
    for (let i = 0; i < products.length; i += batchSize) {
      const chunk = products.slice(i, i + batchSize)
      for (const p of chunk) {
        yield* store.put(
          siteId,
          p.id,
          p.description === undefined ? { title: p.title } : { title: p.title, description: p.description },
          []
        )
      }
      yield* queue.enqueue(chunk.map((p) => ({ _tag: "IndexProduct" as const, siteId, productId: p.id })))
    }
    const putMs = performance.now() - started
    yield* queue.drained
    const totalMs = performance.now() - started
    yield* Fiber.interrupt(progress)
    const indexed = yield* index.count(siteId, emptyFilter)
    return { products: products.length, indexed, putMs, totalMs } satisfies Ingestion
  })
