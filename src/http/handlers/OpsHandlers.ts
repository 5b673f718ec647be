import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ServiceUnavailable } from "../../domain/Errors.js"
import { JobQueue } from "../../services/job-queue/JobQueue.js"
import { Readiness } from "../../services/readiness/Readiness.js"
import { CommerceApi } from "../Api.js"

export const OpsHandlers = HttpApiBuilder.group(CommerceApi, "ops", (handlers) =>
  handlers
    .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
    .handle("readyz", () =>
      Effect.gen(function*() {
        const ready = yield* Effect.flatMap(Readiness, (r) => r.ready)
        if (!ready) return yield* new ServiceUnavailable({ message: "starting: loading models and restoring the index" })
        const pendingJobs = yield* Effect.flatMap(JobQueue, (q) => q.pending).pipe(Effect.orElseSucceed(() => -1))
        return { status: "ready" as const, pendingJobs }
      })))
