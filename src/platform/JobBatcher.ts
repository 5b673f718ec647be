import { Deferred, Effect, ExecutionStrategy, Exit, Queue, Scope } from "effect"
import type { Job } from "../model/Jobs.js"
import type { JobHandler } from "../services/job-queue/JobQueue.js"

/** The batcher only reports outcomes; follow-up jobs are the caller's concern (see BullMqWorker). */
type Handle = (jobs: Parameters<JobHandler["Type"]["handle"]>[0]) => Effect.Effect<void, unknown>

interface Entry {
  readonly job: Job
  readonly done: Deferred.Deferred<void, unknown>
}

export interface JobBatcherOptions {
  readonly maxBatch: number
  /** How long the first job of a batch waits for company. */
  readonly lingerMs: number
}

/**
 * BullMQ hands a worker one job per processor call, but the handler is much cheaper per job
 * on a batch (one embedding call, one index upsert and one store write for many products).
 * Jobs handed over within `lingerMs` of each other therefore share one handler call; each
 * caller still gets its own job's outcome, so BullMQ retries only the jobs that failed.
 * Scoped: closing the scope interrupts the batches in flight, so close the BullMQ worker
 * (which waits for its active jobs) before this.
 */
export const makeJobBatcher = (handle: Handle, options: JobBatcherOptions) =>
  Effect.gen(function*() {
    const queue = yield* Effect.acquireRelease(Queue.unbounded<Entry>(), Queue.shutdown)
    // Batches are forked into a scope made now, not into the caller's scope at fork time:
    // that would register them after the BullMQ worker and so interrupt them before it closes.
    const batches = yield* Scope.fork(yield* Effect.scope, ExecutionStrategy.sequential)

    const settle = (entry: Entry) => (exit: Exit.Exit<void, unknown>) => Deferred.done(entry.done, exit)
    // A failed batch is retried one job at a time, so one bad product fails only its own job
    // and not its neighbours (which would otherwise share its retries and finally its failure).
    const run = (entries: ReadonlyArray<Entry>) =>
      Effect.exit(handle(entries.map((e) => e.job))).pipe(
        Effect.flatMap((exit) =>
          Exit.isSuccess(exit) || entries.length === 1
            ? Effect.forEach(entries, (entry) => settle(entry)(exit), { discard: true })
            : Effect.forEach(entries, (entry) => Effect.exit(handle([entry.job])).pipe(Effect.flatMap(settle(entry))), {
              concurrency: "unbounded",
              discard: true
            })
        ),
        Effect.onInterrupt(() => Effect.forEach(entries, (entry) => Deferred.interrupt(entry.done), { discard: true }))
      )

    yield* Queue.take(queue).pipe(
      Effect.tap(() => Effect.sleep(options.lingerMs)),
      Effect.flatMap((first) => Effect.map(Queue.takeUpTo(queue, options.maxBatch - 1), (rest) => [first, ...rest])),
      // Batches run side by side; the number of jobs BullMQ hands out bounds them.
      Effect.flatMap((entries) => Effect.forkIn(run(entries), batches)),
      Effect.forever,
      Effect.forkScoped
    )

    /** Handles one job as part of whichever batch it lands in. */
    return (job: Job): Effect.Effect<void, unknown> =>
      Effect.flatMap(Deferred.make<void, unknown>(), (done) =>
        Effect.zipRight(Queue.offer(queue, { job, done }), Deferred.await(done)))
  })
