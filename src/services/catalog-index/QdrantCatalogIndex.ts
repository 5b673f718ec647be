import { productIdOf } from "./qdrant/Layout.js"
import { type ConfigError, Context, Effect, Layer } from "effect"
import { CatalogIndex, IndexError, type CatalogIndexService } from "./CatalogIndex.js"
import type { IndexDocument } from "../../model/IndexDocument.js"
import { facet, histogram, numericStats } from "./qdrant/Aggregates.js"
import { clients, type Qdrant } from "./qdrant/Client.js"
import { call } from "./qdrant/Request.js"
import { ColumnIndexes, ensureCollection } from "./qdrant/Collection.js"
import { toQdrantFilter } from "./qdrant/FilterTranslation.js"
import { IMAGE_VECTOR, TEXT_VECTOR } from "./qdrant/Layout.js"
import { QdrantTuning, resolveOptions, withTuning, type QdrantIndexOptions } from "./qdrant/QdrantOptions.js"
import { pointIds } from "./qdrant/PointIds.js"
import { type DocumentTerms, documentTerms } from "./qdrant/SparseText.js"
import { inSlices } from "../../platform/YieldToIo.js"
import type { Schemas } from "@qdrant/js-client-rest"
import { byProductId } from "./qdrant/IdOrder.js"
import { encodedBytes, newerKept, toDocument, toPoint, upsertChunks } from "./qdrant/Points.js"
import { facets, matchIds, search } from "./qdrant/Query.js"
import { feedTermReplica, localTermReplica, type TermChange } from "./qdrant/TermReplica.js"
import { IndexReplica } from "./ReplicatedCatalogIndex.js"

/** Documents analysed and encoded between two chances for other requests to run. */
const SLICE = 16

/** Most points per upsert request (fewer when their JSON reaches `maxRequestBytes`). */
const UPSERT_CHUNK = 256

/** Why `docs` cannot be indexed (a vector of another size than the collection's), or null. */
const rejection = (q: Qdrant, docs: ReadonlyArray<IndexDocument>): string | null => {
  for (const doc of docs) {
    const sizes = [
      ...(doc.vectors.text ? [["text", doc.vectors.text.length, q.options.textDimension] as const] : []),
      ...(doc.vectors.image ?? []).map((image) => ["image", image.length, q.options.imageDimension] as const)
    ]
    for (const [name, size, expected] of sizes) {
      if (size !== expected)
        return `${name} vector of ${doc.productId} has ${size} dimensions, the index uses ${expected}`
    }
  }
  return null
}

const termsOf = (doc: IndexDocument): TermChange => ({
  _tag: "Put",
  siteId: doc.siteId,
  productId: doc.productId,
  ...(doc.version === undefined ? {} : { version: doc.version }),
  text: doc.text,
  payload: doc.payload,
  embedded: doc.vectors.text !== undefined
})

