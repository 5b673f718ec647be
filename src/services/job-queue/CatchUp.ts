import { Effect } from "effect"
import type { Job } from "../../model/Jobs.js"
import { JobQueue } from "./JobQueue.js"
import { SiteRegistry } from "../site-registry/SiteRegistry.js"

/**
 * A reconcile pass over the sites: queues `job` for every site `behind` says has work left that
 * a crash or a lost job dropped (events not aggregated, a re-indexing cut short). Returns how
 * many it queued.
 */
export const queueCatchUp = <E, R>(
  behind: (siteId: number) => Effect.Effect<boolean, E, R>,
  job: (siteId: number) => Job
) =>
  Effect.gen(function* () {
    const sites = yield* Effect.flatMap(SiteRegistry, (registry) => registry.all)
    const jobs: Array<Job> = []
    for (const site of sites) if (yield* behind(site.id)) jobs.push(job(site.id))
    if (jobs.length > 0) yield* Effect.flatMap(JobQueue, (queue) => queue.enqueue(jobs))
    return jobs.length
  })
