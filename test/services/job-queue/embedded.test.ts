import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import { EmbeddedJobQueue } from "../../../src/services/job-queue/EmbeddedJobQueue.js"
import { isProductJob, type Job } from "../../../src/model/Jobs.js"
import { JobHandler, JobQueue } from "../../../src/services/job-queue/JobQueue.js"
import { until, jobQueueConformance } from "./conformance.js"

// Failed batches are logged and left to the reconcile pass, so the handler sees a job once.
jobQueueConformance("embedded", () => EmbeddedJobQueue.layer(), { attempts: 1 })
jobQueueConformance("embedded, one job per batch", () => EmbeddedJobQueue.layer({ batchSize: 1, concurrency: 4 }), {
  attempts: 1
})

describe("EmbeddedJobQueue lanes", () => {
  /** A queue whose handler records `tag:product` and holds DetectObjects jobs until `detections` opens. */
  const setup = Effect.gen(function* () {
    const seen: Array<string> = []
    const detections = yield* Deferred.make<void>()
    const handler = Layer.succeed(JobHandler, {
      handle: (jobs: ReadonlyArray<Job>) =>
        Effect.gen(function* () {
          if (jobs.some((j) => j._tag === "DetectObjects")) yield* Deferred.await(detections)
          seen.push(...jobs.map((j) => `${j._tag}:${isProductJob(j) ? j.productId : ""}`))
        })
    })
    return { seen, detections, layer: EmbeddedJobQueue.layer().pipe(Layer.provide(handler)) }
  })

  it.live("indexing, image analysis and object detection of one product are separate jobs: none replaces another", () =>
    Effect.gen(function* () {
      const { detections, layer, seen } = yield* setup
      yield* Deferred.succeed(detections, undefined)
      yield* Effect.gen(function* () {
        const queue = yield* JobQueue
        const p = { siteId: 1, productId: "p" }
        yield* queue.enqueue([
          { _tag: "AnalyzeImages", ...p },
          { _tag: "DetectObjects", ...p },
          { _tag: "IndexProduct", ...p }
        ])
        yield* queue.drained
      }).pipe(Effect.provide(layer))
      expect([...seen].sort()).toEqual(["AnalyzeImages:p", "DetectObjects:p", "IndexProduct:p"])
    })
  )

  it.live("a detection that takes long holds up neither image analysis nor text indexing", () =>
    Effect.gen(function* () {
      const { detections, layer, seen } = yield* setup
      yield* Effect.gen(function* () {
        const queue = yield* JobQueue
        yield* queue.enqueue([{ _tag: "DetectObjects", siteId: 1, productId: "a" }])
        yield* queue.enqueue([
          { _tag: "AnalyzeImages", siteId: 1, productId: "b" },
          { _tag: "IndexProduct", siteId: 1, productId: "c" }
        ])
        yield* until(() => seen.includes("AnalyzeImages:b") && seen.includes("IndexProduct:c"))
        expect(seen).not.toContain("DetectObjects:a")
        expect(yield* queue.pending).toBe(1)
        yield* Deferred.succeed(detections, undefined)
        yield* queue.drained
        expect(seen).toContain("DetectObjects:a")
      }).pipe(Effect.provide(layer))
    })
  )
})
