import { Context, type Effect } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"
import type { Job } from "../../model/Jobs.js"

export class QueueError extends BackendFailure("QueueError") {}

/**
 * Accepts jobs (model/Jobs.ts) and has them handled in the background, each kind in its own
 * lane, jobs of one kind and product coalescing while they wait (both as model/Jobs.ts says).
 */
export interface JobQueueService {
  readonly enqueue: (jobs: ReadonlyArray<Job>) => Effect.Effect<void, QueueError>
  /**
   * For each job, whether a job of its kind and product is waiting or running (it will be
   * handled without being enqueued again): the reconcile pass queues only the others.
   */
  readonly queued: (jobs: ReadonlyArray<Job>) => Effect.Effect<ReadonlyArray<boolean>, QueueError>
  /** Jobs accepted but not finished yet. */
  readonly pending: Effect.Effect<number, QueueError>
  /** Completes once every job enqueued so far has been handled (tests, benchmarks, shutdown). */
  readonly drained: Effect.Effect<void, QueueError>
}

export class JobQueue extends Context.Tag("JobQueue")<JobQueue, JobQueueService>() {}

/**
 * What a queue backend runs for a batch of jobs (of one lane); the handlers live in
 * jobs/JobHandlers.ts. It is declared here, with the queue, because the backends depend
 * on it and not on the indexing code. A handler may return follow-up jobs (e.g. image
 * analysis after text indexing), which the backend enqueues — so handlers never depend on
 * the queue that runs them.
 */
export class JobHandler extends Context.Tag("JobHandler")<
  JobHandler,
  { readonly handle: (jobs: ReadonlyArray<Job>) => Effect.Effect<ReadonlyArray<Job> | void, unknown> }
>() {}
