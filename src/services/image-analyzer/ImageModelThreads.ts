import { Worker } from "node:worker_threads"
import { ThreadPool } from "../../platform/ThreadPool.js"
import type { DetectedObject, LoadTimes, Priority, RgbImage } from "./ImageAnalyzer.js"

/**
 * The image-model threads: a ThreadPool with three queues, shopper queries first, then catalog
 * images (what makes a product visually searchable), then background work (object detection of
 * catalog images, which only refines text search). One image per call (a model run is long
 * already: batching would only make a query wait longer behind it).
 */

/** What to compute; buffers are transferred, so they must be the caller's own copies. */
export interface ModelRequest {
  /** 224×224 RGB for the feature model and adult classifier. */
  readonly features?: Uint8Array
  readonly detection?: RgbImage
}

export interface ModelReply {
  readonly embedding?: Float32Array
  readonly adult?: number
  readonly objects?: ReadonlyArray<DetectedObject>
}

export const spawnImageWorker = () =>
  // execArgv: [] keeps the parent's tsx/vitest loader hooks out of a plain CommonJS thread.
  new Worker(new URL("./image-model-thread.cjs", import.meta.url), { execArgv: [] })

export const makeImageModelThreads = (threads: number, spawn: () => Worker) =>
  new ThreadPool<Priority, ModelRequest, ModelReply, ModelReply>({
    threads,
    spawn,
    priorities: ["query", "batch", "background"],
    names: { service: "image analyzer", work: "image analysis", thread: "image worker" },
    request: ([{ detection, features }]) => ({
      message: { features, detection },
      transfer: [features?.buffer, detection?.data.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer)
    }),
    replies: (reply) => [reply]
  })

/** How long the most recently started thread took to get ready, from its `ready` message. */
export const lastLoadTimes = (pool: ReturnType<typeof makeImageModelThreads>): LoadTimes | undefined =>
  pool.lastReady?.loadMs as LoadTimes | undefined
