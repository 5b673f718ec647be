"use strict"
// One image-model thread: MobileNetV2 features + the nsfw classifier (nsfwjs on tfjs wasm) and
// CenterNet object detection (@vladmandic/human, its own bundled tfjs). Plain CommonJS because
// worker threads cannot load TypeScript under tsx or vitest.
const { parentPort, workerData } = require("node:worker_threads")
const fs = require("node:fs")
const path = require("node:path")

const modules = workerData.nodeModules
const cacheDir = workerData.cacheDir
const FEATURE_NODE_SUFFIX = "feature_vector/SpatialSqueeze"

// Human loads its models with fetch(); the models ship on disk, and nothing may come from the network.
const networkFetch = globalThis.fetch
globalThis.fetch = async (url, init) => {
  const u = String(url)
  if (!u.startsWith("file://")) return networkFetch(url, init)
  const file = u.slice("file://".length)
  return new Response(fs.readFileSync(file), { status: 200, headers: { "content-type": file.endsWith(".json") ? "application/json" : "application/octet-stream" } })
}

let tf, features, humanModel

async function loadFeatureModel() {
  tf = require(path.join(modules, "@tensorflow/tfjs"))
  const wasm = require(path.join(modules, "@tensorflow/tfjs-backend-wasm"))
  wasm.setWasmPaths(path.join(modules, "@tensorflow/tfjs-backend-wasm/dist") + "/")
  await tf.setBackend("wasm")
  await tf.ready()
  const cachedJson = path.join(cacheDir, "mobilenet_v2_mid.json")
  const cachedBin = path.join(cacheDir, "mobilenet_v2_mid.bin")
  let model
  if (fs.existsSync(cachedJson) && fs.existsSync(cachedBin)) {
    // Converting the package's bundled model takes seconds; the saved artifacts load in ~100 ms.
    const artifacts = JSON.parse(fs.readFileSync(cachedJson, "utf8"))
    const bin = fs.readFileSync(cachedBin)
    artifacts.weightData = bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength)
    model = await tf.loadGraphModel(tf.io.fromMemory(artifacts))
  } else {
    const nsfw = require(path.join(modules, "nsfwjs"))
    model = (await nsfw.load("MobileNetV2Mid", { type: "graph" })).model
    fs.mkdirSync(cacheDir, { recursive: true })
    await model.save(tf.io.withSaveHandler(async (artifacts) => {
      const { weightData, ...rest } = artifacts
      const tmp = `${cachedBin}.${process.pid}.tmp`
      fs.writeFileSync(tmp, Buffer.from(weightData))
      fs.renameSync(tmp, cachedBin)
      fs.writeFileSync(`${cachedJson}.${process.pid}.tmp`, JSON.stringify(rest))
      fs.renameSync(`${cachedJson}.${process.pid}.tmp`, cachedJson)
      return { modelArtifactsInfo: { dateSaved: new Date(), modelTopologyType: "JSON" } }
    }))
  }
  const nodeNames = Object.keys(model.executor.graph.nodes)
  const featureNode = nodeNames.find((n) => n.endsWith(FEATURE_NODE_SUFFIX))
  if (!featureNode) throw new Error("feature node not found in MobileNetV2Mid")
  features = { model, featureNode, outputNode: model.outputs[0].name }
}

async function loadDetector() {
  const root = path.join(modules, "@vladmandic/human")
  const { Human } = require(path.join(root, "dist/human.node-wasm.js"))
  humanModel = new Human({
    backend: "wasm",
    wasmPath: "file://" + path.join(modules, "@tensorflow/tfjs-backend-wasm/dist") + "/",
    modelBasePath: "file://" + path.join(root, "models") + "/",
    cacheSensitivity: 0,
    debug: false,
    face: { enabled: false }, body: { enabled: false }, hand: { enabled: false },
    gesture: { enabled: false }, segmentation: { enabled: false },
    object: { enabled: true, modelPath: "centernet.json", minConfidence: 0.3, maxDetected: 10 }
  })
  await humanModel.load()
}

const clamp = (v) => Math.min(1, Math.max(0, v))

function embed(msg) {
  // 224×224 RGB in [0, 1], as the model was trained.
  return tf.tidy(() => {
    const pixels = tf.tensor3d(msg.data, [msg.height, msg.width, 3], "int32")
    const input = tf.image.resizeBilinear(pixels, [224, 224]).div(255).expandDims(0)
    const [feature, classes] = features.model.execute(input, [features.featureNode, features.outputNode])
    const vector = feature.dataSync().slice()
    let norm = 0
    for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i]
    norm = Math.sqrt(norm) || 1
    for (let i = 0; i < vector.length; i++) vector[i] /= norm
    const p = classes.dataSync() // Drawing, Hentai, Neutral, Porn, Sexy
    return { embedding: vector, adult: Math.min(1, p[3] + p[1] + 0.5 * p[4]) }
  })
}

async function detect(msg) {
  const input = humanModel.tf.tensor4d(Int32Array.from(msg.data), [1, msg.height, msg.width, 3], "int32")
  try {
    const result = await humanModel.detect(input)
    return result.object.map((o) => {
      const [x, y, w, h] = o.boxRaw
      const left = clamp(x), top = clamp(y)
      return {
        classId: o.class,
        class: o.label,
        score: Math.round(o.score * 1000) / 1000,
        rectangle: { left, top, width: clamp(x + w) - left, height: clamp(y + h) - top }
      }
    })
  } finally {
    input.dispose()
  }
}

Promise.all([loadFeatureModel(), loadDetector()]).then(
  () => parentPort.postMessage({ type: "ready" }),
  (error) => parentPort.postMessage({ type: "failed", error: String(error && error.stack || error) })
)

parentPort.on("message", async (msg) => {
  try {
    const out = {}
    if (msg.embed) Object.assign(out, embed(msg))
    if (msg.detect) out.objects = await detect(msg)
    const transfer = out.embedding ? [out.embedding.buffer] : []
    parentPort.postMessage({ id: msg.id, result: out }, transfer)
  } catch (error) {
    parentPort.postMessage({ id: msg.id, error: String(error && error.message || error) })
  }
})
