import { type Job as BullJob, UnrecoverableError, Worker } from "bullmq"
import { Cause, Config, Context, Duration, Effect, Either, Exit, Layer, ParseResult, Runtime, Schema } from "effect"
import { JobHandler, JobQueue, QueueError } from "./JobQueue.js"
import { Job, type Lane, LANES } from "../../model/Jobs.js"
import { BullMqJobQueue } from "./BullMqJobQueue.js"
import { DEFAULT_QUEUE_NAME, laneQueueName } from "./BullMqSettings.js"
import { makeBatcher, type Settled } from "../../platform/Batcher.js"

export interface BullMqWorkerOptions {
  /** Base name of the queues (one per lane, see BullMqSettings). */
  readonly queueName?: string
  /** The lanes this process serves (default: env WORKER_QUEUES, a comma list, else all). */
  readonly lanes?: ReadonlyArray<Lane>
  /**
   * Jobs of one lane this process works on at once; default: env INDEX_CONCURRENCY (8),
   * IMAGES_CONCURRENCY (2), DETECT_CONCURRENCY (1), PREDICT_CONCURRENCY (2). It is also the
   * largest handler batch, so raising it buys bigger embedding batches. Given here, it
   * applies to every lane (tests).
   */
  readonly concurrency?: number
  /**
   * A process that dies mid-job stops renewing its lock; once the lock has expired the next
   * stalled check (every `stalledIntervalMs`) puts the job back to waiting for another worker.
   * BullMQ's defaults (30 s each) suit production; tests shorten them. Default: env
   * WORKER_LOCK_MS and WORKER_STALLED_INTERVAL_MS, else 30 s.
   */
  readonly lockDurationMs?: number
  readonly stalledIntervalMs?: number
  /** Jobs handed over within this many milliseconds share one handler call (Batcher). */
  readonly batchLingerMs?: number
}

const decodeJob = Schema.decodeUnknownEither(Job)

const DEFAULT_CONCURRENCY: Record<Lane, number> = { index: 8, images: 2, detect: 1, predict: 2, events: 2, spaces: 1 }

/** WORKER_QUEUES: the lanes this worker process serves (default all). */
export const WorkerQueues = Config.string("WORKER_QUEUES").pipe(
  Config.withDefault(LANES.join(",")),
  Config.map((list) =>
    list
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
  ),
  Config.validate({
    message: `WORKER_QUEUES must list some of: ${LANES.join(", ")}`,
    validation: (names): names is Array<Lane> =>
      names.length > 0 && names.every((n) => (LANES as ReadonlyArray<string>).includes(n))
  })
)

/** <LANE>_CONCURRENCY: jobs of that lane in progress at once in this process. */
export const LaneConcurrency = (lane: Lane) =>
  Config.integer(`${lane.toUpperCase()}_CONCURRENCY`).pipe(
    Config.withDefault(DEFAULT_CONCURRENCY[lane]),
    Config.validate({ message: `${lane.toUpperCase()}_CONCURRENCY must be at least 1`, validation: (n) => n >= 1 })
  )

/** WORKER_LOCK_MS / WORKER_STALLED_INTERVAL_MS: how soon a dead worker's job goes back to its queue. */
export const WorkerTimings = Config.all({
  lockDurationMs: Config.integer("WORKER_LOCK_MS").pipe(Config.withDefault(30_000)),
  stalledIntervalMs: Config.integer("WORKER_STALLED_INTERVAL_MS").pipe(Config.withDefault(30_000))
})

const asError = (cause: Cause.Cause<unknown>): Error => {
  const error = Cause.squash(cause)
  return error instanceof Error ? error : new Error(Cause.pretty(cause))
}

/**
 * The consumer side of the BullMQ queue, for the worker processes: it runs the JobHandler
 * layer on jobs the api enqueued with BullMqJobQueue. Closing the scope (SIGTERM) stops
 * taking jobs and waits for the active ones to finish.
 */
export const BullMqWorker = {
  layer: (url: string, options: BullMqWorkerOptions = {}) =>
    Layer.scopedDiscard(
      Effect.gen(function* () {
        const base = options.queueName ?? DEFAULT_QUEUE_NAME
        const lanes = options.lanes ?? (yield* WorkerQueues)
        // Follow-up jobs a handler returns go to their own lane's queue through a producer of its own.
        const producer = Context.get(yield* Layer.build(BullMqJobQueue.layer(url, { queueName: base })), JobQueue)
        const configured = yield* WorkerTimings
        const timing = {
          lockDurationMs: options.lockDurationMs ?? configured.lockDurationMs,
          stalledIntervalMs: options.stalledIntervalMs ?? configured.stalledIntervalMs
        }
        for (const lane of lanes) {
          const concurrency = options.concurrency ?? (yield* LaneConcurrency(lane))
          yield* serveLane(url, lane, laneQueueName(base, lane), concurrency, producer, { ...options, ...timing })
        }
        yield* Effect.logInfo("worker serving", { lanes })
      })
    )
}

