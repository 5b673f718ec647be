import { Queue } from "bullmq"
import { Array as Arr, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { Job, JobQueue, QueueError } from "../JobQueue.js"
import { DEFAULT_QUEUE_NAME, jobOptions, type Lane, LANES, laneOf, laneQueueName } from "./BullMqSettings.js"

export interface BullMqJobQueueOptions {
  /** Base name of the queues (one per lane, see BullMqSettings). */
  readonly queueName?: string
  /** First retry delay; later ones double (exponential backoff). Tests shorten it. */
  readonly backoffDelayMs?: number
  /** How often `drained` looks at the counts. */
  readonly drainPollMs?: number
}

const encodeJob = Schema.encodeSync(Job)

/**
 * The distributed queue's producer side (the api process); the consumers are
 * workers/BullMqWorker.ts in separate processes. Jobs are durable in Redis (run it with AOF
 * and `noeviction`); coalescing and retries are described in BullMqSettings.ts.
 */
export const BullMqJobQueue = {
  layer: (url: string, options: BullMqJobQueueOptions = {}) =>
    Layer.scoped(
      JobQueue,
      Effect.gen(function*() {
        const backoffDelayMs = options.backoffDelayMs ?? 1_000
        const base = options.queueName ?? DEFAULT_QUEUE_NAME
        const open = (lane: Lane) =>
          Effect.acquireRelease(
            Effect.sync(() =>
              // No offline queue: while Redis is unreachable an enqueue fails at once instead of
              // holding the PUT that triggered it; the caller logs it and reconcile heals it.
              new Queue(laneQueueName(base, lane), { connection: { url, enableOfflineQueue: false } })
            ),
            (queue) => Effect.promise(() => queue.close())
          )
        const queues = Object.fromEntries(
          yield* Effect.forEach(LANES, (lane) => Effect.map(open(lane), (queue) => [lane, queue] as const))
        ) as Record<Lane, Queue>
        for (const queue of Object.values(queues)) {
          // Connection errors surface as failed enqueues; an unhandled 'error' event would crash the process.
          queue.on("error", () => {})
          yield* Effect.tryPromise({
            try: () => queue.waitUntilReady(),
            // Not the URL: it may carry a password.
            catch: (cause) => new QueueError({ message: "cannot connect to the job queue's Redis", cause })
          }).pipe(Effect.timeoutFail({
            duration: Duration.seconds(10),
            onTimeout: () => new QueueError({ message: "timed out connecting to the job queue's Redis" })
          }))
        }

        // Delayed jobs are retries waiting out their backoff.
        const pending = Effect.forEach(LANES, (lane) =>
          Effect.tryPromise({
            try: () => queues[lane].getJobCounts("waiting", "active", "delayed"),
            catch: (cause) => new QueueError({ message: "cannot read the job queue's counts", cause })
          })).pipe(Effect.map((all) => all.flatMap((counts) => Object.values(counts)).reduce((sum, n) => sum + n, 0)))

        const addChunk = (lane: Lane, jobs: ReadonlyArray<Job>) =>
          Effect.tryPromise({
            try: () =>
              queues[lane].addBulk(jobs.map((job) => ({ name: job._tag, data: encodeJob(job), opts: jobOptions(job, backoffDelayMs) }))),
            catch: (cause) => new QueueError({ message: `cannot enqueue ${jobs.length} job(s)`, cause })
          })
        const enqueueLane = ([lane, jobs]: readonly [Lane, ReadonlyArray<Job>]) =>
          Effect.forEach(Arr.chunksOf(jobs, 1_000), (chunk) => addChunk(lane, chunk), { discard: true })

        return JobQueue.of({
          // addBulk sends one pipeline; a reconcile pass may queue the whole catalog, so it goes in slices.
          enqueue: (jobs) =>
            Effect.forEach(
              LANES.map((lane) => [lane, jobs.filter((job) => laneOf(job) === lane)] as const).filter(([, js]) => js.length > 0),
              enqueueLane,
              { discard: true }
            ),
          pending,
          // The queue is shared, so this waits for every producer's jobs, not only this one's.
          // A follow-up stored for an active job is created in the same script that finishes it,
          // so the counts never read 0 while one is owed.
          drained: pending.pipe(
            Effect.repeat({ schedule: Schedule.spaced(options.drainPollMs ?? 50), until: (n) => n === 0 }),
            Effect.asVoid
          )
        })
      })
    )
}
