import { Effect, Layer } from "effect"
import { ProductIndexer } from "../src/catalog/ProductIndexer.js"
import { JobHandler } from "../src/services/JobQueue.js"

/**
 * The work behind every job kind. The in-process queue runs it inside the api process; the
 * BullMQ worker processes run the same layer.
 */
export const JobHandlersLive = Layer.effect(
  JobHandler,
  Effect.gen(function*() {
    const indexer = yield* ProductIndexer
    return {
      // Index and remove both reconcile the index with the current record, so one batch call serves both.
      handle: (jobs) => indexer.index(jobs.map((j) => ({ siteId: j.siteId, productId: j.productId })))
    }
  })
)
