import { type Job as BullJob, UnrecoverableError, Worker } from "bullmq"
import { Cause, Config, Context, Duration, Effect, Either, Exit, Layer, ParseResult, Runtime, Schema } from "effect"
import { Job, JobHandler, JobQueue, QueueError } from "../src/services/JobQueue.js"
import { BullMqJobQueue } from "../src/services/job-queue/BullMqJobQueue.js"
import { DEFAULT_QUEUE_NAME } from "../src/services/job-queue/BullMqSettings.js"
import { makeJobBatcher } from "../src/services/job-queue/JobBatcher.js"

export interface BullMqWorkerOptions {
  readonly queueName?: string
  /**
   * Jobs this process works on at once; default: env WORKER_CONCURRENCY, else 4. It is also
   * the largest handler batch, so raising it buys bigger embedding batches.
   */
  readonly concurrency?: number
  /**
   * A process that dies mid-job stops renewing its lock; once the lock has expired the next
   * stalled check (every `stalledIntervalMs`) puts the job back to waiting for another worker.
   * BullMQ's defaults (30 s each) suit production; tests shorten them.
   */
  readonly lockDurationMs?: number
  readonly stalledIntervalMs?: number
  /** Jobs handed over within this many milliseconds share one handler call (JobBatcher). */
  readonly batchLingerMs?: number
}

const decodeJob = Schema.decodeUnknownEither(Job)

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
    Layer.scopedDiscard(Effect.gen(function*() {
      const handler = yield* JobHandler
      const concurrency = options.concurrency ?? (yield* Config.integer("WORKER_CONCURRENCY").pipe(Config.withDefault(4)))
      // Follow-up jobs a handler returns go back onto the same queue through a producer of its own.
      const producer = Context.get(yield* Layer.build(BullMqJobQueue.layer(url, { queueName: options.queueName ?? DEFAULT_QUEUE_NAME })), JobQueue)
      const handleWithFollowUps = (jobs: ReadonlyArray<Job>) =>
        handler.handle(jobs).pipe(Effect.flatMap((followUps) => (followUps && followUps.length > 0 ? producer.enqueue(followUps) : Effect.void)))
      const submit = yield* makeJobBatcher(handleWithFollowUps, { maxBatch: concurrency, lingerMs: options.batchLingerMs ?? 5 })
      const runtime = yield* Effect.runtime<never>()
      const runExit = Runtime.runPromiseExit(runtime)
      const log = (effect: Effect.Effect<void>) => Runtime.runFork(runtime)(effect)

      const processor = async (job: BullJob): Promise<void> => {
        const decoded = decodeJob(job.data)
        // A payload that does not decode will never decode: fail it now instead of 5 times.
        if (Either.isLeft(decoded)) {
          throw new UnrecoverableError(`malformed ${job.name} payload: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
        }
        const exit = await runExit(submit(decoded.right))
        if (Exit.isFailure(exit)) throw asError(exit.cause)
      }

      // Acquired after the batcher, so released before it: close() waits for active jobs,
      // whose batches must still be running.
      const worker = yield* Effect.acquireRelease(
        Effect.sync(() =>
          new Worker(options.queueName ?? DEFAULT_QUEUE_NAME, processor, {
            // null: a worker waits in blocking commands and must outlive any Redis outage.
            connection: { url, maxRetriesPerRequest: null },
            concurrency,
            lockDuration: options.lockDurationMs ?? 30_000,
            stalledInterval: options.stalledIntervalMs ?? 30_000,
            // Twice: one stall is usually the process (a deploy's SIGKILL, a neighbour's OOM);
            // a job that keeps killing its worker is failed rather than passed round forever.
            maxStalledCount: 2
          })
        ),
        (worker) => Effect.promise(() => worker.close())
      )
      worker.on("error", (error) => log(Effect.logWarning("job worker error", error.message)))
      worker.on("failed", (job, error) =>
        log(Effect.logWarning("job failed", { id: job?.id, name: job?.name, attemptsMade: job?.attemptsMade, reason: error.message })))

      yield* Effect.tryPromise({
        try: () => worker.waitUntilReady(),
        catch: (cause) => new QueueError({ message: "cannot connect to the job queue's Redis", cause })
      }).pipe(Effect.timeoutFail({
        duration: Duration.seconds(10),
        onTimeout: () => new QueueError({ message: "timed out connecting to the job queue's Redis" })
      }))
    }))
}