/** One BullMQ Worker on one lane's queue, its jobs batched into handler calls. */
const serveLane = (
  url: string,
  lane: Lane,
  queueName: string,
  concurrency: number,
  producer: JobQueue["Type"],
  options: BullMqWorkerOptions
) =>
  Effect.gen(function* () {
    const handler = yield* JobHandler
    const handleWithFollowUps = (jobs: ReadonlyArray<Job>) =>
      handler.handle(jobs).pipe(
        Effect.flatMap((followUps) => (followUps && followUps.length > 0 ? producer.enqueue(followUps) : Effect.void)),
        Effect.timed,
        // One line per batch: what ops watch to see each worker's share and speed.
        Effect.flatMap(([elapsed]) =>
          Effect.logInfo("jobs handled").pipe(
            Effect.annotateLogs({ lane, jobs: jobs.length, ms: Math.round(Duration.toMillis(elapsed)) })
          )
        )
      )
    const runtime = yield* Effect.runtime<never>()
    const log = (effect: Effect.Effect<void>) => Runtime.runFork(runtime)(effect)
    const outcome = (exit: Exit.Exit<void, unknown>): Settled<void> =>
      Exit.isSuccess(exit) ? { ok: true, value: undefined } : { ok: false, error: asError(exit.cause) }
    // BullMQ hands a worker one job per processor call, but the handler is much cheaper per job
    // on a batch, so jobs handed over together share one handler call. A failed batch is retried
    // one job at a time, so one bad product fails only its own job and not its neighbours (which
    // would otherwise share its retries and finally its failure): BullMQ retries only those.
    const handleBatch = (jobs: ReadonlyArray<Job>) =>
      Effect.exit(handleWithFollowUps(jobs)).pipe(
        Effect.flatMap((exit) =>
          Exit.isSuccess(exit) || jobs.length === 1
            ? Effect.succeed(jobs.map(() => outcome(exit)))
            : Effect.forEach(jobs, (job) => Effect.map(Effect.exit(handleWithFollowUps([job])), outcome), {
                concurrency: "unbounded"
              })
        )
      )
    // The number of jobs BullMQ hands out (`concurrency`) bounds the batches in flight.
    const batcher = makeBatcher<Job, void>((jobs) => Runtime.runPromise(runtime)(handleBatch(jobs)), {
      maxBatch: concurrency,
      lingerMs: options.batchLingerMs ?? 5
    })
    // Registered before the BullMQ worker, so it runs after close() has waited for the active
    // jobs: nothing is left in flight by then, unless that wait was cut short.
    yield* Effect.addFinalizer(() => Effect.promise(() => batcher.flush()))

    const processor = async (job: BullJob): Promise<void> => {
      const decoded = decodeJob(job.data)
      // A payload that does not decode will never decode: fail it now instead of 5 times.
      if (Either.isLeft(decoded)) {
        throw new UnrecoverableError(
          `malformed ${job.name} payload: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`
        )
      }
      await batcher.submit(decoded.right)
    }

    // Acquired after the batcher, so released before it: close() waits for active jobs,
    // whose batches must still be running.
    const worker = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new Worker(queueName, processor, {
            // null: a worker waits in blocking commands and must outlive any Redis outage.
            connection: { url, maxRetriesPerRequest: null },
            concurrency,
            lockDuration: options.lockDurationMs,
            stalledInterval: options.stalledIntervalMs,
            // Twice: one stall is usually the process (a deploy's SIGKILL, a neighbour's OOM);
            // a job that keeps killing its worker is failed rather than passed round forever.
            maxStalledCount: 2,
            // After a Redis outage the worker's loop retries on this delay; BullMQ's 15 s default
            // would leave the queues idle for up to that long once Redis is back.
            runRetryDelay: 1_000
          })
      ),
      (worker) => Effect.promise(() => worker.close())
    )
    worker.on("error", (error) =>
      log(Effect.logWarning("job worker error", { queue: queueName, error: error.message }))
    )
    worker.on("failed", (job, error) =>
      log(
        Effect.logWarning("job failed", {
          queue: queueName,
          id: job?.id,
          name: job?.name,
          attemptsMade: job?.attemptsMade,
          reason: error.message
        })
      )
    )

    yield* Effect.tryPromise({
      try: () => worker.waitUntilReady(),
      catch: (cause) => new QueueError({ message: "cannot connect to the job queue's Redis", cause })
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.seconds(10),
        onTimeout: () => new QueueError({ message: "timed out connecting to the job queue's Redis" })
      })
    )
  })
