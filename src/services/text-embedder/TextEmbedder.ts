import { Context, Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import { AppConfig } from "../../config/AppConfig.js"
import { planBatches } from "./Batching.js"
import { LruCache } from "../../platform/LruCache.js"
import { normaliseText } from "./Normalise.js"
import { type Priority, WorkerPool } from "./WorkerPool.js"
import { BackendFailure } from "../../platform/BackendFailure.js"

/**
 * Dense text vectors from Universal Sentence Encoder lite (512-d, English), computed on a
 * pool of worker threads so the api's event loop never runs the model (6-100 ms a text).
 */
export class EmbedError extends BackendFailure("EmbedError") {}

export interface TextEmbedderStats {
  readonly queryCacheHits: number
  readonly queryCacheMisses: number
  readonly queryCacheSize: number
  /** Threads that have loaded the model and take work. */
  readonly readyWorkers: number
  /** Threads replaced after a crash. */
  readonly workerRestarts: number
}

export interface TextEmbedderService {
  readonly dimensions: number
  /** Document vectors, unit length, in input order. Texts are truncated to 2,000 characters. */
  readonly embed: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Float32Array>, EmbedError>
  /** The same model for a search query, served ahead of documents and from an LRU cache. */
  readonly embedQuery: (text: string) => Effect.Effect<Float32Array, EmbedError>
  readonly stats: Effect.Effect<TextEmbedderStats>
}

export interface TextEmbedderOptions {
  readonly threads: number
  /** Recent distinct queries kept; 20,000 vectors take about 41 MB. */
  readonly queryCacheCapacity?: number
  /** Starts one embedding thread; tests substitute threads that crash or fail to load. */
  readonly spawnWorker?: () => Worker
}

/**
 * A thread's own V8 heap. The model allocates a burst of short-lived tensors per call; with
 * V8's default limits each thread let its young generation and heap slack grow to ~180 MB of
 * RSS under a catalog push. These limits hold it near 65 MB at the same throughput (two
 * threads, 4,000 titles: 447 → 323 MB peak, 226 → 223 texts/s), and a call of 32 texts of
 * 2,000 characters (the longest a call can be) still runs in well under the old-generation cap.
 */
export const EMBEDDING_THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 }

/** Starts one embedding thread as the pool does by default. */
export const spawnEmbeddingWorker = () =>
  // execArgv: [] keeps the parent's tsx/vitest loader hooks out of a plain CommonJS thread.
  new Worker(new URL("./worker.cjs", import.meta.url), { execArgv: [], resourceLimits: EMBEDDING_THREAD_LIMITS })

/** Scoped: waits until every thread has loaded the model; closing the scope ends them. */
export const makeTextEmbedder = (options: TextEmbedderOptions) =>
  Effect.gen(function*() {
    // At least one thread: with none, every request would wait forever.
    const threads = Math.max(1, options.threads)
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => new WorkerPool(threads, options.spawnWorker ?? spawnEmbeddingWorker)),
      (pool) => Effect.promise(() => pool.close())
    )
    yield* Effect.tryPromise({
      try: () => pool.ready,
      catch: (cause) => new EmbedError({ message: cause instanceof Error ? cause.message : String(cause) })
    })

    const run = (texts: ReadonlyArray<string>, priority: Priority) =>
      Effect.async<ReadonlyArray<Float32Array>, EmbedError>((resume) => {
        const job = pool.submit(texts, priority, (result) =>
          resume(
            result._tag === "Success" ? Effect.succeed(result.vectors) : Effect.fail(new EmbedError({ message: result.message }))
          ))
        // An interrupted caller (a failed sibling batch, a client gone) frees its queue places.
        return Effect.sync(() => pool.cancel(job))
      })

    const cache = new LruCache<string, Float32Array>(options.queryCacheCapacity ?? 20_000)
    let hits = 0
    let misses = 0

    const embed = (texts: ReadonlyArray<string>) =>
      Effect.suspend(() => {
        const normalised = texts.map(normaliseText)
        const batches = planBatches(normalised)
        // All calls are queued at once; the pool, not the fibers, bounds the concurrency.
        return Effect.forEach(
          batches,
          (positions) => run(positions.map((i) => normalised[i]), "document"),
          { concurrency: "unbounded" }
        ).pipe(Effect.map((results) => {
          const vectors = new Array<Float32Array>(texts.length)
          batches.forEach((positions, b) => positions.forEach((i, k) => (vectors[i] = results[b][k])))
          return vectors
        }))
      })

    // Copies leave the cache: a caller that scales or mutates its vector must not corrupt
    // what later shoppers get.
    const embedQuery = (text: string) =>
      Effect.suspend(() => {
        const key = normaliseText(text)
        const cached = cache.get(key)
        if (cached) {
          hits++
          return Effect.succeed(cached.slice())
        }
        misses++
        return run([key], "query").pipe(Effect.map(([vector]) => {
          cache.set(key, vector)
          return vector.slice()
        }))
      })

    const stats = Effect.sync((): TextEmbedderStats => ({
      queryCacheHits: hits,
      queryCacheMisses: misses,
      queryCacheSize: cache.size,
      readyWorkers: pool.readyWorkers,
      workerRestarts: pool.restarts
    }))

    return TextEmbedder.of({ dimensions: 512, embed, embedQuery, stats })
  })

export class TextEmbedder extends Context.Tag("TextEmbedder")<TextEmbedder, TextEmbedderService>() {
  /** `embedThreads` threads (AppConfig), each with its own model: about 125 MB RSS and 0.6 s to load. */
  static readonly layer = Layer.scoped(
    TextEmbedder,
    Effect.flatMap(AppConfig, (config) => makeTextEmbedder({ threads: config.embedThreads }))
  )
}
