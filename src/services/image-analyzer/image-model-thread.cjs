"use strict"
/**
 * One image thread of the ImageAnalyzer pool: nsfwjs's MobileNetV2Mid (features + adult
 * classifier) and Human's CenterNet (COCO-80 objects), both on the tfjs wasm backend.
 * Plain CommonJS on purpose: worker_threads cannot load .ts under tsx or vitest.
 *
 * Protocol (see platform/ThreadPool.ts): after both models have loaded and run once it posts
 * { type: "ready", loadMs }; then for each { id, features?, detection? } it posts
 * { id, embedding?, adult?, objects? } (the embedding's buffer transferred) or { id, error }.
 * `features` is 224x224 RGB bytes; `detection` is { data, width, height } RGB bytes.
 */
const { parentPort } = require("node:worker_threads")
const fs = require("node:fs")
const path = require("node:path")
const { fileURLToPath, pathToFileURL } = require("node:url")

// Human fetches its model files; Node's fetch has no file:// support. Everything else is
// refused so that nothing can ever be downloaded at run time.
globalThis.fetch = async (input) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url
  if (!url.startsWith("file://")) throw new Error(`image models are offline; refused to fetch ${url}`)
  return new Response(await fs.promises.readFile(fileURLToPath(url)))
}

const tf = require("@tensorflow/tfjs")
const { setWasmPaths } = require("@tensorflow/tfjs-backend-wasm")

// Both packages' exports maps hide the files needed here, so they are found by path.
const packageDir = (name, entryDepth) =>
  path.resolve(path.dirname(require.resolve(name)), ...Array(entryDepth).fill(".."))
const wasmDir = path.join(packageDir("@tensorflow/tfjs-backend-wasm", 1), "dist") + path.sep
const nsfwDir = packageDir("nsfwjs", 2) // main is dist/cjs/index.js
const humanDir = packageDir("@vladmandic/human", 1) // main is dist/human.node.js

const FEATURE_NODE =
  "StatefulPartitionedCall/sequential/keras_layer/StatefulPartitionedCall/StatefulPartitionedCall/" +
  "StatefulPartitionedCall/predict/feature_vector/SpatialSqueeze"
const FEATURE_SIZE = 224
const { NSFW_CLASSES } = require(path.join(nsfwDir, "dist/cjs/nsfw_classes.js"))
const classIndex = (name) => Object.keys(NSFW_CLASSES).find((key) => NSFW_CLASSES[key] === name)
const [HENTAI, PORN, SEXY] = ["Hentai", "Porn", "Sexy"].map(classIndex)

/**
 * nsfwjs ships its weights as base64 inside JS bundles and its own loader decodes them one
 * character at a time, which is slow. Buffer decodes the same bundles at native speed, so a
 * converted copy on disk would buy nothing.
 */
const loadFeatureModel = async () => {
  const dir = path.join(nsfwDir, "dist/models/mobilenet_v2_mid")
  const model = require(path.join(dir, "model.min.js"))
  const shards = model.weightsManifest.flatMap((group) =>
    group.paths.map((shard) => Buffer.from(require(path.join(dir, `${shard}.min.js`)), "base64"))
  )
  const weights = Buffer.concat(shards)
  return tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: model.modelTopology,
      format: model.format,
      generatedBy: model.generatedBy,
      convertedBy: model.convertedBy,
      weightSpecs: model.weightsManifest.flatMap((group) => group.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength)
    })
  )
}

const loadDetector = async () => {
  const { Human } = require(path.join(humanDir, "dist/human.node-wasm.js"))
  const human = new Human({
    backend: "wasm",
    wasmPath: wasmDir,
    modelBasePath: pathToFileURL(path.join(humanDir, "models") + path.sep).href,
    // Human otherwise reuses the previous result for a "similar" input (it is built for video).
    cacheSensitivity: 0,
    debug: false,
    face: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    filter: { enabled: false },
    object: { enabled: true, minConfidence: 0.3, maxDetected: 10 }
  })
  await human.load()
  return human
}

const unitVector = (values) => {
  let sum = 0
  for (const x of values) sum += x * x
  const norm = Math.sqrt(sum) || 1
  return values.map((x) => x / norm)
}

const clamp01 = (x) => Math.min(1, Math.max(0, x))

const main = async () => {
  setWasmPaths(wasmDir)
  await tf.setBackend("wasm")
  await tf.ready()
  const started = performance.now()
  const featureModel = await loadFeatureModel()
  const featuresLoaded = performance.now()
  const human = await loadDetector()
  const detectorLoaded = performance.now()

  const features = async (data) => {
    const input = tf.tidy(() => tf.tensor4d(data, [1, FEATURE_SIZE, FEATURE_SIZE, 3], "int32").toFloat().div(255))
    const [vector, classes] = featureModel.execute(input, [FEATURE_NODE, "Identity"])
    input.dispose()
    try {
      const [embedding, p] = await Promise.all([vector.data(), classes.data()])
      return { embedding: unitVector(embedding), adult: clamp01(p[HENTAI] + p[PORN] + 0.5 * p[SEXY]) }
    } finally {
      vector.dispose()
      classes.dispose()
    }
  }

  const detect = async ({ data, width, height }) => {
    const input = tf.tensor3d(data, [height, width, 3], "int32")
    try {
      const result = await human.detect(input)
      if (result.error) throw new Error(result.error)
      return result.object.map((o) => {
        const [x, y, w, h] = o.boxRaw.map(clamp01)
        return {
          classId: o.class,
          class: o.label,
          score: o.score,
          rectangle: { left: x, top: y, width: Math.min(w, 1 - x), height: Math.min(h, 1 - y) }
        }
      })
    } finally {
      input.dispose()
    }
  }

  // The first runs of each graph are slower (kernel and buffer setup); pay that here,
  // not on a shopper's query.
  const blank = new Uint8Array(FEATURE_SIZE * FEATURE_SIZE * 3)
  for (let i = 0; i < 2; i++) {
    await features(blank)
    await detect({ data: blank, width: FEATURE_SIZE, height: FEATURE_SIZE })
  }

  parentPort.on("message", async (request) => {
    try {
      const reply = { id: request.id }
      if (request.features) Object.assign(reply, await features(request.features))
      if (request.detection) reply.objects = await detect(request.detection)
      parentPort.postMessage(reply, reply.embedding ? [reply.embedding.buffer] : [])
    } catch (error) {
      parentPort.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) })
    }
  })
  parentPort.postMessage({
    type: "ready",
    loadMs: {
      features: featuresLoaded - started,
      detector: detectorLoaded - featuresLoaded,
      total: performance.now() - started
    }
  })
}

// A load failure must end the thread, whatever the unhandled-rejection mode, so the pool
// sees it as an "error" and "exit" of this worker.
main().catch((error) => {
  setImmediate(() => {
    throw error
  })
})
