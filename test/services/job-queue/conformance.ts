import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import { isProductJob, type Job, type ProductJob } from "../../../src/model/Jobs.js"
import { JobHandler, JobQueue } from "../../../src/services/job-queue/JobQueue.js"
import { readUntil } from "../../support/Eventually.js"
import { quiet } from "../../support/Quiet.js"

const keyOf = (job: Job) => (isProductJob(job) ? `${job.siteId}:${job.productId}` : `${job.siteId}`)
export const index = (productId: string, siteId = 1): Job => ({ _tag: "IndexProduct", siteId, productId })
const job = (_tag: ProductJob["_tag"], productId: string): Job => ({ _tag, siteId: 1, productId })
const kindKey = (job: Job) => `${job._tag} ${keyOf(job)}`
/** The kinds with a lane of their own (RemoveProduct shares IndexProduct's). */
const KINDS = ["IndexProduct", "AnalyzeImages", "DetectObjects", "PredictAttributes"] as const

/**
 * A JobHandler that records what it was asked to do. It can hold calls at a gate, fail a
 * product a given number of times (failing the whole call, as a real batch would) and tracks
 * whether two calls ever worked on one product at once.
 */
export class RecordingHandler {
  /** Product keys of every handler call, in call order. */
  readonly calls: Array<ReadonlyArray<string>> = []
  /** When each call began (performance.now()). */
  readonly starts: Array<{ readonly keys: ReadonlyArray<string>; readonly at: number }> = []
  /** Successful handlings per product key. */
  readonly done = new Map<string, number>()
  readonly failures = new Map<string, number>()
  /** Handlings per `kind site:product` that began (`started`, before any hold) and succeeded (`handled`). */
  readonly started = new Map<string, number>()
  readonly handled = new Map<string, number>()
  maxOverlap = 0
  delayMs = 0
  private readonly running = new Map<string, number>()
  private gate: Promise<void> | undefined
  private openGate = () => {}
  private readonly holds = new Map<Job["_tag"], Deferred.Deferred<void>>()

  readonly layer = Layer.succeed(JobHandler, {
    handle: (jobs) =>
      Effect.gen(this, function* () {
        count(this.started, jobs.map(kindKey))
        for (const tag of new Set(jobs.map((j) => j._tag))) {
          const held = this.holds.get(tag)
          if (held !== undefined) yield* Deferred.await(held)
        }
        yield* Effect.flatten(Effect.promise(() => this.handle(jobs.map(keyOf))))
        count(this.handled, jobs.map(kindKey))
      })
  })

  /** Calls with a job of this kind wait until `release` (calls already past the hold go on). */
  hold(tag: Job["_tag"]) {
    return Effect.map(Deferred.make<void>(), (d) => void this.holds.set(tag, d))
  }
  release(tag: Job["_tag"]) {
    const held = this.holds.get(tag)
    this.holds.delete(tag)
    return held === undefined ? Effect.void : Deferred.succeed(held, undefined)
  }
  /** After a test, pass or fail: a held job would keep its worker from closing. */
  get releaseAll() {
    return Effect.forEach([...this.holds.keys()], (tag) => this.release(tag), { discard: true })
  }

  close() {
    this.gate = new Promise((resolve) => (this.openGate = resolve))
  }
  open() {
    this.openGate()
  }
  fail(productKey: string, times: number) {
    this.failures.set(productKey, times)
  }
  callsWith(productKey: string) {
    return this.calls.filter((keys) => keys.includes(productKey)).length
  }

  private async handle(keys: ReadonlyArray<string>) {
    this.calls.push(keys)
    this.starts.push({ keys, at: performance.now() })
    for (const k of keys) {
      const n = (this.running.get(k) ?? 0) + 1
      this.running.set(k, n)
      this.maxOverlap = Math.max(this.maxOverlap, n)
    }
    try {
      if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs))
      await this.gate
      const failing = keys.find((k) => (this.failures.get(k) ?? 0) > 0)
      if (failing !== undefined) {
        this.failures.set(failing, this.failures.get(failing)! - 1)
        return Effect.fail(new Error(`handler failed for ${failing}`))
      }
      for (const k of keys) this.done.set(k, (this.done.get(k) ?? 0) + 1)
      return Effect.void
    } finally {
      for (const k of keys) this.running.set(k, this.running.get(k)! - 1)
    }
  }
}

