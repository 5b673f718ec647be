import { Duration, Effect, Schema } from "effect"
import { ProductImages, ProductRecord } from "../../src/domain/Product.js"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../src/model/Filter.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"

export interface CatalogProduct {
  readonly id: string
  readonly data: ProductRecord
  readonly imageUrls: ReadonlyArray<string>
}

export interface Ingestion {
  readonly products: number
  readonly indexed: number
  readonly images: number
  readonly analysedOk: number
  readonly analysedFailed: number
  readonly failures: ReadonlyArray<string>
  /** From the first write until every product's images have an analysis. */
  readonly totalMs: number
}

const decodeRecord = Schema.decodeUnknownSync(ProductRecord)
const decodeImages = Schema.decodeUnknownSync(ProductImages)

/**
 * What PUT /product does for each product (validate, store the record with its image URLs,
 * enqueue IndexProduct); the queue indexes the text, then fetches and analyses the images and
 * re-indexes. Waits for the queue to drain and then until every image has an analysis.
 */
export const ingest = (siteId: number, products: ReadonlyArray<CatalogProduct>, timeout = Duration.minutes(20)) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const queue = yield* JobQueue
    const index = yield* CatalogIndex
    const started = performance.now()
    for (const p of products) {
      const data = decodeRecord(p.data)
      const images = decodeImages(p.imageUrls.map((url) => ({ url })))
      yield* store.put(siteId, p.id, data, images)
      yield* queue.enqueue([{ _tag: "IndexProduct", siteId, productId: p.id }])
    }
    const expected = products.reduce((n, p) => n + p.imageUrls.length, 0)
    const analysed = Effect.gen(function* () {
      let ok = 0,
        failed = 0
      const failures: Array<string> = []
      for (const p of products) {
        for (const a of yield* store.imageAnalyses(siteId, p.id)) {
          if (a.status === "ok") ok++
          else {
            failed++
            failures.push(`${p.id} ${a.url}: ${a.reason}`)
          }
        }
      }
      return { ok, failed, failures }
    })
    let lastReport = started
    const waitAll = Effect.gen(function* () {
      while (true) {
        yield* queue.drained
        const state = yield* analysed
        if (state.ok + state.failed >= expected) return state
        if (performance.now() - lastReport > 20_000) {
          lastReport = performance.now()
          process.stderr.write(
            `  images: ${state.ok + state.failed}/${expected} analysed after ` +
              `${((lastReport - started) / 1000).toFixed(0)} s\n`
          )
        }
        yield* Effect.sleep(Duration.millis(200))
      }
    })
    const state = yield* waitAll.pipe(
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () => new Error(`images not analysed within ${Duration.format(timeout)}`)
      })
    )
    // The AnalyzeImages job re-indexes after saving; drain once more so the index has the vectors.
    yield* queue.drained
    const totalMs = performance.now() - started
    const indexed = yield* index.count(siteId, emptyFilter)
    return {
      products: products.length,
      indexed,
      images: expected,
      analysedOk: state.ok,
      analysedFailed: state.failed,
      failures: state.failures,
      totalMs
    } satisfies Ingestion
  })
