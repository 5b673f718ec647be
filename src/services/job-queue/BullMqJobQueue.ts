import { Queue } from "bullmq"
import { Array as Arr, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { JobQueue, QueueError } from "./JobQueue.js"
import { dedupKey, Job, type Lane, LANES, laneOf } from "../../model/Jobs.js"
import { makeBatcher, type Settled } from "../../platform/Batcher.js"
import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { DEFAULT_QUEUE_NAME, jobOptions, laneQueueName } from "./BullMqSettings.js"

export interface BullMqJobQueueOptions {
  /** Base name of the queues (one per lane, see BullMqSettings). */
  readonly queueName?: string
  /** First retry delay; later ones double (exponential backoff). Tests shorten it. */
  readonly backoffDelayMs?: number
  /** How often `drained` looks at the counts. */
  readonly drainPollMs?: number
}

const encodeJob = Schema.encodeSync(Job)

/** Largest addBulk: one pipeline; a reconcile pass may queue the whole catalog, so it goes in slices. */
const CHUNK = 1_000
/**
 * Enqueues of at most this many jobs (a PUT's one job, a worker's follow-ups) join a micro-batch
 * with the other enqueues of the same event-loop turn; larger ones go on their own.
 */
const BATCHED_UP_TO = 100

/**
 * The distributed queue's producer side (the api process); the consumers are
 * BullMqWorker.ts (src/worker.ts) in separate processes. Jobs are durable in Redis (run it with AOF
 * and `noeviction`); coalescing and retries are described in BullMqSettings.ts.
 */
export const BullMqJobQueue = {
  layer: (url: string, options: BullMqJobQueueOptions = {}) =>
    Layer.scoped(
      JobQueue,
      Effect.gen(function* () {
        const backoffDelayMs = options.backoffDelayMs ?? 1_000
        const base = options.queueName ?? DEFAULT_QUEUE_NAME
        // One fail-fast connection shared by the lanes' queues: while Redis is unreachable an
        // enqueue fails (at once, or within the command timeout when it was in flight) instead of
        // holding the PUT that triggered it; the caller logs it and reconcile heals it. Ours, not
        // BullMQ's, so closing it works while Redis is down (QUIT cannot be sent then).
        const connection = yield* connectFailFast(
          url,
          { commandTimeoutMs: 5_000 },
          (cause) =>
            // Not the URL: it may carry a password.
            new QueueError({ message: "cannot connect to the job queue's Redis", cause })
        )
        const open = (lane: Lane) =>
          Effect.acquireRelease(
            Effect.sync(() => new Queue(laneQueueName(base, lane), { connection })),
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
            catch: (cause) => new QueueError({ message: "cannot connect to the job queue's Redis", cause })
          }).pipe(
            Effect.timeoutFail({
              duration: Duration.seconds(10),
              onTimeout: () => new QueueError({ message: "timed out connecting to the job queue's Redis" })
            })
          )
        }

        // Delayed jobs are retries waiting out their backoff.
        const pending = Effect.forEach(LANES, (lane) =>
          Effect.tryPromise({
            try: () => queues[lane].getJobCounts("waiting", "active", "delayed"),
            catch: (cause) => new QueueError({ message: "cannot read the job queue's counts", cause })
          })
        ).pipe(Effect.map((all) => all.flatMap((counts) => Object.values(counts)).reduce((sum, n) => sum + n, 0)))

        const addChunk = async (lane: Lane, jobs: ReadonlyArray<Job>) =>
          queues[lane].addBulk(
            jobs.map((job) => ({ name: job._tag, data: encodeJob(job), opts: jobOptions(job, backoffDelayMs) }))
          )
        const byLane = <A>(items: ReadonlyArray<A>, jobOf: (item: A) => Job) =>
          LANES.map((lane) => [lane, items.filter((item) => laneOf(jobOf(item)) === lane)] as const).filter(
            ([, xs]) => xs.length > 0
          )

        /**
         * The enqueues of one event-loop turn (concurrent PUTs) in one addBulk per lane: under a
         * bulk push this is most of the api's cost of a PUT otherwise. Every caller still learns
         * whether its own jobs were added: a slice that fails is retried job by job, so a job
         * that cannot be added fails its own caller only. Re-adding a job of the failed slice
         * that did land is harmless (deduplicated, see BullMqSettings).
         */
        const batcher = makeBatcher<ReadonlyArray<Job>, void>(
          async (calls) => {
            const failures = new Map<number, unknown>()
            const items = calls.flatMap((jobs, call) => jobs.map((job) => ({ call, job })))
            await Promise.all(
              byLane(items, (item) => item.job).map(async ([lane, laneItems]) => {
                for (const chunk of Arr.chunksOf(laneItems, CHUNK)) {
                  try {
                    await addChunk(
                      lane,
                      chunk.map((item) => item.job)
                    )
                  } catch (error) {
                    if (chunk.every((item) => item.call === chunk[0].call)) {
                      failures.set(chunk[0].call, error)
                      continue
                    }
                    await Promise.all(
                      chunk.map((item) =>
                        addChunk(lane, [item.job]).catch((e: unknown) => {
                          if (!failures.has(item.call)) failures.set(item.call, e)
                        })
                      )
                    )
                  }
                }
              })
            )
            return calls.map(
              (_, call): Settled<void> =>
                failures.has(call) ? { ok: false, error: failures.get(call) } : { ok: true, value: undefined }
            )
          },
          { maxBatch: 256 }
        )
        // Registered after the queues, so it runs before they close: what was accepted is sent.
        yield* Effect.addFinalizer(() => Effect.promise(() => batcher.flush()))

        const enqueueLane = ([lane, jobs]: readonly [Lane, ReadonlyArray<Job>]) =>
          Effect.forEach(
            Arr.chunksOf(jobs, CHUNK),
            (chunk) =>
              Effect.tryPromise({
                try: () => addChunk(lane, chunk),
                catch: (cause) => new QueueError({ message: `cannot enqueue ${chunk.length} job(s)`, cause })
              }),
            { discard: true }
          )

        return JobQueue.of({
          enqueue: (jobs) =>
            jobs.length === 0
              ? Effect.void
              : jobs.length <= BATCHED_UP_TO
                ? Effect.tryPromise({
                    try: () => batcher.submit(jobs),
                    catch: (cause) => new QueueError({ message: `cannot enqueue ${jobs.length} job(s)`, cause })
                  })
                : Effect.forEach(
                    byLane(jobs, (job) => job),
                    enqueueLane,
                    { discard: true }
                  ),
          // BullMQ keeps a job's deduplication key (its kind and product, BullMqSettings) from
          // the add until the job is finished, completed or failed for good.
          queued: (jobs) =>
            Effect.tryPromise({
              try: () =>
                Promise.all(
                  jobs.map((job) => queues[laneOf(job)].getDeduplicationJobId(dedupKey(job)).then((id) => id !== null))
                ),
              catch: (cause) =>
                new QueueError({ message: `cannot read whether ${jobs.length} job(s) are queued`, cause })
            }),
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
