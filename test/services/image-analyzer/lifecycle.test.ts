import { describe, expect, it } from "@effect/vitest"
import { recordingSpawner, workerScript } from "../../support/ModelThreads.js"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { makeImageAnalyzer } from "../../../src/services/image-analyzer/EmbeddedImageAnalyzer.js"
import { AnalyzeError } from "../../../src/services/image-analyzer/ImageAnalyzer.js"
import { solid, syntheticPhoto } from "./images.js"

const spawner = (prelude = "") => recordingSpawner(workerScript("image-analyzer"), () => prelude)

// The real worker behind a listener, registered first, that kills the thread on a 13-px
// wide detection input: a genuine mid-request thread death, as a native fault would cause.
const crashOn13PxWide = `require("node:worker_threads").parentPort.on("message", (m) => {
  if (m.detection && m.detection.width === 13) process.exit(7)
})`

describe("ImageAnalyzer lifecycle", () => {
  it.live("is ready when acquired and terminates every thread on release", () =>
    Effect.gen(function* () {
      const { spawned, spawn } = spawner()
      yield* Effect.scoped(
        Effect.gen(function* () {
          const analyzer = yield* makeImageAnalyzer({ threads: 2, spawnWorker: spawn })
          const stats = yield* analyzer.stats
          expect(stats.readyWorkers).toBe(2)
          expect(stats.modelLoadMs?.total).toBeGreaterThan(0)
          expect(spawned.every((worker) => worker.threadId > 0)).toBe(true)
        })
      )
      expect(spawned).toHaveLength(2)
      // threadId becomes -1 once a thread has stopped; a live one would keep the process up.
      expect(spawned.map((worker) => worker.threadId)).toEqual([-1, -1])
    })
  )

  it.live("fails acquisition with AnalyzeError when a thread cannot load its models", () =>
    Effect.gen(function* () {
      const { spawned, spawn } = spawner(`throw new Error("no model here")`)
      const exit = yield* Effect.exit(Effect.scoped(makeImageAnalyzer({ threads: 2, spawnWorker: spawn })))
      expect(exit).toStrictEqual(Exit.fail(new AnalyzeError({ message: "image worker failed to load: no model here" })))
      expect(spawned.map((worker) => worker.threadId)).toEqual([-1, -1])
    })
  )

  it.live("fails the in-flight request of a crashed thread and serves the rest on a replacement", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { spawn } = spawner(crashOn13PxWide)
        const analyzer = yield* makeImageAnalyzer({ threads: 1, spawnWorker: spawn })
        const doomed = yield* Effect.fork(analyzer.detect(solid(13, 13, [0, 0, 0])))
        yield* Effect.sleep("50 millis") // the doomed request is in flight; the next one waits behind it
        const queued = yield* Effect.fork(analyzer.embed(solid(32, 32, [40, 150, 60])))
        const failure = yield* Fiber.join(doomed).pipe(Effect.flip)
        expect(failure).toEqual(new AnalyzeError({ message: "image worker crashed: exit code 7" }))
        expect(yield* Fiber.join(queued)).toHaveLength(1792)
        const stats = yield* analyzer.stats
        expect(stats.workerRestarts).toBe(1)
        expect(stats.readyWorkers).toBe(1)
      })
    )
  )

  it.live("serves a visual-search query ahead of queued catalog images", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const analyzer = yield* makeImageAnalyzer({ threads: 1 })
        const photo = yield* Effect.promise(() => syntheticPhoto("landscape"))
        // Eight full analyses (about 0.2 s each) on one thread.
        const catalogDone = yield* Deferred.make<void>()
        const catalog = yield* Effect.fork(
          Effect.forEach(
            Array.from({ length: 8 }, () => photo),
            (image) => analyzer.analyze(image),
            { concurrency: "unbounded" }
          ).pipe(Effect.zipRight(Deferred.succeed(catalogDone, undefined)))
        )
        yield* Effect.sleep("200 millis") // all are queued and the first is running
        yield* analyzer.embed(photo)
        expect(yield* Deferred.isDone(catalogDone)).toBe(false)
        yield* Fiber.join(catalog)
      })
    )
  )

  it.live("runs background detections only after the catalog images queued behind them", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const analyzer = yield* makeImageAnalyzer({ threads: 1 })
        const photo = yield* Effect.promise(() => syntheticPhoto("landscape"))
        const finished: Array<"detect" | "analyze"> = []
        const four = [1, 2, 3, 4]
        const background = yield* Effect.fork(
          Effect.forEach(
            four,
            () => analyzer.detect(photo, { priority: "background" }).pipe(Effect.tap(() => finished.push("detect"))),
            { concurrency: "unbounded" }
          )
        )
        yield* Effect.sleep("100 millis") // the first detection is on the thread, the others wait
        const catalog = yield* Effect.fork(
          Effect.forEach(
            four,
            () => analyzer.analyze(photo, { detect: false }).pipe(Effect.tap(() => finished.push("analyze"))),
            { concurrency: "unbounded" }
          )
        )
        yield* Fiber.join(catalog)
        yield* Fiber.join(background)
        // First come, first served, the waiting detections would take turns with the analyses;
        // by priority only the one on the thread (or one dispatched as it ended) comes first.
        const beforeLastAnalysis = finished
          .slice(0, finished.lastIndexOf("analyze"))
          .filter((kind) => kind === "detect")
        expect(beforeLastAnalysis.length).toBeLessThanOrEqual(2)
        expect(finished.filter((kind) => kind === "detect")).toHaveLength(4)
      })
    )
  )
})
