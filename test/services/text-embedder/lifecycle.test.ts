import { describe, expect, it } from "@effect/vitest"
import { recordingSpawner, workerScript } from "../../support/ModelThreads.js"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { makeTextEmbedder } from "../../../src/services/text-embedder/EmbeddedTextEmbedder.js"
import { EmbedError } from "../../../src/services/text-embedder/TextEmbedder.js"
import { embeddingWorkerOptions } from "../../../src/services/text-embedder/EmbeddingThreads.js"

const spawner = (prelude = "") => recordingSpawner(workerScript("text-embedder"), () => prelude, embeddingWorkerOptions)

// The real worker behind a listener, registered first, that kills the thread on one text:
// a genuine mid-batch thread death, as an out-of-memory or a native fault would cause.
const crashOnText = `require("node:worker_threads").parentPort.on("message", (m) => {
  if (m.texts.includes("crash this thread")) process.exit(7)
})`

describe("TextEmbedder lifecycle", () => {
  it.live("is ready when acquired and terminates every thread on release", () =>
    Effect.gen(function* () {
      const { spawned, spawn } = spawner()
      yield* Effect.scoped(
        Effect.gen(function* () {
          const embedder = yield* makeTextEmbedder({ threads: 2, spawnWorker: spawn })
          expect((yield* embedder.stats).readyWorkers).toBe(2)
          expect(spawned.every((worker) => worker.threadId > 0)).toBe(true)
        })
      )
      expect(spawned).toHaveLength(2)
      // threadId becomes -1 once a thread has stopped; a live one would keep the process up.
      expect(spawned.map((worker) => worker.threadId)).toEqual([-1, -1])
    })
  )

  it.live("fails acquisition with EmbedError when a thread cannot load", () =>
    Effect.gen(function* () {
      const { spawned, spawn } = spawner(`throw new Error("no model here")`)
      const exit = yield* Effect.exit(Effect.scoped(makeTextEmbedder({ threads: 2, spawnWorker: spawn })))
      expect(exit).toStrictEqual(
        Exit.fail(new EmbedError({ message: "embedding worker failed to load: no model here" }))
      )
      expect(spawned.map((worker) => worker.threadId)).toEqual([-1, -1])
    })
  )

  it.live("fails the in-flight request of a crashed thread and serves the rest on a replacement", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { spawn } = spawner(crashOnText)
        const embedder = yield* makeTextEmbedder({ threads: 1, spawnWorker: spawn })
        const doomed = yield* Effect.fork(embedder.embed(["crash this thread"]))
        yield* Effect.sleep("20 millis") // the doomed call is in flight; the next one waits behind it
        const queued = yield* Effect.fork(embedder.embed(["cordless drill"]))
        const failure = yield* Fiber.join(doomed).pipe(Effect.flip)
        expect(failure).toBeInstanceOf(EmbedError)
        expect(failure.message).toBe("embedding worker crashed: exit code 7")
        const [vector] = yield* Fiber.join(queued)
        expect(vector).toHaveLength(384)
        const stats = yield* embedder.stats
        expect(stats.workerRestarts).toBe(1)
        expect(stats.readyWorkers).toBe(1)
      })
    )
  )

  it.live("serves a query ahead of a queued bulk document load", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const embedder = yield* makeTextEmbedder({ threads: 1 })
        // About 20 model calls of ~2,000 characters each: seconds of work on one thread.
        const catalog = Array.from(
          { length: 20 },
          (_, i) => `Product ${i}: ${"durable outdoor patio furniture ".repeat(70)}`
        )
        const documentsDone = yield* Deferred.make<void>()
        const bulk = yield* Effect.fork(
          embedder.embed(catalog).pipe(Effect.zipRight(Deferred.succeed(documentsDone, undefined)))
        )
        yield* Effect.sleep("100 millis") // the whole load is queued and its first call is running
        yield* embedder.embedQuery("patio chair")
        expect(yield* Deferred.isDone(documentsDone)).toBe(false)
        yield* Fiber.join(bulk)
      })
    )
  )

  it.live("knows the words of the language from the model's vocabulary, not misspellings", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const embedder = yield* makeTextEmbedder({ threads: 1 })
        expect(["couch", "coach", "beams", "sofa"].filter(embedder.isWord)).toEqual(["couch", "coach", "beams", "sofa"])
        expect(["sneekers", "cordles", "drlil", "##s", "a"].filter(embedder.isWord)).toEqual([])
      })
    )
  )
})
