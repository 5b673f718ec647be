/**
 * Qdrant upsert size and throughput: `PATH=/path/to/qdrant-dir:$PATH npx tsx bench/qdrant-upsert.ts
 * [products] [images]` (or QDRANT_URL=… for a running server). Products of 3 (or [images]) random
 * 1792-d image vectors, a 512-d text vector and a short text (default 2,000); prints the JSON size
 * of a point and of a 256-point request (Qdrant's default limit is 32 MiB) before and after
 * rounding, then upserts the catalog through the CatalogIndex for each image storage setting and
 * prints requests, time and products/s.
 */
import { randomUUID } from "node:crypto"
import { QdrantClient } from "@qdrant/js-client-rest"
import { Effect, Layer } from "effect"
import { CatalogIndex } from "../src/services/catalog-index/CatalogIndex.js"
import { QdrantCatalogIndex } from "../src/services/catalog-index/QdrantCatalogIndex.js"
import type { QdrantIndexOptions } from "../src/services/catalog-index/qdrant/QdrantOptions.js"
import { encodedBytes, toPoint, upsertChunks } from "../src/services/catalog-index/qdrant/Points.js"
import type { IndexDocument } from "../src/model/IndexDocument.js"
import { qdrantAvailability, startQdrant, type QdrantServer } from "../test/support/QdrantProcess.js"
import { mulberry32 } from "./catalog/random.js"

const count = Number(process.argv[2] ?? 2_000)
const imagesPerProduct = Number(process.argv[3] ?? 3)
const random = mulberry32(7)

const unitVector = (dimension: number): Float32Array => {
  const v = new Float32Array(dimension)
  let norm = 0
  for (let i = 0; i < dimension; i++) norm += (v[i] = random.normal()) ** 2
  norm = Math.sqrt(norm)
  for (let i = 0; i < dimension; i++) v[i] /= norm
  return v
}

const words = [
  "cordless",
  "drill",
  "lamp",
  "desk",
  "steel",
  "blue",
  "kettle",
  "jacket",
  "wool",
  "compact",
  "garden",
  "hose"
]
const products: Array<IndexDocument> = Array.from({ length: count }, (_, i) => ({
  siteId: 1 + (i % 5),
  productId: `p${i}`,
  text: {
    title: Array.from({ length: 5 }, () => random.pick(words)).join(" "),
    brand: random.pick(words),
    productType: "",
    category: "",
    description: Array.from({ length: 40 }, () => random.pick(words)).join(" "),
    highlights: "",
    details: "",
    extra: ""
  },
  payload: { brand: random.pick(words), price: random.int(1, 500) },
  vectors: { text: unitVector(512), image: Array.from({ length: imagesPerProduct }, () => unitVector(1792)) }
}))

const MiB = 1024 * 1024
/** JSON of the first 256 products as the index writes them, and as unrounded float32 arrays. */
const sizes = (encode: (doc: IndexDocument) => unknown) => {
  const bytes = products.slice(0, 256).map((doc) => Buffer.byteLength(JSON.stringify(encode(doc))))
  const total = bytes.reduce((a, b) => a + b, 0)
  return (
    `${(total / bytes.length / 1024).toFixed(1)} KB a product, ${(total / MiB).toFixed(1)} MiB for ` +
    `256 (Qdrant's default limit: 32 MiB)`
  )
}
const exactDoubles = (doc: IndexDocument) => ({
  ...toPoint(doc),
  vector: { text: Array.from(doc.vectors.text!), image: doc.vectors.image!.map((image) => Array.from(image)) }
})
console.log(`JSON, float32 values as exact doubles (before): ${sizes(exactDoubles)}`)
console.log(`JSON, unit length rounded to 1e-7 (float32): ${sizes((doc) => toPoint(doc, "float32"))}`)
console.log(`JSON, images rounded to 1e-5 (float16): ${sizes((doc) => toPoint(doc, "float16"))}`)

const run = async (url: string, label: string, options: Partial<QdrantIndexOptions>) => {
  const collection = `bench_${randomUUID().replaceAll("-", "")}`
  const points = products.map((doc) => ({ json: JSON.stringify(toPoint(doc, options.imageDatatype ?? "float16")) }))
  const requests = upsertChunks(points, encodedBytes, options.maxRequestBytes ?? 8 * MiB, 256).length
  const program = Effect.gen(function* () {
    const index = yield* CatalogIndex
    const started = performance.now()
    const outcome = yield* Effect.either(index.upsert(products))
    const seconds = (performance.now() - started) / 1000
    const result =
      outcome._tag === "Left"
        ? `FAILED: ${outcome.left.message.slice(0, 140)}`
        : `${(count / seconds).toFixed(0)} products/s`
    console.log(`| ${label} | ${requests} | ${seconds.toFixed(2)} s | ${result} |`)
  })
  await Effect.runPromise(
    Effect.provide(program, Layer.orDie(QdrantCatalogIndex.layer({ url, collection, ...options })))
  )
  await new QdrantClient({ url, checkCompatibility: false }).deleteCollection(collection)
}

/** The unrounded write path for comparison: exact doubles, 256 products a request, whatever their size. */
const runBefore = async (url: string) => {
  const collection = `bench_${randomUUID().replaceAll("-", "")}`
  const setup = Effect.provide(
    Effect.void,
    QdrantCatalogIndex.layer({ url, collection, imageDatatype: "float32", imageOnDisk: false })
  )
  await Effect.runPromise(Effect.orDie(setup))
  const client = new QdrantClient({ url, checkCompatibility: false, timeout: 120_000 })
  const started = performance.now()
  let result = ""
  try {
    for (let i = 0; i < products.length; i += 256) {
      await client.upsert(collection, { wait: true, points: products.slice(i, i + 256).map(exactDoubles) })
    }
    result = `${(count / ((performance.now() - started) / 1000)).toFixed(0)} products/s`
  } catch (error) {
    result = `FAILED: ${String((error as { data?: { status?: { error?: string } } }).data?.status?.error ?? error)}`
  }
  console.log(
    `| exact doubles, float32 in RAM, 256 products a request (before) | ${Math.ceil(count / 256)} | ` +
      `${((performance.now() - started) / 1000).toFixed(2)} s | ${result} |`
  )
  await client.deleteCollection(collection)
}

const main = async () => {
  const availability = qdrantAvailability()
  if ("skip" in availability) throw new Error(availability.skip)
  let server: QdrantServer | undefined
  const url = "binary" in availability ? (server = await startQdrant(availability.binary)).url : availability.url
  try {
    console.log(
      `\n${count} products of ${imagesPerProduct} images → | image storage, ` +
        `request cap | requests | time | throughput |`
    )
    await runBefore(url)
    await run(url, "float32 in RAM, 8 MiB a request", { imageDatatype: "float32", imageOnDisk: false })
    await run(url, "float16 on disk, 8 MiB a request (default)", {})
    await run(url, "float16 on disk, 2 MiB a request", { maxRequestBytes: 2 * MiB })
  } finally {
    await server?.stop()
  }
}

void main()
