/**
 * The Qdrant peer of the bulk section: the same products as the bulk push, as the points our
 * index ends up holding (words, columns and the text vector the worker computes), upserted
 * straight into the same Qdrant with its own client, in batches of 256 with `wait: true` (two in
 * flight), into a fresh collection of the same layout: the same vectors, and the same payload
 * indexes, the columns' included (created before the clock starts, as a shop would at setup;
 * our push creates them as its first batches bring the columns). Without them Qdrant does a
 * quarter less work a point than for ours, and the filters and facets a shop needs would be
 * missing. What a shop writing to Qdrant itself would get: products/s until searchable, and
 * Qdrant's CPU time per product.
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
  readonly seconds: number
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
  await Effect.runPromise(new ColumnIndexes(client, collection).ensure(docs))
  const indexes = Object.keys((await client.getCollection(collection)).payload_schema ?? {}).length
  try {
    const cpuStart = cluster.cpu().qdrant
    const started = performance.now()
    let next = 0
    const lane = async () => {
      while (next < points.length) {
        const batch = points.slice(next, next + BATCH)
        next += BATCH
        await client.upsert(collection, { wait: true, points: batch })
      }
    }
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane))
    const seconds = (performance.now() - started) / 1000
    const qdrantCpu = cluster.cpu().qdrant - cpuStart
    log(
      `plain Qdrant upsert: ${points.length} points in ${seconds.toFixed(1)} s = ${fmtRate(points.length / seconds)}/s ` +
        `(${indexes} payload indexes), ` +
        `Qdrant ${((1000 * qdrantCpu) / points.length).toFixed(2)} CPU ms a product`
    )
    return { products: points.length, seconds, qdrantCpu }
  } finally {
    await client.deleteCollection(collection).catch(() => false)
  }
}
