import { Config, Effect, Layer } from "effect"
import type { Worker } from "node:worker_threads"
import { LruCache } from "../../platform/LruCache.js"
import { planBatches, SHARED_BUDGET_MS } from "./Batching.js"
import { makeEmbeddingThreads, type Priority, spawnEmbeddingWorker } from "./EmbeddingThreads.js"
import { normaliseText } from "./ModelInput.js"
import { EmbedError, TextEmbedder, type TextEmbedderStats } from "./TextEmbedder.js"
import { MODEL_FILES, TEXT_MODEL, textModelDir } from "./TextModel.js"
import fs from "node:fs"
import path from "node:path"

export interface TextEmbedderOptions {
  readonly threads: number
  /** Recent distinct queries kept (one vector each): the bound on the query cache's memory. */
  readonly queryCacheCapacity?: number
  /** Starts one embedding thread; tests substitute threads that crash or fail to load. */
  readonly spawnWorker?: () => Worker
}

/**
 * The whole words of the model's WordPiece vocabulary (pieces that continue a word, "##…", and
 * special tokens left out): about 20,000 common English words, names and brands.
 */
const modelWords = (dir: string): ReadonlySet<string> => {
  const tokenizer = JSON.parse(fs.readFileSync(path.join(dir, MODEL_FILES.tokenizer), "utf8")) as {
    readonly model?: { readonly vocab?: Record<string, number> }
  }
  const words = new Set<string>()
  for (const token of Object.keys(tokenizer.model?.vocab ?? {})) if (/^\p{L}{2,}$/u.test(token)) words.add(token)
  return words
}

/** Scoped: waits until every thread has loaded the model; closing the scope ends them. */
export const makeTextEmbedder = (options: TextEmbedderOptions) =>
  Effect.gen(function* () {
    // At least one thread: with none, every request would wait forever.
    const threads = Math.max(1, options.threads)
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => makeEmbeddingThreads(threads, options.spawnWorker ?? spawnEmbeddingWorker)),
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
            result._tag === "Success"
              ? Effect.succeed(result.reply)
              : Effect.fail(new EmbedError({ message: result.message }))
          )
        )
        // An interrupted caller (a failed sibling batch, a client gone) frees its queue places.
        return Effect.sync(() => pool.cancel(job))
      })

    const cache = new LruCache<string, Float32Array>(options.queryCacheCapacity ?? 20_000)
    let hits = 0
    let misses = 0

    let documents = 0
    const embed = (texts: ReadonlyArray<string>) =>
      Effect.suspend(() => {
        documents += texts.length
        const normalised = texts.map(normaliseText)
        // Small requests, which the pool packs into calls as long as nobody is searching.
        const batches = planBatches(normalised, SHARED_BUDGET_MS)
        // All calls are queued at once; the pool, not the fibers, bounds the concurrency.
        return Effect.forEach(
          batches,
          (positions) =>
            run(
              positions.map((i) => normalised[i]),
              "document"
            ),
          { concurrency: "unbounded" }
        ).pipe(
          Effect.map((results) => {
            const vectors = new Array<Float32Array>(texts.length)
            batches.forEach((positions, b) => positions.forEach((i, k) => (vectors[i] = results[b][k])))
            return vectors
          })
        )
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
        return run([key], "query").pipe(
          Effect.map(([vector]) => {
            cache.set(key, vector)
            return vector.slice()
          })
        )
      })

    const stats = Effect.sync(
      (): TextEmbedderStats => ({
        documentsEmbedded: documents,
        queryCacheHits: hits,
        queryCacheMisses: misses,
        queryCacheSize: cache.size,
        readyWorkers: pool.readyWorkers,
        workerRestarts: pool.restarts
      })
    )

    const words = yield* Effect.sync(() => modelWords(textModelDir()))
    return TextEmbedder.of({ dimensions: TEXT_MODEL.dimensions, embed, embedQuery, stats, isWord: (w) => words.has(w) })
  })

/** EMBED_THREADS: embedding threads in this process (default 2). */
export const EmbedThreads = Config.integer("EMBED_THREADS").pipe(
  Config.validate({ message: "must be at least 1", validation: (n) => n >= 1 }),
  Config.withDefault(2)
)

/** The text model (TextModel.ts) on this process's own pool of worker threads (EmbeddingThreads). */
export const EmbeddedTextEmbedder = {
  /** EMBED_THREADS threads (default 2), each with its own model. */
  layer: Layer.scoped(
    TextEmbedder,
    Effect.flatMap(EmbedThreads, (threads) => makeTextEmbedder({ threads }))
  )
}