const count = (counts: Map<string, number>, keys: ReadonlyArray<string>) => {
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1)
}

/** Waits until `condition` holds (the live clock: a queue backend works in real time). */
export const until = (condition: () => boolean, timeoutMs?: number) =>
  Effect.map(
    readUntil(Effect.sync(condition), (ok) => ok, timeoutMs),
    (ok) => expect(ok).toBe(true)
  )

export interface QueueSemantics {
  /** Handler calls a job gets while its handler keeps failing: BullMQ retries, in-process leaves it to reconcile. */
  readonly attempts: number
}

/**
 * The behaviour every JobQueue layer must show, through the interface only. `makeLayer`
 * builds a fresh queue (and whatever consumes it) around the test's recording handler.
 */
export const jobQueueConformance = (
  name: string,
  makeLayer: () => Layer.Layer<JobQueue, unknown, JobHandler>,
  semantics: QueueSemantics
) =>
  describe(`JobQueue conformance: ${name}`, () => {
    const test = (title: string, body: (h: RecordingHandler) => Effect.Effect<void, unknown, JobQueue>) =>
      it.live(title, () => {
        const handler = new RecordingHandler()
        return Effect.provide(
          body(handler).pipe(Effect.ensuring(handler.releaseAll)),
          makeLayer().pipe(Layer.provide(Layer.merge(handler.layer, quiet)))
        )
      })

    test("every enqueued job is handled exactly once", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        yield* queue.enqueue(["a", "b", "c", "d"].map((p) => index(p)))
        yield* queue.enqueue([index("a", 2), { _tag: "RemoveProduct", siteId: 1, productId: "e" }])
        yield* queue.enqueue([])
        yield* queue.drained
        expect(Object.fromEntries(h.done)).toEqual({ "1:a": 1, "1:b": 1, "1:c": 1, "1:d": 1, "2:a": 1, "1:e": 1 })
        expect(h.calls.flat()).toHaveLength(6)
        expect(yield* queue.pending).toBe(0)
      }))

    test("pending counts jobs until they finish, and drained waits for them", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        h.delayMs = 200
        yield* queue.enqueue([index("a"), index("b"), index("c")])
        expect(yield* queue.pending).toBe(3)
        yield* queue.drained
        expect(h.done.size).toBe(3)
        expect(yield* queue.pending).toBe(0)
      }))

    test("queued tells which jobs are waiting or running, until they are finished", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        h.close()
        const whileHeld = Effect.gen(function* () {
          yield* queue.enqueue([index("a")])
          yield* until(() => h.callsWith("1:a") === 1)
          yield* queue.enqueue([index("b")])
          // a is being handled, b waits or is handled too; c was never enqueued; image work on a is another kind.
          expect(
            yield* queue.queued([
              index("a"),
              index("b"),
              index("c"),
              { _tag: "AnalyzeImages", siteId: 1, productId: "a" }
            ])
          ).toEqual([true, true, false, false])
        })
        // Opened whatever happens: a held handler would keep the queue from closing.
        yield* whileHeld.pipe(Effect.ensuring(Effect.sync(() => h.open())))
        yield* queue.drained
        yield* until(() => h.done.get("1:b") === 1)
        expect(yield* queue.queued([index("a"), index("b")])).toEqual([false, false])
      }))

    test("updates while a product is handled coalesce into exactly one follow-up, never run alongside it", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        h.close()
        yield* queue.enqueue([index("a")])
        yield* until(() => h.callsWith("1:a") === 1)
        // Like five PUTs arriving while the first version is being indexed.
        for (let i = 0; i < 5; i++) yield* queue.enqueue([index("a")])
        yield* queue.enqueue([index("b")])
        h.open()
        yield* queue.drained
        expect(h.done.get("1:a")).toBe(2)
        expect(h.done.get("1:b")).toBe(1)
        expect(h.maxOverlap).toBe(1)
      }))

    test("a burst of updates to an idle product coalesces, and a handling starts after the last one", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        h.delayMs = 50
        for (let i = 0; i < 10; i++) yield* queue.enqueue([index("a")])
        const lastEnqueuedAt = performance.now()
        yield* queue.drained
        // The latest update is always indexed: some handling began after it was enqueued.
        expect(h.starts.filter((s) => s.keys.includes("1:a")).some((s) => s.at >= lastEnqueuedAt)).toBe(true)
        // The burst takes a few ms, far less than one 50 ms handling, so it needs one run and
        // at most one follow-up; 3 leaves slack for a slow machine, 10 would mean no coalescing.
        expect(h.done.get("1:a")).toBeLessThanOrEqual(3)
      }))

    test(`a failed handling is ${semantics.attempts > 1 ? "retried" : "not retried (reconcile heals it)"}`, (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        h.fail("1:a", 1)
        yield* queue.enqueue([index("a")])
        yield* queue.drained
        expect(h.callsWith("1:a")).toBe(semantics.attempts > 1 ? 2 : 1)
        expect(h.done.get("1:a") ?? 0).toBe(semantics.attempts > 1 ? 1 : 0)
      }))

    test(`a job whose handler keeps failing is tried ${semantics.attempts} time(s), then given up`, (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        h.fail("1:a", Number.POSITIVE_INFINITY)
        yield* queue.enqueue([index("a")])
        yield* queue.drained
        expect(h.callsWith("1:a")).toBe(semantics.attempts)
        expect(yield* queue.pending).toBe(0)
        // The queue still works for everything else.
        yield* queue.enqueue([index("b")])
        yield* queue.drained
        expect(h.done.get("1:b")).toBe(1)
      }))

    test("an AnalyzeImages queued behind a waiting DetectObjects of the same product is handled too", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        // One call: the DetectObjects is still waiting when the AnalyzeImages arrives (an
        // indexing's follow-ups for a product with a new photo and an undetected old one).
        yield* queue.enqueue([job("DetectObjects", "p"), job("AnalyzeImages", "p")])
        yield* queue.drained
        expect(Object.fromEntries(h.handled)).toEqual({ "DetectObjects 1:p": 1, "AnalyzeImages 1:p": 1 })
      }))

    test("distinct kinds of one product never swallow each other, in any order", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        yield* queue.enqueue(KINDS.map((kind) => job(kind, "p")))
        yield* queue.enqueue([...KINDS].reverse().map((kind) => job(kind, "q")))
        yield* queue.drained
        expect(Object.fromEntries(h.handled)).toEqual(
          Object.fromEntries(["p", "q"].flatMap((p) => KINDS.map((kind) => [`${kind} 1:${p}`, 1])))
        )
      }))

    test("each kind has a lane of its own: a held job holds up no other kind of its product", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        for (const held of KINDS) {
          const product = `held-${held}`
          yield* h.hold(held)
          yield* queue.enqueue([job(held, product)])
          yield* until(() => h.started.has(`${held} 1:${product}`))
          const others = KINDS.filter((kind) => kind !== held)
          yield* queue.enqueue(others.map((kind) => job(kind, product)))
          yield* until(() => others.every((kind) => h.handled.has(`${kind} 1:${product}`)))
          expect(h.handled.has(`${held} 1:${product}`)).toBe(false)
          yield* h.release(held)
        }
        yield* queue.drained
        expect([...h.handled.values()].every((n) => n === 1)).toBe(true)
        expect(h.handled.size).toBe(KINDS.length * KINDS.length)
      }))

    test("jobs of one kind and product still coalesce; IndexProduct and RemoveProduct are one kind", (h) =>
      Effect.gen(function* () {
        const queue = yield* JobQueue
        yield* queue.enqueue([
          ...KINDS.flatMap((kind) => [job(kind, "p"), job(kind, "p"), job(kind, "p")]),
          job("RemoveProduct", "p")
        ])
        yield* queue.drained
        const handled = Object.fromEntries(h.handled)
        // Index and remove both reconcile the product with its record: one of them runs.
        expect((handled["IndexProduct 1:p"] ?? 0) + (handled["RemoveProduct 1:p"] ?? 0)).toBe(1)
        for (const kind of ["AnalyzeImages", "DetectObjects", "PredictAttributes"])
          expect(handled[`${kind} 1:p`]).toBe(1)
      }))
  })
