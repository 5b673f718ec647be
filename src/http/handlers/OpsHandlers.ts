import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { SearchReplica } from "../../services/search-replica/SearchReplica.js"
import { ServiceUnavailable } from "../../domain/Errors.js"
import { JobQueue } from "../../services/job-queue/JobQueue.js"
import { Readiness } from "../../services/readiness/Readiness.js"
import { TextEmbedder } from "../../services/text-embedder/TextEmbedder.js"
import { CommerceApi } from "../Api.js"

export const OpsHandlers = HttpApiBuilder.group(CommerceApi, "ops", (handlers) =>
  handlers
    .handle("healthz", () => Effect.succeed({ status: "ok" as const }))
    .handle("readyz", () =>
      Effect.gen(function* () {
        const ready = yield* Effect.flatMap(Readiness, (r) => r.ready)
        if (!ready)
          return yield* new ServiceUnavailable({ message: "starting: loading models and restoring the index" })
        const pendingJobs = yield* Effect.flatMap(JobQueue, (q) => q.pending).pipe(Effect.orElseSucceed(() => -1))
        const replicas = Option.map(yield* Effect.serviceOption(SearchReplica), (r) => r.status())
        return {
          status: "ready" as const,
          pendingJobs,
          ...(Option.isSome(replicas)
            ? { searchReplicas: { configured: replicas.value.configured, ready: replicas.value.ready } }
            : {})
        }
      })
    )
    .handle("metrics", () =>
      Effect.gen(function* () {
        const pendingJobs = yield* Effect.flatMap(JobQueue, (q) => q.pending).pipe(
          Effect.orElseSucceed(() => Number.NaN)
        )
        const text = yield* Effect.flatMap(TextEmbedder, (e) => e.stats)
        const replicas = Option.getOrUndefined(
          Option.map(yield* Effect.serviceOption(SearchReplica), (r) => r.status())
        )
        const memory = process.memoryUsage()
        return prometheusText([
          [
            "commerce_jobs_pending",
            "gauge",
            "Jobs accepted and not finished yet (the indexing backlog; NaN when the queue cannot say)",
            pendingJobs
          ],
          [
            "commerce_text_documents_embedded_total",
            "counter",
            "Product texts run through the text model by this process",
            text.documentsEmbedded
          ],
          [
            "commerce_text_query_cache_hits_total",
            "counter",
            "Search queries whose vector came from the cache",
            text.queryCacheHits
          ],
          [
            "commerce_text_query_cache_misses_total",
            "counter",
            "Search queries embedded by the model",
            text.queryCacheMisses
          ],
          [
            "commerce_text_embedding_threads_ready",
            "gauge",
            "Embedding threads that have loaded the model",
            text.readyWorkers
          ],
          [
            "commerce_text_embedding_thread_restarts_total",
            "counter",
            "Embedding threads replaced after a crash",
            text.workerRestarts
          ],
          ...(replicas === undefined
            ? []
            : ([
                [
                  "commerce_search_replicas_ready",
                  "gauge",
                  "Search replicas answering searches (of SEARCH_REPLICAS)",
                  replicas.ready
                ],
                [
                  "commerce_search_replica_requests_total",
                  "counter",
                  "Requests the search replicas of this process answered themselves",
                  replicas.answered
                ]
              ] as const)),
          ["process_resident_memory_bytes", "gauge", "Resident set size of this process", memory.rss],
          ["nodejs_heap_used_bytes", "gauge", "V8 heap in use", memory.heapUsed]
        ])
      })
    )
)

/** Metrics in the Prometheus text exposition format (version 0.0.4). */
const prometheusText = (
  metrics: ReadonlyArray<readonly [name: string, type: "gauge" | "counter", help: string, value: number]>
) =>
  metrics
    .map(([name, type, help, value]) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name} ${value}\n`)
    .join("")
