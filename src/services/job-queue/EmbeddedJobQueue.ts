import { Deferred, Effect, Layer, Queue, Ref } from "effect"
import { dedupKey, type Job, type Lane, LANES, laneOf } from "../../model/Jobs.js"
import { JobHandler, JobQueue } from "./JobQueue.js"

export interface EmbeddedJobQueueOptions {
  /** Jobs handed to the handler at once (lets the handler batch model calls). */
  readonly batchSize: number
  /** Batches handled concurrently. */
  readonly concurrency: number
  /** Image-analysis jobs run in a lane of their own so slow image hosts never hold up text indexing. */
  readonly imageBatchSize?: number
  readonly imageConcurrency?: number
  /** Object detection (the second image pass) has its own lane too, so it never holds up the first. */
  readonly detectBatchSize?: number
  readonly detectConcurrency?: number
  /** Attribute predictions too: a merchant waits for one, so it queues behind no catalog work. */
  readonly predictBatchSize?: number
  readonly predictConcurrency?: number
}

/** Batch size and fibers of each lane (model/Jobs.ts). */
const laneSizes = (
  options: EmbeddedJobQueueOptions
): Record<Lane, { readonly batchSize: number; readonly concurrency: number }> => ({
  index: { batchSize: options.batchSize, concurrency: options.concurrency },
  // Two image batches at a time: one batch's fetches, saves and re-indexing overlap the
  // other's model calls, and one slow image host does not stall every image.
  images: { batchSize: options.imageBatchSize ?? 4, concurrency: options.imageConcurrency ?? 2 },
  detect: { batchSize: options.detectBatchSize ?? 4, concurrency: options.detectConcurrency ?? 1 },
  predict: { batchSize: options.predictBatchSize ?? 4, concurrency: options.predictConcurrency ?? 1 },
  // One site's aggregation at a time: it is I/O and counting, and each reads all that is stored.
  events: { batchSize: 1, concurrency: 1 },
  // One site's visual-space fit at a time: a thread's arithmetic, then re-indexing the site.
  spaces: { batchSize: 1, concurrency: 1 }
})

/**
 * The embedded queue: jobs live in memory and are handled by fibers of the api process.
 * Losing them on a crash is fine because the record store knows which products lack
 * current derived data or image work, and the reconcile pass at startup re-enqueues them.
 * Jobs of the same `dedupKey` (kind and product) coalesce while waiting: a burst of updates
 * is indexed once.
 */
const layer = (options: EmbeddedJobQueueOptions = { batchSize: 32, concurrency: 2 }) =>
  Layer.scoped(
    JobQueue,
    Effect.gen(function* () {
      const handler = yield* JobHandler
      const lanes = {} as Record<Lane, Queue.Queue<string>>
      for (const lane of LANES) lanes[lane] = yield* Queue.unbounded<string>()
      const offer = (key: string, job: Job) => Queue.offer(lanes[laneOf(job)], key)
      const waiting = new Map<string, Job>()
      // A key (a kind of work on a product) is handled by one batch at a time, so an older
      // version can never be indexed after a newer one; its later jobs wait in `blocked`
      // until that batch ends.
      const running = new Set<string>()
      const blocked = new Set<string>()
      const inFlight = yield* Ref.make(0)
      const idleWaiters: Array<Deferred.Deferred<void>> = []

      const notifyIfIdle = Effect.gen(function* () {
        if (waiting.size > 0 || (yield* Ref.get(inFlight)) > 0) return
        for (const d of idleWaiters.splice(0)) yield* Deferred.succeed(d, undefined)
      })

      const enqueue = (jobs: ReadonlyArray<Job>) =>
        Effect.gen(function* () {
          for (const job of jobs) {
            const key = dedupKey(job)
            const known = waiting.has(key)
            waiting.set(key, job)
            if (!known && !blocked.has(key)) yield* offer(key, job)
          }
        })

      const worker = (lane: Lane, batchSize: number) =>
        Effect.gen(function* () {
          const first = yield* Queue.take(lanes[lane])
          const rest = yield* Queue.takeUpTo(lanes[lane], batchSize - 1)
          const jobs: Array<Job> = []
          const keys: Array<string> = []
          for (const key of [first, ...rest]) {
            const job = waiting.get(key)
            if (job === undefined) continue
            if (running.has(key)) {
              blocked.add(key)
              continue
            }
            waiting.delete(key)
            running.add(key)
            keys.push(key)
            jobs.push(job)
          }
          if (jobs.length === 0) return
          yield* Ref.update(inFlight, (n) => n + jobs.length)
          const release = Effect.gen(function* () {
            for (const key of keys) running.delete(key)
            for (const key of blocked) {
              if (running.has(key)) continue
              blocked.delete(key)
              const job = waiting.get(key)
              if (job !== undefined) yield* offer(key, job)
            }
            yield* Ref.update(inFlight, (n) => n - jobs.length)
            yield* notifyIfIdle
          })
          yield* handler.handle(jobs).pipe(
            // Follow-ups are queued before this batch counts as done, so `drained` waits for them.
            Effect.flatMap((followUps) => (followUps && followUps.length > 0 ? enqueue(followUps) : Effect.void)),
            Effect.catchAllCause((cause) =>
              Effect.logError("job batch failed; the reconcile pass will retry it", cause)
            ),
            Effect.ensuring(release)
          )
        }).pipe(Effect.forever)

      const sizes = laneSizes(options)
      for (const lane of LANES) {
        for (let i = 0; i < sizes[lane].concurrency; i++) yield* Effect.forkScoped(worker(lane, sizes[lane].batchSize))
      }

      return {
        enqueue,
        queued: (jobs) =>
          Effect.sync(() =>
            jobs.map((job) => {
              const key = dedupKey(job)
              return waiting.has(key) || running.has(key)
            })
          ),
        pending: Effect.map(Ref.get(inFlight), (n) => n + waiting.size),
        drained: Effect.gen(function* () {
          const d = yield* Deferred.make<void>()
          idleWaiters.push(d)
          yield* notifyIfIdle
          yield* Deferred.await(d)
        })
      }
    })
  )

export const EmbeddedJobQueue = { layer }
