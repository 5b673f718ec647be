import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Worker } from "node:worker_threads"
import { spawnEmbeddingWorker } from "../../../src/services/text-embedder/EmbeddingThreads.js"

// The embedding threads run with a capped V8 heap (memory at 100k products). A call larger
// than the pool ever sends (32 texts of the 2,000-character maximum; the batch planner sends
// long texts alone) must still complete in one such thread rather than kill it.
describe("embedding thread heap limits", () => {
  let worker: Worker
  beforeAll(async () => {
    // The pool's own spawner, so the limits under test are the ones production threads get.
    worker = spawnEmbeddingWorker()
    await new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve())
      worker.once("error", reject)
    })
  }, 60_000)
  afterAll(() => worker.terminate())

  it("embeds 32 texts of 2,000 characters in one call and keeps the thread alive", async () => {
    const long = "stainless steel cordless drill with battery and charger ".repeat(40).slice(0, 2_000)
    let exited = false
    worker.once("exit", () => (exited = true))
    const reply = await new Promise<{ id: number; vectors?: Array<Float32Array>; error?: string }>((resolve) => {
      worker.once("message", resolve)
      worker.postMessage({ id: 7, texts: Array.from({ length: 32 }, (_, i) => `${i} ${long}`) })
    })
    expect(reply.error).toBeUndefined()
    expect(reply.id).toBe(7)
    expect(reply.vectors).toHaveLength(32)
    for (const v of reply.vectors!) expect(v).toHaveLength(384)
    // Still serving after the burst.
    const again = await new Promise<{ vectors?: Array<Float32Array> }>((resolve) => {
      worker.once("message", resolve)
      worker.postMessage({ id: 8, texts: ["cordless drill"] })
    })
    expect(again.vectors).toHaveLength(1)
    expect(exited).toBe(false)
  }, 60_000)
})
