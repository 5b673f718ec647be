import { describe, expect, it } from "@effect/vitest"
import { Queue } from "bullmq"
import { Context, Effect, Exit, Fiber, Layer, Schedule } from "effect"
import { Redis } from "ioredis"
import { spawn } from "node:child_process"
import { vi } from "vitest"
import { BullMqJobQueue } from "../../../src/services/job-queue/BullMqJobQueue.js"
import { laneQueueName } from "../../../src/services/job-queue/BullMqSettings.js"
import { type Job, LANES } from "../../../src/model/Jobs.js"
import { JobQueue } from "../../../src/services/job-queue/JobQueue.js"
import { BullMqWorker, type BullMqWorkerOptions } from "../../../src/services/job-queue/BullMqWorker.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { scopedRedis } from "../../support/RedisServer.js"
import { eventually } from "../../support/Eventually.js"
import { quiet } from "../../support/Quiet.js"
import { index, jobQueueConformance, RecordingHandler, until } from "./conformance.js"

const redis = redisForThisFile()

const freshName = () => `test-${crypto.randomUUID()}`
const producer = (queueName: string) => BullMqJobQueue.layer(redis.url, { queueName, backoffDelayMs: 20 })
// Short locks and stall checks so a dead worker's job is taken over within about two seconds.
const worker = (queueName: string, options: BullMqWorkerOptions = {}) =>
  BullMqWorker.layer(redis.url, {
    queueName,
    concurrency: 4,
    lockDurationMs: 1_000,
    stalledIntervalMs: 500,
    ...options
  }).pipe(Layer.provide(quiet))

/** A plain BullMQ queue on the same name, to look at or add jobs behind the service's back. */
const rawQueue = (queueName: string) =>
  Effect.acquireRelease(
    Effect.sync(() => new Queue(queueName, { connection: { url: redis.url } })),
    (queue) => Effect.promise(() => queue.close())
  )
/** Provided beneath a test's layers, so the queue's keys go only after its workers have closed. */
const removedAfter = (queueName: string) =>
  Layer.scopedDiscard(
    Effect.addFinalizer(() =>
      Effect.forEach(LANES, (lane) =>
        Effect.flatMap(rawQueue(laneQueueName(queueName, lane)), (queue) =>
          Effect.promise(() => queue.obliterate({ force: true }))
        ).pipe(Effect.scoped)
      )
    )
  )
const bothSides = (queueName: string, options?: BullMqWorkerOptions) =>
  Layer.merge(producer(queueName), worker(queueName, options)).pipe(Layer.provide(removedAfter(queueName)))

jobQueueConformance("bullmq", () => bothSides(freshName()), { attempts: 5 })