const make = (q: Qdrant): CatalogIndexService => {
  const retrieve = (siteId: number, productIds: ReadonlyArray<string>) =>
    productIds.length === 0
      ? Effect.succeed([])
      : call("retrieve", () =>
          q.client.retrieve(q.collection, {
            ids: pointIds(siteId, productIds),
            with_payload: true,
            with_vector: [TEXT_VECTOR, IMAGE_VECTOR]
          })
        ).pipe(
          Effect.map((records) => {
            const byProduct = new Map(
              records.map((record) => [productIdOf(record.payload), toDocument(siteId, record)])
            )
            return productIds.flatMap((id) => byProduct.get(id) ?? [])
          })
        )

  return {
    // A point's payload could be set alone, but set_payload is one operation per point (each
    // its own payload): a batch request of them is slower than a whole-point upsert of as many.
    // So the caller upserts whole documents here.
    refreshColumns: (updates) => Effect.succeed(updates.map(() => false)),
    upsert: (docs) =>
      Effect.gen(function* () {
        // Checked before any write, so a bad batch changes nothing (Qdrant would reject only its chunk).
        const rejected = rejection(q, docs)
        if (rejected !== null) return yield* Effect.fail(new IndexError({ message: rejected }))
        yield* q.columns.ensure(docs)
        // Analysed once: the points' lexical vectors and the term memory's terms. Each point
        // encoded once: its size decides the chunks, its JSON is sent as it is. In slices, so
        // a search arriving meanwhile waits for a slice, not the batch.
        const analysed: Array<DocumentTerms> = []
        const points: Array<{ readonly point: Schemas["PointStruct"]; readonly json: string }> = []
        yield* inSlices(docs, SLICE, (slice) =>
          Effect.sync(() => {
            for (const doc of slice) {
              const terms = documentTerms(doc.text)
              const point = toPoint(doc, q.options.imageDatatype, terms)
              analysed.push(terms)
              points.push({ point, json: JSON.stringify(point) })
            }
          })
        )
        let written = 0
        for (const chunk of upsertChunks(points, encodedBytes, q.options.maxRequestBytes, UPSERT_CHUNK)) {
          const guard = newerKept(chunk.map(({ point }) => point))
          const filter = guard === undefined ? "" : `,"update_filter":${JSON.stringify(guard)}`
          const body = `{"points":[${chunk.map(({ json }) => json).join(",")}]${filter}}`
          yield* call("upsert", () => q.sendWrite("PUT", "points?wait=true", body))
          // The words of what Qdrant holds now (an older version it kept out is kept out here too).
          const end = written + chunk.length
          yield* q.terms.written(docs.slice(written, end).map(termsOf), analysed.slice(written, end))
          written += chunk.length
        }
      }),
    // Point ids derive from (site, product), so deleting by id is already scoped to the site.
    remove: (siteId, productIds) =>
      productIds.length === 0
        ? Effect.void
        : call("delete", () =>
            q.writer.delete(q.collection, { wait: true, points: pointIds(siteId, productIds) })
          ).pipe(Effect.zipRight(q.terms.written([{ _tag: "Remove", siteId, productIds }]))),
    search: (query) => search(q, query),
    // Qdrant matches words and vectors in one batch of requests: nothing to start ahead.
    prepare: () => Effect.void,
    matchIds: (query) => matchIds(q, query),
    facets: (scope, request) => facets(q, scope, request),
    facet: (siteId, column, scope, limit) => facet(q, siteId, column, scope, limit),
    numericStats: (siteId, column, scope) => numericStats(q, siteId, column, scope),
    histogram: (siteId, column, scope, edges) => histogram(q, siteId, column, scope, edges),
    retrieve,
    scroll: (siteId, filter, limit, after) =>
      Effect.gen(function* () {
        if (limit < 1) return { docs: [], next: null }
        const { records, more } = yield* byProductId(q, toQdrantFilter(siteId, filter), limit, [], after)
        const page = records.map((record) => productIdOf(record.payload))
        return { docs: yield* retrieve(siteId, page), next: more ? page[page.length - 1] : null }
      }),
    count: (siteId, filter) =>
      call("count", () => q.client.count(q.collection, { filter: toQdrantFilter(siteId, filter), exact: true })).pipe(
        Effect.map((result) => result.count)
      ),
    // Qdrant persists every acknowledged write (upserts use `wait: true`): nothing is buffered.
    flush: Effect.void
  }
}

/**
 * The CatalogIndex on Qdrant: one collection for every site (the site is a tenant key on each
 * point and in each filter), dense "text" and multivector "image" vectors, sparse "lexical"
 * (per field and term; per-site IDF comes with the query) and "grams" (typo candidates) vectors,
 * payload indexes for the columns, the lexical keys ("terms") and the product-id order.
 * The collection is created on first use; an existing one must have the same layout (see
 * qdrant/Collection.ts), and its payload indexes are made good on every start.
 */
export const QdrantCatalogIndex = {
  /**
   * Scoped: with `feed`, the Redis connections of the term memory's change feed, and this
   * process's replica (IndexReplica) is synced once its memory is filled.
   */
  layer: (
    given: QdrantIndexOptions,
    feed?: { readonly redisUrl: string }
  ): Layer.Layer<CatalogIndex | IndexReplica, IndexError | ConfigError.ConfigError> =>
    Layer.scopedContext(
      Effect.gen(function* () {
        const options = withTuning(yield* QdrantTuning, given)
        const resolved = resolveOptions(options)
        const { client, writer, sendQuery, sendWrite } = clients(options, resolved)
        const { imageDatatype, schema } = yield* ensureCollection(writer, resolved)
        const columns = new ColumnIndexes(writer, resolved.collection)
        columns.load(schema)
        const base = {
          client,
          writer,
          sendQuery,
          sendWrite,
          collection: resolved.collection,
          options: { ...resolved, imageDatatype },
          columns
        }
        const terms = yield* feed === undefined
          ? localTermReplica(base)
          : feedTermReplica(base, feed.redisUrl, `${resolved.collection}:terms`)
        return Context.make(CatalogIndex, make({ ...base, terms })).pipe(
          Context.add(IndexReplica, { synced: terms.synced, lag: terms.lag })
        )
      })
    )
} as const
