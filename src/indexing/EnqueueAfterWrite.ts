import { Effect, Schedule } from "effect"
import type { Job } from "../model/Jobs.js"
import { JobQueue } from "../services/job-queue/JobQueue.js"

/**
 * Asks for the indexing work a durable catalog write needs. The record is the truth: the write
 * has already succeeded, so a queue that cannot take the job does not fail the request. The
 * store and the queue may share one Redis whose connections come back at slightly different
 * moments after an outage, hence a few quick retries; beyond them the periodic reconcile pass
 * picks the product up (within a minute).
 */
export const enqueueAfterWrite = (job: Job) =>
  Effect.flatMap(JobQueue, (queue) => queue.enqueue([job])).pipe(
    Effect.retry(Schedule.intersect(Schedule.exponential("100 millis"), Schedule.recurs(4))),
    Effect.catchAll((e) => Effect.logWarning("could not enqueue; reconcile will pick the product up", e))
  )
