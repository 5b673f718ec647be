import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { recordingSpawner, workerScript } from "../../support/ModelThreads.js"
import { quiet } from "../../support/Quiet.js"
import { makeLazyImageAnalyzer } from "../../../src/services/image-analyzer/EmbeddedImageAnalyzer.js"
import { AnalyzeError } from "../../../src/services/image-analyzer/ImageAnalyzer.js"
import { solid } from "./images.js"

/** Real model threads; the first `failures` of them cannot load their models. */
const spawner = (failures: number) =>
  recordingSpawner(workerScript("image-analyzer"), (n) => (n < failures ? `throw new Error("no model here")` : ""))

describe("ImageAnalyzer started on first use", () => {
  it.live(
    "starts no thread until the first image, then serves it and stops the threads on release",
    () =>
      Effect.gen(function* () {
        const { spawned, spawn } = spawner(0)
        yield* Effect.scoped(
          Effect.gen(function* () {
            const analyzer = yield* makeLazyImageAnalyzer({ threads: 1, spawnWorker: spawn })
            expect(spawned).toHaveLength(0)
            expect((yield* analyzer.stats).readyWorkers).toBe(0)
            // Two images at once start the models once.
            const [a, b] = yield* Effect.all(
              [analyzer.embed(solid(32, 32, [200, 30, 30])), analyzer.embed(solid(32, 32, [30, 30, 200]))],
              { concurrency: 2 }
            )
            expect(a).toHaveLength(1792)
            expect(b).toHaveLength(1792)
            expect(spawned).toHaveLength(1)
            expect((yield* analyzer.stats).readyWorkers).toBe(1)
          })
        )
        expect(spawned.map((worker) => worker.threadId)).toEqual([-1])
      }).pipe(Effect.provide(quiet)),
    60_000
  )

  it.live(
    "a start that fails fails that image, and the next image starts the models afresh",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { spawned, spawn } = spawner(1)
          const analyzer = yield* makeLazyImageAnalyzer({ threads: 1, spawnWorker: spawn })
          const failure = yield* Effect.flip(analyzer.embed(solid(32, 32, [0, 0, 0])))
          expect(failure).toEqual(new AnalyzeError({ message: "image worker failed to load: no model here" }))
          expect(spawned[0].threadId).toBe(-1)
          expect(yield* analyzer.embed(solid(32, 32, [0, 0, 0]))).toHaveLength(1792)
          expect(spawned).toHaveLength(2)
        })
      ).pipe(Effect.provide(quiet)),
    60_000
  )
})
