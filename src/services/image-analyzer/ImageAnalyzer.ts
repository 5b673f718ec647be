import { Config, Context, Effect, ExecutionStrategy, Exit, Layer, Scope } from "effect"
import { Worker } from "node:worker_threads"
import { type DominantColor, dominantColors } from "./DominantColors.js"
import { prepare, validationError } from "./Prepare.js"
import { type LoadTimes, type ModelReply, type ModelRequest, type Priority, WorkerPool } from "./WorkerPool.js"
import { BackendFailure } from "../../platform/BackendFailure.js"

/**
 * What the catalog and visual search learn from a picture: a feature vector (nsfwjs's
 * MobileNetV2Mid), an adult score (its own classifier), dominant colours, and COCO objects
 * (Human's CenterNet). The models run on worker threads (0.1-0.4 s an image), never on the
 * api's event loop.
 */

/** RGB bytes (3 per pixel, row-major) of any size; the analyser resizes for its models. */
export interface RgbImage {
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
}

export interface DetectedObject {
  readonly classId: number
  readonly class: string
  /** Detector confidence in [0, 1]. */
  readonly score: number
  /** Relative to the image: top-left (0,0), bottom-right (1,1). */
  readonly rectangle: { readonly left: number; readonly top: number; readonly width: number; readonly height: number }
}

export interface ImageAnalysis {
  /** 1792-d MobileNetV2 features (the node ending in feature_vector/SpatialSqueeze), unit length. */
  readonly embedding: Float32Array
  /** From the nsfw classifier: P(porn) + P(hentai) + 0.5·P(sexy), in [0, 1]. */
  readonly adult: number
  /** Largest share first, up to 3, share ≥ 0.1; a white studio background is left out. */
  readonly colors: ReadonlyArray<DominantColor>
  /** COCO-80 detections, score ≥ 0.3, up to 10; empty when detection was not asked for. */
  readonly objects: ReadonlyArray<DetectedObject>
}

export class AnalyzeError extends BackendFailure("AnalyzeError") {}

export interface AnalyzeOptions {
  /** Run object detection too (default true): it makes an image about 4× as costly. */
  readonly detect?: boolean
  /**
   * Queries (a shopper waits) go before catalog images ("batch"), and those before
   * "background" work (the catalog's object-detection pass); analyze defaults to "batch".
   */
  readonly priority?: Priority
}

export interface ImageAnalyzerStats {
  /** Threads that have loaded the models and take work. */
  readonly readyWorkers: number
  /** Threads replaced after a crash. */
  readonly workerRestarts: number
  /** How long the most recently started thread took to load and warm up its models. */
  readonly modelLoadMs: LoadTimes | undefined
}

export interface ImageAnalyzerService {
  readonly dimensions: number
  readonly analyze: (image: RgbImage, options?: AnalyzeOptions) => Effect.Effect<ImageAnalysis, AnalyzeError>
  /** Features only, for a visual-search query; defaults to "query" priority. */
  readonly embed: (image: RgbImage, options?: Pick<AnalyzeOptions, "priority">) => Effect.Effect<Float32Array, AnalyzeError>
  /** Objects only; defaults to "query" priority (the catalog's detection pass asks for "background"). */
  readonly detect: (image: RgbImage, options?: Pick<AnalyzeOptions, "priority">) => Effect.Effect<ReadonlyArray<DetectedObject>, AnalyzeError>
  readonly stats: Effect.Effect<ImageAnalyzerStats>
}

export interface ImageAnalyzerOptions {
  readonly threads: number
  /** Starts one model thread; tests substitute threads that crash or fail to load. */
  readonly spawnWorker?: () => Worker
}

const spawnImageWorker = () =>
  // execArgv: [] keeps the parent's tsx/vitest loader hooks out of a plain CommonJS thread.
  new Worker(new URL("./worker.cjs", import.meta.url), { execArgv: [] })

const failure = (cause: unknown) => new AnalyzeError({ message: cause instanceof Error ? cause.message : String(cause) })

