/**
 * The Qdrant peer of the bulk section: the same products as the bulk push, as the points our
 * index ends up holding (words, columns and the text vector the worker computes), upserted
 * straight into the same Qdrant with its own client, in batches of 256 with `wait: true` (two in
 * flight), into a fresh collection of the same layout: the same vectors, and the same payload
 * indexes, the columns' included (without them Qdrant does less work a point than for ours, and
 * the filters and facets a shop needs would be missing). The column indexes are created inside
 * the clock, as our push into a fresh collection creates them inside its own when its first
 * batches bring the columns (about a second of Qdrant's time either way); the rate of the
 * upserts alone is printed beside. What a shop writing to Qdrant itself would get: products/s
 * until searchable, and Qdrant's CPU time per product.
 */
import { QdrantClient } from "@qdrant/js-client-rest"
import { Effect, Schema } from "effect"
import { ProductRecord } from "../../src/domain/Product.js"
import { embeddingText, toIndexDocument } from "../../src/model/ProductDocument.js"
import { ColumnIndexes, ensureCollection } from "../../src/services/catalog-index/qdrant/Collection.js"
import { toPoint } from "../../src/services/catalog-index/qdrant/Points.js"
import { resolveOptions } from "../../src/services/catalog-index/qdrant/QdrantOptions.js"
import { fmtRate, log } from "../catalog/common.js"
import type { Cluster } from "./cluster.js"
import { catalogTextVectors } from "./text-vectors.js"

const BATCH = 256
const IN_FLIGHT = 2

export interface PlainUpsert {
  readonly products: number
  /** From a fresh collection: its column indexes made, then the upserts. */
  readonly seconds: number
  /** The upserts alone. */
  readonly upsertSeconds: number
  /** Qdrant's CPU seconds over the upsert. */
  readonly qdrantCpu: number
}

const decodeRecord = Schema.decodeUnknownSync(ProductRecord)

export const plainUpsert = async (
  cluster: Cluster,
  items: ReadonlyArray<{ readonly id: string; readonly data: Record<string, unknown> }>,
  seed: number
): Promise<PlainUpsert | undefined> => {
  const qdrant = cluster.qdrant
  if (qdrant === undefined) return undefined
  const now = Date.now()
  const products = items.map((item) => ({
    siteId: cluster.siteId,
    productId: item.id,
    data: decodeRecord(item.data),
    images: [],
    version: 1,
    textVersion: 1,
    updatedAt: now,
    createdAt: now
  }))
  const vectors = await catalogTextVectors(
    products.map((p) => embeddingText(p.data)),
    seed,
    2
  )
  const docs = products.map((product, i) => toIndexDocument(product, vectors[i]))
  const points = docs.map((doc) => toPoint(doc))
  const collection = `${qdrant.collection}_plain`
  const client = new QdrantClient({ url: qdrant.url, checkCompatibility: false, timeout: 600_000 })
  await Effect.runPromise(ensureCollection(client, resolveOptions({ url: qdrant.url, collection })))
  try {
    const cpuStart = cluster.cpu().qdrant
    const started = performance.now()
    await Effect.runPromise(new ColumnIndexes(client, collection).ensure(docs))
    const indexed = performance.now()
    let next = 0
    const lane = async () => {
      while (next < points.length) {
        const batch = points.slice(next, next + BATCH)
        next += BATCH
        await client.upsert(collection, { wait: true, points: batch })
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane))
    const ended = performance.now()
    const seconds = (ended - started) / 1000
    const qdrantCpu = cluster.cpu().qdrant - cpuStart
    const indexes = Object.keys((await client.getCollection(collection)).payload_schema ?? {}).length
    log(
      `plain Qdrant upsert: ${points.length} points in ${seconds.toFixed(1)} s = ${fmtRate(points.length / seconds)}/s ` +
        `(its ${indexes} payload indexes made good first: ${((indexed - started) / 1000).toFixed(1)} s of it; ` +
        `the upserts alone ${fmtRate((1000 * points.length) / (ended - indexed))}/s), ` +
        `Qdrant ${((1000 * qdrantCpu) / points.length).toFixed(2)} CPU ms a product`
    )
    return { products: points.length, seconds, upsertSeconds: (ended - indexed) / 1000, qdrantCpu }
  } finally {
    await client.deleteCollection(collection).catch(() => false)
  }
}
