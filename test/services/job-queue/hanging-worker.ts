import { Effect, Layer } from "effect"
import { BullMqWorker } from "../../../src/services/job-queue/BullMqWorker.js"
import { JobHandler } from "../../../src/services/job-queue/JobQueue.js"
import { isProductJob } from "../../../src/model/Jobs.js"

/**
 * A worker process whose handler reports each job on stdout and then never finishes, for the
 * test that SIGKILLs it mid-job. Arguments: redis URL, queue name.
 */
const [url, queueName] = process.argv.slice(2)

const Hanging = Layer.succeed(JobHandler, {
  handle: (jobs) =>
    Effect.sync(() =>
      process.stdout.write(
        `started ${jobs.map((j) => `${j.siteId}:${isProductJob(j) ? j.productId : ""}`).join(" ")}\n`
      )
    ).pipe(Effect.zipRight(Effect.never))
})

BullMqWorker.layer(url, { queueName, concurrency: 1, lockDurationMs: 1_000, stalledIntervalMs: 500 }).pipe(
  Layer.provide(Hanging),
  Layer.launch,
  Effect.runFork
)