describe("BullMQ job queue", () => {
  it.live("a malformed payload fails at once as unrecoverable, without reaching the handler", () => {
    const name = freshName()
    const handler = new RecordingHandler()
    return Effect.gen(function* () {
      const raw = yield* rawQueue(name)
      const added = yield* Effect.promise(() =>
        raw.add("IndexProduct", { _tag: "IndexProduct", siteId: "one", productId: 7 }, { attempts: 5 })
      )
      yield* Effect.flatMap(JobQueue, (q) => q.drained)
      const job = (yield* Effect.promise(() => raw.getJob(added.id!)))!
      expect(yield* Effect.promise(() => job.getState())).toBe("failed")
      expect(job.attemptsMade).toBe(1)
      expect(job.failedReason).toMatch(/^malformed IndexProduct payload/)
      expect(handler.calls).toEqual([])
    }).pipe(Effect.scoped, Effect.provide(bothSides(name).pipe(Layer.provide(handler.layer))))
  })

  it.live("a batch with one failing product fails only that product's job", () => {
    const name = freshName()
    const handler = new RecordingHandler()
    handler.fail("1:bad", Number.POSITIVE_INFINITY)
    return Effect.gen(function* () {
      const queue = yield* JobQueue
      yield* queue.enqueue(["bad", "b", "c", "d"].map((p) => index(p)))
      yield* queue.drained
      // Jobs fetched together shared a handler call ...
      expect(handler.calls.some((keys) => keys.length > 1)).toBe(true)
      // ... and the neighbours of the failing product succeeded on their first attempt.
      expect(Object.fromEntries(handler.done)).toEqual({ "1:b": 1, "1:c": 1, "1:d": 1 })
      const raw = yield* rawQueue(name)
      const failed = yield* Effect.promise(() => raw.getFailed())
      expect(failed.map((j) => [j.data.productId, j.attemptsMade])).toEqual([["bad", 5]])
      const completed = yield* Effect.promise(() => raw.getCompleted())
      expect(completed.map((j) => j.attemptsMade)).toEqual([1, 1, 1])
    }).pipe(Effect.scoped, Effect.provide(bothSides(name, { batchLingerMs: 50 }).pipe(Layer.provide(handler.layer))))
  })

  it.live("a catalog-sized enqueue (sent in slices) is handled exactly once per product", () => {
    const name = freshName()
    const handler = new RecordingHandler()
    return Effect.gen(function* () {
      const queue = yield* JobQueue
      yield* queue.enqueue(Array.from({ length: 2_100 }, (_, i) => index(`p${i}`)))
      yield* queue.drained
      expect(handler.done.size).toBe(2_100)
      expect([...handler.done.values()].every((n) => n === 1)).toBe(true)
    }).pipe(Effect.provide(bothSides(name, { concurrency: 16 }).pipe(Layer.provide(handler.layer))))
  })

  it.live("enqueues made together (concurrent PUTs) share one addBulk; each caller learns its own outcome", () => {
    const name = freshName()
    return Effect.gen(function* () {
      const queue = yield* JobQueue
      const addBulk = vi.spyOn(Queue.prototype, "addBulk")
      const one = (productId: string) => queue.enqueue([index(productId)])
      yield* Effect.forEach(["a", "b", "c", "d"], one, { concurrency: "unbounded", discard: true })
      expect(addBulk).toHaveBeenCalledTimes(1)
      expect(addBulk.mock.calls[0][0].map((job) => job.data.productId)).toEqual(["a", "b", "c", "d"])

      // A job that cannot be added (here: it does not encode) fails its own caller only; the
      // batch is retried job by job, so its neighbours land.
      addBulk.mockClear()
      const malformed = { _tag: "IndexProduct", siteId: 1.5, productId: "bad" } as unknown as Job
      const exits = yield* Effect.forEach(
        [one("e"), queue.enqueue([malformed]), one("f")],
        (enqueue) => Effect.exit(enqueue),
        { concurrency: "unbounded" }
      )
      addBulk.mockRestore()
      expect(exits.map(Exit.isSuccess)).toEqual([true, false, true])
      expect(exits[1]).toMatchObject({ cause: { error: { _tag: "QueueError" } } })
      const raw = yield* rawQueue(name)
      const waiting = yield* Effect.promise(() => raw.getWaiting())
      expect(waiting.map((j) => j.data.productId).sort()).toEqual(["a", "b", "c", "d", "e", "f"])
    }).pipe(Effect.scoped, Effect.provide(producer(name).pipe(Layer.provide(removedAfter(name)))))
  })

  it.live("an enqueue accepted just before the queue closes is still sent", () => {
    const name = freshName()
    return Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const queue = yield* JobQueue
        // Not awaited: the layer closes while the job waits for its batch to go out. The yield
        // lets the enqueue reach the batcher first (accepted), as a request's would.
        yield* Effect.forkDaemon(queue.enqueue([index("late")]))
        yield* Effect.yieldNow()
      }).pipe(Effect.provide(producer(name)))
      const raw = yield* rawQueue(name)
      const waiting = yield* Effect.promise(() => raw.getWaiting())
      expect(waiting.map((j) => j.data.productId)).toEqual(["late"])
    }).pipe(Effect.scoped, Effect.provide(removedAfter(name)))
  })

  it.live("two workers share the load, each job handled by one of them", () => {
    const name = freshName()
    const [first, second] = [new RecordingHandler(), new RecordingHandler()]
    first.delayMs = second.delayMs = 50
    const layer = Layer.mergeAll(
      producer(name),
      worker(name, { concurrency: 2 }).pipe(Layer.provide(first.layer)),
      worker(name, { concurrency: 2 }).pipe(Layer.provide(second.layer))
    ).pipe(Layer.provide(removedAfter(name)))
    return Effect.gen(function* () {
      const queue = yield* JobQueue
      yield* queue.enqueue(Array.from({ length: 20 }, (_, i) => index(`p${i}`)))
      yield* queue.drained
      expect(first.done.size).toBeGreaterThan(0)
      expect(second.done.size).toBeGreaterThan(0)
      const all = [...first.done.keys(), ...second.done.keys()]
      expect(new Set(all).size).toBe(20)
      expect(all).toHaveLength(20)
    }).pipe(Effect.provide(layer))
  })

  it.live("each kind of job has its own queue, and a worker serves only the lanes it is given", () => {
    const name = freshName()
    const [textOnly, imagesOnly] = [new RecordingHandler(), new RecordingHandler()]
    const layer = Layer.mergeAll(
      producer(name),
      worker(name, { lanes: ["index"] }).pipe(Layer.provide(textOnly.layer)),
      worker(name, { lanes: ["images"] }).pipe(Layer.provide(imagesOnly.layer))
    ).pipe(Layer.provide(removedAfter(name)))
    return Effect.gen(function* () {
      const queue = yield* JobQueue
      yield* queue.enqueue([index("a"), { _tag: "AnalyzeImages", siteId: 1, productId: "b" }, index("c")])
      yield* until(() => textOnly.done.size === 2 && imagesOnly.done.size === 1)
      expect([...textOnly.done.keys()].sort()).toEqual(["1:a", "1:c"])
      expect([...imagesOnly.done.keys()]).toEqual(["1:b"])
      // Nobody serves predictions here: the job waits in its own queue, holding up nothing else.
      yield* queue.enqueue([{ _tag: "PredictAttributes", siteId: 1, productId: "a" }])
      const predict = yield* rawQueue(laneQueueName(name, "predict"))
      expect(yield* Effect.promise(() => predict.getWaitingCount())).toBe(1)
      // Nor detections: they have a queue of their own, not the image analyses' one.
      yield* queue.enqueue([{ _tag: "DetectObjects", siteId: 1, productId: "b" }])
      const detect = yield* rawQueue(laneQueueName(name, "detect"))
      expect(yield* Effect.promise(() => detect.getWaitingCount())).toBe(1)
      yield* queue.enqueue([index("d"), { _tag: "AnalyzeImages", siteId: 1, productId: "e" }])
      yield* until(() => textOnly.done.has("1:d") && imagesOnly.done.has("1:e"))
      expect(imagesOnly.done.has("1:b")).toBe(true)
      expect(imagesOnly.calls.flat()).toEqual(["1:b", "1:e"])
      expect(yield* queue.pending).toBe(2)
    }).pipe(Effect.scoped, Effect.provide(layer))
  })

  it.live("closing a worker waits for its active job to finish", () => {
    const name = freshName()
    const handler = new RecordingHandler()
    handler.delayMs = 300
    return Effect.gen(function* () {
      const queue = yield* JobQueue
      yield* Effect.gen(function* () {
        yield* Layer.build(worker(name).pipe(Layer.provide(handler.layer)))
        yield* queue.enqueue([index("a")])
        yield* until(() => handler.callsWith("1:a") === 1)
      }).pipe(Effect.scoped)
      expect(handler.done.get("1:a")).toBe(1)
      expect(yield* queue.pending).toBe(0)
    }).pipe(Effect.provide(producer(name).pipe(Layer.provide(removedAfter(name)))))
  })

  it.live("a job whose worker process is SIGKILLed mid-job is taken over by another worker", () => {
    const name = freshName()
    const handler = new RecordingHandler()
    return Effect.gen(function* () {
      const queue = yield* JobQueue
      const child = yield* Effect.acquireRelease(
        Effect.sync(() =>
          spawn(process.execPath, ["--import", "tsx", "test/services/job-queue/hanging-worker.ts", redis.url, name], {
            stdio: ["ignore", "pipe", "inherit"]
          })
        ),
        (child) => Effect.sync(() => child.kill("SIGKILL"))
      )
      let output = ""
      child.stdout!.on("data", (d) => (output += d))
      yield* queue.enqueue([index("a")])
      yield* until(() => output.includes("started 1:a"), 30_000)
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGKILL")
      yield* Effect.promise(() => exited)
      expect(yield* queue.pending).toBe(1)

      yield* Layer.build(worker(name).pipe(Layer.provide(handler.layer)))
      yield* queue.drained
      expect(handler.done.get("1:a")).toBe(1)
      const raw = yield* rawQueue(name)
      const [job] = yield* Effect.promise(() => raw.getCompleted())
      expect(job.stalledCounter).toBe(1)
    }).pipe(Effect.scoped, Effect.provide(producer(name).pipe(Layer.provide(removedAfter(name)))))
  })

  it.live(
    "an enqueue in flight when Redis goes down fails within seconds instead of waiting for Redis to return",
    () =>
      Effect.gen(function* () {
        const server = yield* scopedRedis()
        const name = freshName()
        // Built in the test's scope: the queue stays open until the test ends.
        const queue = Context.get(yield* Layer.build(BullMqJobQueue.layer(server.url, { queueName: name })), JobQueue)
        // Writes held by the server: the enqueue is sent and waits for its reply when the server dies.
        const admin = yield* Effect.acquireRelease(
          Effect.sync(() => new Redis(server.url)),
          (c) => Effect.sync(() => c.disconnect())
        )
        admin.on("error", () => {})
        yield* Effect.promise(() => admin.call("CLIENT", "PAUSE", "60000", "WRITE"))
        const inFlight = yield* Effect.fork(Effect.exit(queue.enqueue([index("a")])))
        yield* Effect.promise(() =>
          eventually(async () => expect(await admin.info("clients")).toMatch(/blocked_clients:[1-9]/), 10_000)
        )
        yield* Effect.promise(server.stop)
        const started = Date.now()
        const exit = yield* Fiber.join(inFlight)
        expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("QueueError")
        // Without a retry limit ioredis would resend it on reconnection, however long that takes.
        expect(Date.now() - started).toBeLessThan(15_000)
      }).pipe(Effect.scoped),
    30_000
  )

  // Last: it stops the shared redis-server for a moment.
  it.live("enqueue fails fast while Redis is down, and works again once it is back", () => {
    const name = freshName()
    return Effect.gen(function* () {
      const queue = yield* JobQueue
      yield* Effect.promise(() => redis.server.stop())
      const started = Date.now()
      const exit = yield* Effect.exit(queue.enqueue([index("a")]))
      expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("QueueError")
      expect(Date.now() - started).toBeLessThan(1_000)
      yield* Effect.promise(redis.restart)
      // The producer reconnects by itself.
      yield* Effect.retry(queue.enqueue([index("a")]), Schedule.intersect(Schedule.spaced(100), Schedule.recurs(50)))
      expect(yield* queue.pending).toBe(1)
    }).pipe(Effect.provide(producer(name).pipe(Layer.provide(removedAfter(name)))))
  })
})