/** Scoped: waits until every thread has loaded both models; closing the scope ends them. */
export const makeImageAnalyzer = (options: ImageAnalyzerOptions) =>
  Effect.gen(function*() {
    // At least one thread: with none, every request would wait forever.
    const threads = Math.max(1, options.threads)
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => new WorkerPool(threads, options.spawnWorker ?? spawnImageWorker)),
      (pool) => Effect.promise(() => pool.close())
    )
    yield* Effect.tryPromise({ try: () => pool.ready, catch: failure })

    const run = (request: ModelRequest, priority: Priority) =>
      Effect.async<ModelReply, AnalyzeError>((resume) => {
        const job = pool.submit(request, priority, (result) =>
          resume(result._tag === "Success" ? Effect.succeed(result.reply) : Effect.fail(new AnalyzeError({ message: result.message }))))
        // An interrupted caller (a client gone, a failed sibling) frees its queue place.
        return Effect.sync(() => pool.cancel(job))
      })

    // Catalog images enter in small numbers: enough to keep every thread fed, while a
    // catalog push of thousands cannot queue its resizes ahead of a query's on libuv's
    // threads, nor hold thousands of prepared images in memory. Background work has slots
    // of its own, so it never takes a catalog image's place. Queries are never held.
    const slots = { batch: yield* Effect.makeSemaphore(2 * threads), background: yield* Effect.makeSemaphore(2 * threads) }
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
      return admitted(priority, Effect.gen(function*() {
        const detect = options?.detect ?? true
        const { features, swatch, detection } = yield* prepared(image, { features: true, detection: detect })
        // Two calls, not one: a query then waits behind at most one model run (about 50 or
        // 150 ms) rather than both, and two threads can share one image.
        const [classified, detected] = yield* Effect.all(
          [run({ features }, priority), detection ? run({ detection }, priority) : Effect.succeed<ModelReply>({ objects: [] })],
          { concurrency: "unbounded" }
        )
        return {
          embedding: classified.embedding!,
          adult: classified.adult!,
          colors: dominantColors(swatch!),
          objects: detected.objects!
        } satisfies ImageAnalysis
      }))
    }

    const embed = (image: RgbImage, options?: Pick<AnalyzeOptions, "priority">) => {
      const priority = options?.priority ?? "query"
      return admitted(priority, prepared(image, { features: true, detection: false }).pipe(
        Effect.flatMap(({ features }) => run({ features }, priority)),
        Effect.map((reply) => reply.embedding!)
      ))
    }

    const detect = (image: RgbImage, options?: Pick<AnalyzeOptions, "priority">) => {
      const priority = options?.priority ?? "query"
      return admitted(priority, prepared(image, { features: false, detection: true }).pipe(
        Effect.flatMap(({ detection }) => run({ detection }, priority)),
        Effect.map((reply) => reply.objects!)
      ))
    }

    const stats = Effect.sync((): ImageAnalyzerStats => ({
      readyWorkers: pool.readyWorkers,
      workerRestarts: pool.restarts,
      modelLoadMs: pool.lastLoad
    }))

    return ImageAnalyzer.of({ dimensions: 1792, analyze, embed, detect, stats })
  })

/**
 * Starts the model threads on first use rather than at startup: a process that never sees an
 * image (a text-only catalog, a worker serving only the `index` queue) never pays their ~220 MB
 * per thread, and the first image waits about a second for them. A start that fails is not
 * remembered: the next image tries again.
 */
export const makeLazyImageAnalyzer = (options: ImageAnalyzerOptions) =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const starting = yield* Effect.makeSemaphore(1)
    let started: ImageAnalyzerService | undefined
    const start = Effect.gen(function*() {
      const own = yield* Scope.fork(scope, ExecutionStrategy.sequential)
      const analyzer = yield* Scope.extend(makeImageAnalyzer(options), own).pipe(
        Effect.tapErrorCause((cause) => Scope.close(own, Exit.failCause(cause)))
      )
      yield* Effect.logInfo("image models loaded", { threads: options.threads })
      started = analyzer
      return analyzer
    })
    const analyzer = Effect.suspend(() =>
      started !== undefined ? Effect.succeed(started) : starting.withPermits(1)(Effect.suspend(() => (started !== undefined ? Effect.succeed(started) : start)))
    )
    return ImageAnalyzer.of({
      dimensions: 1792,
      analyze: (image, options) => Effect.flatMap(analyzer, (a) => a.analyze(image, options)),
      embed: (image, options) => Effect.flatMap(analyzer, (a) => a.embed(image, options)),
      detect: (image, options) => Effect.flatMap(analyzer, (a) => a.detect(image, options)),
      stats: Effect.suspend(() => started?.stats ?? Effect.succeed({ readyWorkers: 0, workerRestarts: 0, modelLoadMs: undefined }))
    })
  })

export class ImageAnalyzer extends Context.Tag("ImageAnalyzer")<ImageAnalyzer, ImageAnalyzerService>() {
  /**
   * IMAGE_THREADS threads (default 1), each with both models, about 0.9 s to start (mostly
   * warm-up, see bench); started at the first image unless IMAGE_MODELS=eager.
   */
  static readonly layer = Layer.scoped(
    ImageAnalyzer,
    Effect.gen(function*() {
      const threads = yield* Config.integer("IMAGE_THREADS").pipe(Config.withDefault(1))
      const eager = yield* Config.literal("eager", "lazy")("IMAGE_MODELS").pipe(Config.withDefault("lazy"))
      return yield* (eager === "eager" ? makeImageAnalyzer({ threads }) : makeLazyImageAnalyzer({ threads }))
    })
  )
}
