import { Config, Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { AnalyzeError, type DetectedObject, ImageAnalyzer, type RgbImage } from "../ImageAnalyzer.js"
import { dominantColors } from "./DominantColors.js"
import { ModelPool } from "./ModelPool.js"

const here = path.dirname(fileURLToPath(import.meta.url))
const nodeModules = path.resolve(here, "../../../node_modules")
/** Detection runs on this square: CenterNet's input size; rectangles are relative either way. */
const DETECT_SIZE = 512

const resizeNearest = (image: RgbImage, size: number): RgbImage => {
  const data = new Uint8Array(size * size * 3)
  for (let y = 0; y < size; y++) {
    const sy = Math.min(image.height - 1, Math.floor(((y + 0.5) * image.height) / size))
    for (let x = 0; x < size; x++) {
      const sx = Math.min(image.width - 1, Math.floor(((x + 0.5) * image.width) / size))
      const s = (sy * image.width + sx) * 3, d = (y * size + x) * 3
      data[d] = image.data[s]; data[d + 1] = image.data[s + 1]; data[d + 2] = image.data[s + 2]
    }
  }
  return { data, width: size, height: size }
}

/**
 * The image models in a pool of worker threads (IMAGE_THREADS, default 1), loaded once per
 * thread; the converted feature model is cached under MODEL_CACHE_DIR so later starts skip
 * the slow conversion. Colours are computed here, on a small downsample.
 */
export const ImageAnalyzerLive = Layer.scoped(
  ImageAnalyzer,
  Effect.gen(function*() {
    const threads = yield* Config.integer("IMAGE_THREADS").pipe(Config.withDefault(1))
    const cacheDir = yield* Config.string("MODEL_CACHE_DIR").pipe(Config.withDefault(path.join(os.tmpdir(), "commerce-search-models")))
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => new ModelPool(threads, () => new Worker(path.join(here, "worker.cjs"), { workerData: { nodeModules, cacheDir } }))),
      (p) => Effect.promise(() => p.close())
    )
    yield* Effect.tryPromise({ try: () => pool.ready, catch: (e) => new AnalyzeError({ message: String(e), cause: e }) })

    const run = (image: RgbImage, embed: boolean, detect: boolean, priority: "query" | "batch") => {
      const input = detect ? resizeNearest(image, DETECT_SIZE) : image
      return Effect.tryPromise({
        try: () => pool.run({ ...input, embed, detect }, priority),
        catch: (e) => new AnalyzeError({ message: `image analysis failed: ${String(e)}`, cause: e })
      })
    }

    return {
      dimensions: 1792,
      analyze: (image, options) =>
        Effect.map(run(image, true, options?.detect ?? true, options?.priority ?? "batch"), (r) => ({
          embedding: r.embedding!,
          adult: r.adult ?? 0,
          colors: dominantColors(image),
          objects: (r.objects ?? []) as ReadonlyArray<DetectedObject>
        })),
      embed: (image, options) => Effect.map(run(image, true, false, options?.priority ?? "query"), (r) => r.embedding!),
      detect: (image, options) => Effect.map(run(image, false, true, options?.priority ?? "query"), (r) => (r.objects ?? []) as ReadonlyArray<DetectedObject>)
    }
  })
)
