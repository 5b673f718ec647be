import type { JobsOptions } from "bullmq"
import { dedupKey, type Job, type Lane } from "../../model/Jobs.js"

/** Shared by the api (producer) and the worker processes, so both sides agree on the queues. */
export const DEFAULT_QUEUE_NAME = "commerce-index"

/**
 * One BullMQ queue per lane (model/Jobs.ts). The index lane keeps the base name; the others
 * are suffixed (BullMQ names may not hold ':').
 */
export const laneQueueName = (base: string, lane: Lane) => (lane === "index" ? base : `${base}-${lane}`)

/**
 * How every job is added.
 *
 * Coalescing uses BullMQ's deduplication keyed by the job's `dedupKey` (its kind and product),
 * in `keepLastIfActive` mode, not a custom jobId. A custom `jobId = site:product` would be
 * wrong either way: BullMQ ignores an add whose jobId still exists, so while that job is
 * *active* (it may already have read the record) the newer update would be dropped, and with
 * completed jobs retained it would be dropped for as long as they are kept. A hand-made
 * `product:generation` id needs a counter bumped by the worker before it reads the record.
 * `keepLastIfActive` is that generation kept inside BullMQ's own Lua scripts, atomically:
 * - the key's job is waiting or delayed (a retry): the add is dropped, since that job has not
 *   read the record yet (and does the same work: the key names the kind of work);
 * - it is active: the add is stored as the one follow-up (the latest wins) and queued when
 *   the active job finishes, so two jobs of one kind and product never run at once and an
 *   older version can never overwrite a newer one;
 * - nothing is pending: a new job (auto-increment id).
 */
export const jobOptions = (job: Job, backoffDelayMs: number): JobsOptions => ({
  deduplication: { id: dedupKey(job), keepLastIfActive: true },
  // Handlers are idempotent (they work on the current record), so retrying is always safe.
  attempts: 5,
  backoff: { type: "exponential", delay: backoffDelayMs },
  // Finished jobs are kept only for inspection; the record store, not the queue, is the truth.
  removeOnComplete: { age: 3_600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600, count: 10_000 }
})
