import { Config, Effect, ExecutionStrategy, Exit, Layer, Scope } from "effect"
import type { Worker } from "node:worker_threads"
import { dominantColors } from "./DominantColors.js"
import {
  AnalyzeError,
  type AnalyzeOptions,
  type ImageAnalysis,
  ImageAnalyzer,
  type ImageAnalyzerService,
  type ImageAnalyzerStats,
  type Priority,
  type RgbImage
} from "./ImageAnalyzer.js"
import {
  lastLoadTimes,
  makeImageModelThreads,
  type ModelReply,
  type ModelRequest,
  spawnImageWorker
} from "./ImageModelThreads.js"
import { prepare, validationError } from "./Prepare.js"

export interface ImageAnalyzerOptions {
  readonly threads: number
  /** Starts one model thread; tests substitute threads that crash or fail to load. */
  readonly spawnWorker?: () => Worker
}

const failure = (cause: unknown) =>
  new AnalyzeError({ message: cause instanceof Error ? cause.message : String(cause) })

/** Scoped: waits until every thread has loaded both models; closing the scope ends them. */
export const makeImageAnalyzer = (options: ImageAnalyzerOptions) =>
  Effect.gen(function* () {
    // At least one thread: with none, every request would wait forever.
    const threads = Math.max(1, options.threads)
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => makeImageModelThreads(threads, options.spawnWorker ?? spawnImageWorker)),
      (pool) => Effect.promise(() => pool.close())
    )
    yield* Effect.tryPromise({ try: () => pool.ready, catch: failure })

    const run = (request: ModelRequest, priority: Priority) =>
      Effect.async<ModelReply, AnalyzeError>((resume) => {
        const job = pool.submit(request, priority, (result) =>
          resume(
            result._tag === "Success"
              ? Effect.succeed(result.reply)
              : Effect.fail(new AnalyzeError({ message: result.message }))
          )
        )
        // An interrupted caller (a client gone, a failed sibling) frees its queue place.
        return Effect.sync(() => pool.cancel(job))
      })

    // Catalog images enter in small numbers: enough to keep every thread fed, while a
    // catalog push of thousands cannot queue its resizes ahead of a query's on libuv's
    // threads, nor hold thousands of prepared images in memory. Background work has slots
    // of its own, so it never takes a catalog image's place. Queries are never held.
    const slots = {
      batch: yield* Effect.makeSemaphore(2 * threads),
      background: yield* Effect.makeSemaphore(2 * threads)
    }
    const admitted = <A>(priority: Priority, effect: Effect.Effect<A, AnalyzeError>) =>
      priority === "query" ? effect : slots[priority].withPermits(1)(effect)

    const prepared = (image: RgbImage, what: { features: boolean; detection: boolean }) => {
      const invalid = validationError(image)
      return invalid === undefined
        ? Effect.tryPromise({ try: () => prepare(image, what), catch: failure })
        : Effect.fail(new AnalyzeError({ message: invalid }))
    }

    const analyze = (image: RgbImage, options?: AnalyzeOptions) => {
      const priority = options?.priority ?? "batch"
      return admitted(
        priority,
        Effect.gen(function* () {
          const detect = options?.detect ?? true
          const { features, swatch, detection } = yield* prepared(image, { features: true, detection: detect })
          // Two calls, not one: a query then waits behind at most one model run rather than
          // both, and two threads can share one image.
          const [classified, detected] = yield* Effect.all(
            [
              run({ features }, priority),
              detection ? run({ detection }, priority) : Effect.succeed<ModelReply>({ objects: [] })
            ],
            { concurrency: "unbounded" }
          )
          return {
            embedding: classified.embedding!,
            adult: classified.adult!,
            colors: dominantColors(swatch!),
            objects: detected.objects!
          } satisfies ImageAnalysis
        })
      )
    }

    const embed = (image: RgbImage, options?: Pick<AnalyzeOptions, "priority">) => {
      const priority = options?.priority ?? "query"
      return admitted(
        priority,
        prepared(image, { features: true, detection: false }).pipe(
          Effect.flatMap(({ features }) => run({ features }, priority)),
          Effect.map((reply) => reply.embedding!)
        )
      )
    }

    const detect = (image: RgbImage, options?: Pick<AnalyzeOptions, "priority">) => {
      const priority = options?.priority ?? "query"
      return admitted(
        priority,
        prepared(image, { features: false, detection: true }).pipe(
          Effect.flatMap(({ detection }) => run({ detection }, priority)),
          Effect.map((reply) => reply.objects!)
        )
      )
    }

    const stats = Effect.sync(
      (): ImageAnalyzerStats => ({
        readyWorkers: pool.readyWorkers,
        workerRestarts: pool.restarts,
        modelLoadMs: lastLoadTimes(pool)
      })
    )

    return ImageAnalyzer.of({ dimensions: 1792, analyze, embed, detect, stats })
  })

/**
 * Starts the model threads on first use rather than at startup: a process that never sees an
 * image (a text-only catalog, a worker serving only the `index` queue) never pays their memory,
 * and the first image waits for them to load. A start that fails is not remembered: the next
 * image tries again.
 */
export const makeLazyImageAnalyzer = (options: ImageAnalyzerOptions) =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const starting = yield* Effect.makeSemaphore(1)
    let started: ImageAnalyzerService | undefined
    const start = Effect.gen(function* () {
      const own = yield* Scope.fork(scope, ExecutionStrategy.sequential)
      const analyzer = yield* Scope.extend(makeImageAnalyzer(options), own).pipe(
        Effect.tapErrorCause((cause) => Scope.close(own, Exit.failCause(cause)))
      )
      yield* Effect.logInfo("image models loaded", { threads: options.threads })
      started = analyzer
      return analyzer
    })
    const analyzer = Effect.suspend(() =>
      started !== undefined
        ? Effect.succeed(started)
        : starting.withPermits(1)(Effect.suspend(() => (started !== undefined ? Effect.succeed(started) : start)))
    )
    return ImageAnalyzer.of({
      dimensions: 1792,
      analyze: (image, options) => Effect.flatMap(analyzer, (a) => a.analyze(image, options)),
      embed: (image, options) => Effect.flatMap(analyzer, (a) => a.embed(image, options)),
      detect: (image, options) => Effect.flatMap(analyzer, (a) => a.detect(image, options)),
      stats: Effect.suspend(
        () => started?.stats ?? Effect.succeed({ readyWorkers: 0, workerRestarts: 0, modelLoadMs: undefined })
      )
    })
  })

/** IMAGE_THREADS model threads (default 1); IMAGE_MODELS=lazy (default) starts them at the first image. */
export const ImageModelSettings = Config.all({
  threads: Config.integer("IMAGE_THREADS").pipe(
    Config.validate({ message: "must be at least 1", validation: (n) => n >= 1 }),
    Config.withDefault(1)
  ),
  models: Config.literal("eager", "lazy")("IMAGE_MODELS").pipe(Config.withDefault("lazy"))
})

/** The image models on this process's own worker threads (ImageModelThreads). */
export const EmbeddedImageAnalyzer = {
  /**
   * IMAGE_THREADS threads (default 1), each with both models loaded and warmed up; started at
   * the first image unless IMAGE_MODELS=eager.
   */
  layer: Layer.scoped(
    ImageAnalyzer,
    Effect.gen(function* () {
      const { models, threads } = yield* ImageModelSettings
      return yield* models === "eager" ? makeImageAnalyzer({ threads }) : makeLazyImageAnalyzer({ threads })
    })
  )
}
