import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import { eventLoopBusy } from "../../platform/EventLoopLoad.js"
import { ThreadPool } from "../../platform/ThreadPool.js"
import { BATCH_BUDGET_MS, longestOf, QUERY_WINDOW_MS, SHARED_BUDGET_MS, withinBudget } from "./Batching.js"
import { MODEL_FILES, TEXT_MODEL, textModelDir } from "./TextModel.js"

/**
 * The embedding threads: a ThreadPool with two queues, queries before documents. Calls are
 * kept short (see Batching.ts), so a query arriving during a bulk catalog push only waits for
 * the first thread to finish its current call; queued requests of one priority share a call
 * while it stays within that budget.
 *
 * While the process's own thread is saturated (a bulk catalog push: decoding, storing and
 * indexing every line), documents get every model thread but one. On a 2-core machine that is
 * one core for the model and one for the service, instead of two model threads and the service
 * contending for two cores: the push is accepted faster, the spare thread answers shoppers'
 * queries at once instead of behind a document call, and the model takes both threads again as
 * soon as the push ends.
 */
export type Priority = "query" | "document"

/**
 * A thread's own V8 heap. The model allocates a burst of short-lived tensors per call; with
 * V8's default limits each thread lets its young generation and heap slack grow far past what
 * a call needs under a catalog push. These limits keep it small at the same throughput, and a
 * call of 32 texts of 2,000 characters (the longest a call can be) still runs well under the
 * old-generation cap.
 */
export const EMBEDDING_THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 }

/**
 * onnxruntime's native addon registers itself once per process: when the last thread holding
 * it exits, a thread started later (a replacement after a crash, the next pool) fails with
 * "Module did not self-register". Loading it here too keeps it registered for the process.
 */
let runtimeLoaded = false
const keepRuntimeLoaded = () => {
  if (runtimeLoaded) return
  createRequire(import.meta.url)("onnxruntime-node")
  runtimeLoaded = true
}

/** What an embedding thread is started with (the model's folder and limits); keeps the runtime loaded. */
export const embeddingWorkerOptions = () => {
  keepRuntimeLoaded()
  const { graph, tokenizer, tokenizerConfig } = MODEL_FILES
  return {
    resourceLimits: EMBEDDING_THREAD_LIMITS,
    workerData: {
      modelDir: textModelDir(),
      files: { graph, tokenizer, tokenizerConfig },
      maxTokens: TEXT_MODEL.maxTokens
    }
  }
}

/** Starts one embedding thread as the pool does by default. */
export const spawnEmbeddingWorker = () =>
  // execArgv: [] keeps the parent's tsx/vitest loader hooks out of a plain CommonJS thread.
  new Worker(new URL("./embedding-thread.cjs", import.meta.url), { execArgv: [], ...embeddingWorkerOptions() })

/** How many queued requests, from the head, share one call without passing `budgetMs`. */
const packed = (queue: Iterable<ReadonlyArray<string>>, budgetMs: number): number => {
  let requests = 0
  let count = 0
  let longest = 0
  for (const texts of queue) {
    const nextLongest = Math.max(longest, longestOf(texts))
    if (requests > 0 && !withinBudget(count + texts.length, nextLongest, budgetMs)) break
    requests++
    count += texts.length
    longest = nextLongest
  }
  return requests
}

/** One request is the texts of one caller; its reply, their vectors in order. */
export const makeEmbeddingThreads = (threads: number, spawn: () => Worker) => {
  // Queries come one text at a time; document calls stay short while they keep coming.
  let lastQuery = -Infinity
  const busy = eventLoopBusy()
  return new ThreadPool<
    Priority,
    ReadonlyArray<string>,
    ReadonlyArray<Float32Array>,
    { readonly vectors: ReadonlyArray<Float32Array> }
  >({
    threads,
    spawn,
    priorities: ["query", "document"],
    names: { service: "text embedder", work: "embedding", thread: "embedding worker" },
    take: (queue, priority) => {
      const now = performance.now()
      if (priority === "query") lastQuery = now
      return packed(
        queue,
        priority === "document" && now - lastQuery < QUERY_WINDOW_MS ? SHARED_BUDGET_MS : BATCH_BUDGET_MS
      )
    },
    share: (priority, threads) => (priority === "document" && threads > 1 && busy() ? threads - 1 : threads),
    request: (requests) => ({ message: { texts: requests.flat() } }),
    replies: ({ vectors }, requests) => {
      let offset = 0
      return requests.map((texts) => vectors.slice(offset, (offset += texts.length)))
    }
  })
}
