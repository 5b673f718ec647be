"use strict"
/**
 * One embedding thread of the TextEmbedder pool. Plain CommonJS on purpose: worker_threads
 * cannot load .ts under tsx or vitest.
 *
 * workerData: { modelDir, files: { graph, tokenizer, tokenizerConfig }, maxTokens } (see
 * TextModel.ts: the folder's file names live there). The model is the ONNX graph of
 * all-MiniLM-L6-v2 on onnxruntime, one intra-op thread per pool thread (the pool is the
 * parallelism); its output is already mean pooled and unit length.
 *
 * Protocol (see platform/ThreadPool.ts): after the model has loaded it posts { type: "ready" };
 * then for each { id, texts } it posts { id, vectors } (unit-length Float32Arrays whose
 * buffers are transferred, not copied) or { id, error }. The pool sends one batch at a
 * time, so batches never interleave here.
 */
const fs = require("node:fs")
const path = require("node:path")
const { parentPort, workerData } = require("node:worker_threads")
const ort = require("onnxruntime-node")
const { Tokenizer } = require("@huggingface/tokenizers")

const { modelDir, files } = workerData
const readJson = (name) => JSON.parse(fs.readFileSync(path.join(modelDir, name), "utf8"))

const main = async () => {
  const graph = path.join(modelDir, files.graph)
  if (!fs.existsSync(graph)) throw new Error(`no text model at ${modelDir}: run npm run setup`)
  const tokenizer = new Tokenizer(readJson(files.tokenizer), readJson(files.tokenizerConfig))
  const session = await ort.InferenceSession.create(graph, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: "all",
    executionMode: "sequential",
    // Pre-packing copies every weight matrix into a second layout: much more memory per
    // thread for slightly faster runs.
    extra: { session: { disable_prepacking: "1" } }
  })
  const maxTokens = workerData.maxTokens
  const separator = tokenizer.encode("").ids.at(-1)

  // Token ids with [CLS] and [SEP]; a text longer than the model's limit keeps its head.
  const tokens = (text) => {
    const { ids } = tokenizer.encode(text)
    return ids.length <= maxTokens ? ids : [...ids.slice(0, maxTokens - 1), separator]
  }

  const embed = async (texts) => {
    const encoded = texts.map(tokens)
    const width = Math.max(...encoded.map((ids) => ids.length))
    const ids = new BigInt64Array(texts.length * width)
    const mask = new BigInt64Array(texts.length * width)
    encoded.forEach((row, i) => {
      for (let j = 0; j < row.length; j++) {
        ids[i * width + j] = BigInt(row[j])
        mask[i * width + j] = 1n
      }
    })
    const { embedding } = await session.run({
      input_ids: new ort.Tensor("int64", ids, [texts.length, width]),
      attention_mask: new ort.Tensor("int64", mask, [texts.length, width])
    })
    const size = embedding.dims[1]
    return texts.map((_, i) => embedding.data.slice(i * size, (i + 1) * size))
  }

  // Warm up: the first run allocates and plans the graph.
  await embed(["warm up"])

  parentPort.on("message", async ({ id, texts }) => {
    try {
      const vectors = await embed(texts)
      parentPort.postMessage(
        { id, vectors },
        vectors.map((v) => v.buffer)
      )
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
