import { randomUUID } from "node:crypto"
import { QdrantClient } from "@qdrant/js-client-rest"
import { Effect, Layer } from "effect"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { QdrantCatalogIndex } from "../../src/services/catalog-index/QdrantCatalogIndex.js"
import type { IndexDocument } from "../../src/model/IndexDocument.js"
import type { EvalQuery } from "./Dataset.js"
import { productRankings } from "./Runs.js"

/** Documents per upsert call (the index chunks requests by size below that). */
const BATCH = 1_000

/**
 * The product path again with the index in Qdrant: the documents the embedded index holds
 * (the same text, columns and vectors the catalog path wrote) go into a fresh collection of
 * the Qdrant at `url`, and textSearch runs every query with that index in place of the
 * embedded one: same store, embedder and search code, only the backend differs. The
 * collection is dropped afterwards.
 */
export const qdrantProductRankings = (
  url: string,
  docs: ReadonlyArray<IndexDocument>,
  siteId: number,
  queries: ReadonlyArray<EvalQuery>
) =>
  Effect.gen(function* () {
    const collection = `relevance_eval_${randomUUID().replaceAll("-", "")}`
    yield* Effect.addFinalizer(() =>
      Effect.promise(() =>
        new QdrantClient({ url, checkCompatibility: false }).deleteCollection(collection).catch(() => false)
      )
    )
    const context = yield* Layer.build(
      QdrantCatalogIndex.layer({ url, collection, textDimension: docs[0]?.vectors.text?.length ?? 512 })
    )
    const index = context.unsafeMap.get(CatalogIndex.key) as CatalogIndex["Type"]
    const started = performance.now()
    for (let i = 0; i < docs.length; i += BATCH) yield* index.upsert(docs.slice(i, i + BATCH))
    const loadMs = performance.now() - started
    const run = yield* productRankings(siteId, queries).pipe(Effect.provideService(CatalogIndex, index))
    return { ...run, loadMs }
  }).pipe(Effect.orDie, Effect.scoped)
