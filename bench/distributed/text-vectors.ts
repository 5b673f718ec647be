/**
 * The text vectors of the bench catalog, from the real text embedder (the text model on this
 * process's own embedding threads, as a worker runs it), cached on disk: a full catalog's
 * titles take minutes to embed, so later runs and the second topology reuse them. The file
 * lives under the OS temp dir, named by seed, count, the model's wheel hash and a hash of the
 * texts (a changed generator or model never reads stale vectors).
 */
import { Effect } from "effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeTextEmbedder } from "../../src/services/text-embedder/EmbeddedTextEmbedder.js"
import { TEXT_MODEL } from "../../src/services/text-embedder/TextModel.js"
import { fmtRate, log } from "../catalog/common.js"

const DIMENSIONS = TEXT_MODEL.dimensions
/** Texts per embed call: small enough for a progress line every few seconds. */
const CHUNK = 2_000

const modelVersion = (): string => `${TEXT_MODEL.name}-${TEXT_MODEL.wheel.sha256.slice(0, 8)}`

const cacheFile = (texts: ReadonlyArray<string>, seed: number) => {
  const hash = createHash("sha256")
  for (const text of texts) hash.update(text).update("\n")
  return path.join(
    os.tmpdir(),
    `commerce-bench-text-vectors-${modelVersion()}-seed${seed}-${texts.length}-${hash.digest("hex").slice(0, 12)}.f32`
  )
}

/** Embeds the distinct texts on `threads` embedding threads; vectors in `texts` order, concatenated. */
const embedAll = (texts: ReadonlyArray<string>, threads: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const embedder = yield* makeTextEmbedder({ threads })
      const distinct = [...new Set(texts)]
      const vectors = new Map<string, Float32Array>()
      const started = performance.now()
      let lastLog = started
      for (let i = 0; i < distinct.length; i += CHUNK) {
        const chunk = distinct.slice(i, i + CHUNK)
        const embedded = yield* embedder.embed(chunk)
        chunk.forEach((text, k) => vectors.set(text, embedded[k]))
        if (performance.now() - lastLog > 15_000) {
          lastLog = performance.now()
          const rate = vectors.size / ((lastLog - started) / 1000)
          log(
            `text vectors: ${vectors.size}/${distinct.length} distinct texts ` +
              `(${fmtRate(rate)}/s, ~${((distinct.length - vectors.size) / rate / 60).toFixed(0)} min left)`
          )
        }
      }
      const out = new Float32Array(texts.length * DIMENSIONS)
      texts.forEach((text, i) => out.set(vectors.get(text)!, i * DIMENSIONS))
      log(
        `text vectors: ${distinct.length} distinct of ${texts.length} texts embedded in ` +
          `${((performance.now() - started) / 1000).toFixed(0)} s`
      )
      return out
    })
  )

/** The vector of each of `texts` (what a worker's embedder gives), from the cache or computed and cached. */
export const catalogTextVectors = async (
  texts: ReadonlyArray<string>,
  seed: number,
  threads: number
): Promise<ReadonlyArray<Float32Array>> => {
  if (texts.length === 0) return []
  const file = cacheFile(texts, seed)
  let all: Float32Array
  if (fs.existsSync(file) && fs.statSync(file).size === texts.length * DIMENSIONS * 4) {
    all = new Float32Array(texts.length * DIMENSIONS)
    const fd = fs.openSync(file, "r")
    try {
      const read = fs.readSync(fd, new Uint8Array(all.buffer), 0, all.byteLength, 0)
      if (read !== all.byteLength) throw new Error(`${file}: read ${read} of ${all.byteLength} bytes`)
    } finally {
      fs.closeSync(fd)
    }
    log(`text vectors of ${texts.length} products read from ${file}`)
  } else {
    log(`text vectors of ${texts.length} products: none cached at ${file}, embedding them (${threads} threads)`)
    all = await Effect.runPromise(embedAll(texts, threads))
    // Written aside and renamed, so an interrupted run never leaves a truncated cache behind.
    const partial = `${file}.${process.pid}.partial`
    fs.writeFileSync(partial, new Uint8Array(all.buffer))
    fs.renameSync(partial, file)
  }
  return texts.map((_, i) => all.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS))
}
