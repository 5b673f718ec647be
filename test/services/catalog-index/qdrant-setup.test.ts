import { randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { QdrantClient, type Schemas } from "@qdrant/js-client-rest"
import { Effect, Layer } from "effect"
import { CatalogIndex } from "../../../src/services/catalog-index/CatalogIndex.js"
import { QdrantCatalogIndex } from "../../../src/services/catalog-index/QdrantCatalogIndex.js"
import { call } from "../../../src/services/catalog-index/qdrant/Request.js"
import type { QdrantIndexOptions } from "../../../src/services/catalog-index/qdrant/QdrantOptions.js"
import { emptyFilter } from "../../../src/model/Filter.js"
import { qdrantForThisFile } from "../../support/QdrantServer.js"
import { freePort } from "../../support/ServerProcess.js"
import { settings } from "../../support/Settings.js"
import { doc } from "./fixtures.js"

/**
 * Tests run on the live clock: the client's retries really wait.
 *
 * How the Qdrant index sets up its collection and talks to the server, against a real Qdrant
 * whose request limit is cut to 2 MiB (Qdrant reads QDRANT__ variables; the server starts in
 * this file's beforeAll), so chunking by size is tested without 32 MiB bodies.
 */
const SERVER_LIMIT_MB = 2
const previousLimit = process.env.QDRANT__SERVICE__MAX_REQUEST_SIZE_MB
process.env.QDRANT__SERVICE__MAX_REQUEST_SIZE_MB = String(SERVER_LIMIT_MB)
afterAll(() => {
  if (previousLimit === undefined) delete process.env.QDRANT__SERVICE__MAX_REQUEST_SIZE_MB
  else process.env.QDRANT__SERVICE__MAX_REQUEST_SIZE_MB = previousLimit
})

const qdrant = qdrantForThisFile()

const rawClient = () =>
  new QdrantClient({ url: qdrant.url, ...(qdrant.apiKey && { apiKey: qdrant.apiKey }), checkCompatibility: false })

/** A collection name of the test's own, dropped when the test's scope closes. */
const freshName = Effect.gen(function* () {
  const name = `setup_${randomUUID().replaceAll("-", "")}`
  yield* Effect.addFinalizer(() =>
    Effect.promise(() =>
      rawClient()
        .deleteCollection(name)
        .catch(() => false)
    )
  )
  return name
})

const layer = (collection: string, options: Partial<QdrantIndexOptions> = {}) =>
  QdrantCatalogIndex.layer({
    url: qdrant.url,
    apiKey: qdrant.apiKey,
    collection,
    textDimension: 4,
    imageDimension: 4,
    ...options
  })

/** The index over `collection` (built in the test's scope), or the error its setup failed with. */
const build = (collection: string, options: Partial<QdrantIndexOptions> = {}) =>
  Layer.build(layer(collection, options)).pipe(
    Effect.map((context) => context.unsafeMap.get(CatalogIndex.key) as CatalogIndex["Type"])
  )

const info = (collection: string) => Effect.promise(() => rawClient().getCollection(collection))

/** What the first version of the index created: float32 images in RAM, Qdrant's default HNSW. */
const earlier4: Schemas["CreateCollection"] = {
  vectors: {
    text: { size: 4, distance: "Cosine" },
    image: { size: 4, distance: "Cosine", multivector_config: { comparator: "max_sim" } }
  },
  sparse_vectors: { lexical: {}, grams: {} }
}

/** A unit vector of `dimension` numbers, seeded by `seed` (deterministic, no zeros). */
const unitVector = (dimension: number, seed: number): Array<number> => {
  const values = Array.from({ length: dimension }, (_, i) => Math.sin(seed * 7919 + i * 104729) + 1e-3)
  const norm = Math.hypot(...values)
  return values.map((value) => value / norm)
}

if (qdrant.available) {
  describe("Qdrant index setup and transport (real server)", () => {
    it.scopedLive(
      "a new collection has the multitenant layout in effect: per-site graphs, float16 images on disk, " +
        "per-site IDF, tenant and lexical indexes",
      () =>
        Effect.gen(function* () {
          const name = yield* freshName
          const index = yield* build(name)
          yield* index.upsert([
            doc("p", {
              text: { title: "Desk lamp" },
              payload: { brand: "Acme" },
              vector: [1, 0, 0, 0],
              images: [[0, 1, 0, 0]]
            })
          ])
          const { config, payload_schema } = yield* info(name)
          expect(config.hnsw_config).toMatchObject({ m: 0, payload_m: 16 })
          const vectors = config.params.vectors as Record<string, Schemas["VectorParams"]>
          expect(vectors.image).toMatchObject({
            size: 4,
            distance: "Cosine",
            datatype: "float16",
            on_disk: true,
            multivector_config: { comparator: "max_sim" }
          })
          expect(vectors.text).toMatchObject({ size: 4, distance: "Cosine" })
          // No server-side IDF: it would span every site (the query carries the site's own).
          expect(config.params.sparse_vectors?.lexical).toEqual({})
          expect(payload_schema.site_id?.params).toEqual({ type: "keyword", is_tenant: true })
          expect(payload_schema.terms?.params).toMatchObject({
            type: "integer",
            lookup: true,
            range: false,
            enable_hnsw: false
          })
          expect(payload_schema.id_order?.data_type).toBe("integer")
          // Column indexes serve filters and facets; per-value HNSW links would only slow indexing.
          expect(payload_schema["columns.brand"]?.params).toEqual({ type: "keyword", enable_hnsw: false })
        })
    )

    it.scopedLive("an existing collection with another layout is refused, naming every difference", () =>
      Effect.gen(function* () {
        const name = yield* freshName
        yield* Effect.promise(() =>
          rawClient().createCollection(name, {
            vectors: { text: { size: 8, distance: "Dot" }, image: { size: 4, distance: "Cosine" } },
            sparse_vectors: { lexical: { modifier: "idf" } }
          })
        )
        const error = yield* Effect.flip(build(name, { imageDatatype: "float16" }))
        expect(error._tag).toBe("IndexError")
        expect(error.message).toContain(`Qdrant collection "${name}" does not have the layout this index needs`)
        for (const problem of [
          'vector "text" has size 8, the index needs 4',
          'vector "text" has distance "Dot", the index needs "Cosine"',
          'vector "image" has datatype "float32", the index needs "float16"',
          'vector "image" has multivector comparator none, the index needs "max_sim"',
          'sparse vector "lexical" has modifier "idf", the index needs "none"'
        ])
          expect(error.message).toContain(problem)
        // Refused before anything was changed: no index was added to the foreign collection.
        expect((yield* info(name)).payload_schema).toEqual({})
      })
    )

    it.scopedLive("a setup interrupted after creating the collection, or an earlier one, heals at the next start", () =>
      Effect.gen(function* () {
        const name = yield* freshName
        // What a crash right after createCollection leaves (no tenant index, default HNSW), with
        // the first version's float32 images: kept, as the image datatype is not set.
        yield* Effect.promise(() => rawClient().createCollection(name, earlier4))
        // An earlier version's terms index: HNSW links per term value, the default.
        yield* Effect.promise(() =>
          rawClient().createPayloadIndex(name, { field_name: "terms", field_schema: "integer", wait: true })
        )
        const before = yield* info(name)
        expect(before.payload_schema.site_id).toBeUndefined()
        expect(before.config.hnsw_config.m).toBe(16)
        const index = yield* build(name)
        const after = yield* info(name)
        expect(after.payload_schema.site_id?.params).toEqual({ type: "keyword", is_tenant: true })
        expect(after.payload_schema.terms?.params).toMatchObject({
          type: "integer",
          lookup: true,
          range: false,
          enable_hnsw: false
        })
        expect(after.payload_schema.id_order?.params).toMatchObject({
          type: "integer",
          lookup: false,
          range: true,
          enable_hnsw: false
        })
        expect(after.config.hnsw_config).toMatchObject({ m: 0, payload_m: 16 })
        expect((after.config.params.vectors as Record<string, Schemas["VectorParams"]>).image).toMatchObject({
          on_disk: true
        })
        expect(
          (after.config.params.vectors as Record<string, Schemas["VectorParams"]>).image.datatype ?? "float32"
        ).toBe("float32")
        // And it works: a second start finds nothing to do and the index reads and writes.
        yield* build(name)
        yield* index.upsert([doc("p", { vector: [1, 0, 0, 0], images: [[0.6, 0.8, 0, 0]] })])
        expect(yield* index.count(1, emptyFilter)).toBe(1)
        // float32 images are sent to float32's precision: 0.6 and 0.8 come back to 1e-7.
        const [stored] = yield* index.retrieve(1, ["p"])
        expect(Math.abs(stored.vectors.image![0][0] - 0.6)).toBeLessThan(1e-7)
      })
    )

    it.scopedLive("products whose JSON exceeds the server's request limit are upserted in chunks below it", () =>
      Effect.gen(function* () {
        const name = yield* freshName
        const dimension = 1792
        // 3 images of 1792 numbers: ~50 KB of JSON a product, 80 products ~4 MB, twice the limit.
        const products = Array.from({ length: 80 }, (_, i) =>
          doc(`p${i}`, { images: [0, 1, 2].map((k) => unitVector(dimension, i * 3 + k)), vector: unitVector(4, i) })
        )
        const index = yield* build(name, { imageDimension: dimension, maxRequestBytes: 1024 * 1024 })
        yield* index.upsert(products)
        expect(yield* index.count(1, emptyFilter)).toBe(80)
        const [stored] = yield* index.retrieve(1, ["p7"])
        const image = stored.vectors.image![2]
        const expected = products[7].vectors.image![2]
        // float16 storage: each number within its half-precision step.
        for (let i = 0; i < dimension; i++) expect(Math.abs(image[i] - expected[i])).toBeLessThan(1e-3)
        // One request with all of them is refused: Qdrant answers 400 as soon as the length is
        // over its limit and closes the connection, so the client, still writing, sees EPIPE.
        const tooBig = yield* build(name, { imageDimension: dimension, maxRequestBytes: 64 * 1024 * 1024 })
        const error = yield* Effect.flip(tooBig.upsert(products))
        expect(error.message).toMatch(
          /^Qdrant upsert failed: (the connection failed \(write EPIPE\)|400 Bad Request: JSON payload)/
        )
      })
    )

    it.scopedLive("a 422's reason reaches the error", () =>
      Effect.gen(function* () {
        const name = yield* freshName
        yield* build(name)
        const client = rawClient()
        const error = yield* Effect.flip(
          call("upsert", () =>
            client.upsert(name, { points: [{ id: 1, vector: { lexical: { indices: [3, 3], values: [1, 1] } } }] })
          )
        )
        expect(error.message).toContain("Qdrant upsert failed: 422 Unprocessable Entity: Validation error in JSON body")
        expect(error.message).toContain("must be unique")
      })
    )

    it.scopedLive("queries and writes have their own timeouts", () =>
      Effect.gen(function* () {
        const name = yield* freshName
        // A 1 ms query timeout: the setup and the upsert (write timeout) pass, a read cannot. An
        // uncompressed count can answer within 1 ms; a read of 20,000 ids (~800 KB) cannot.
        const index = yield* build(name, { queryTimeoutMs: 1 })
        yield* index.upsert([doc("p", { vector: [1, 0, 0, 0] })])
        const error = yield* Effect.flip(
          index.retrieve(
            1,
            Array.from({ length: 20_000 }, (_, i) => `p${i}`)
          )
        )
        expect(error.message).toBe("Qdrant retrieve failed: no answer within the timeout (2 attempts)")
      })
    )

    it.scopedLive("its settings reach the index, and a bad one stops the setup naming it", () =>
      Effect.gen(function* () {
        const name = yield* freshName
        const context = yield* Layer.build(
          layer(name).pipe(Layer.provide(settings({ QDRANT_IMAGE_DATATYPE: "float32", QDRANT_IMAGE_ON_DISK: false })))
        )
        expect(context.unsafeMap.has(CatalogIndex.key)).toBe(true)
        const vectors = (yield* info(name)).config.params.vectors as Record<string, Schemas["VectorParams"]>
        expect(vectors.image).toMatchObject({ datatype: "float32" })
        expect(vectors.image.on_disk ?? false).toBe(false)
        const error = yield* Effect.flip(
          Layer.build(layer(yield* freshName).pipe(Layer.provide(settings({ QDRANT_QUERY_TIMEOUT_MS: 0 }))))
        )
        expect(String(error)).toContain("QDRANT_QUERY_TIMEOUT_MS must be a positive whole number")
      })
    )

    it.scopedLive("a server nobody listens on fails the setup quickly with a clear IndexError", () =>
      Effect.gen(function* () {
        const url = `http://127.0.0.1:${yield* Effect.promise(freePort)}`
        const started = Date.now()
        const error = yield* Effect.flip(Layer.build(QdrantCatalogIndex.layer({ url, collection: "nowhere" })))
        expect(Date.now() - started).toBeLessThan(5_000)
        expect(error.message).toMatch(
          /^Qdrant checking the collection failed: the connection failed \(connect ECONNREFUSED 127\.0\.0\.1:\d+\) \(4 attempts\)$/
        )
      })
    )

    it.scopedLive("a stopped server fails reads quickly, and the index works again once it is back", () =>
      Effect.gen(function* () {
        const server = qdrant.server
        if (server === undefined) return // a shared QDRANT_URL server is not ours to stop
        const name = yield* freshName
        const index = yield* build(name)
        yield* index.upsert([doc("p", { vector: [1, 0, 0, 0] })])
        yield* Effect.promise(() => server.stop())
        const started = Date.now()
        const error = yield* Effect.flip(index.count(1, emptyFilter))
        expect(Date.now() - started).toBeLessThan(5_000)
        expect(error.message).toContain("Qdrant count failed: the connection failed")
        yield* Effect.promise(() => server.restart())
        expect(yield* index.count(1, emptyFilter)).toBe(1)
      })
    )
  })
} else {
  console.warn(qdrant.skipReason)
  describe.skip(`Qdrant index setup and transport (${qdrant.skipReason})`, () => {
    it("sets up the collection and talks to a real Qdrant server", () => {})
  })
}
