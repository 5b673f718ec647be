import { Effect, Layer } from "effect"
import { restoredDocuments, suggestSource } from "../indexing/ProductIndexer.js"
import { type SiteVisualSpaces, SiteVisualSpacesLive } from "../visual-space/SiteVisualSpaces.js"
import { RedisVisualSpaceStore } from "../visual-space/RedisVisualSpaceStore.js"
import { QdrantCatalogIndex } from "../services/catalog-index/QdrantCatalogIndex.js"
import { ReplicatedCatalogIndex } from "../services/catalog-index/ReplicatedCatalogIndex.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { RedisCatalogStore } from "../services/catalog-store/RedisCatalogStore.js"
import { RedisPredictionStore } from "../services/prediction-store/RedisPredictionStore.js"
import { RedisSuggester } from "../services/suggester/RedisSuggester.js"

/** Where the index lives when it is in Qdrant (QDRANT_URL, QDRANT_API_KEY, QDRANT_COLLECTION). */
export interface QdrantSettings {
  readonly url: string
  readonly apiKey: string | undefined
  readonly collection: string
}

/** Pages of the store the replicas rebuild from. */
const PAGE = 1_000

/**
 * The catalog as every process of the distributed topology sees it (api and workers alike):
 * records, derived data and the sites' learned visual spaces in Redis, the index in Qdrant or
 * else a replica in each process's memory fed through Redis, and the suggester's vocabulary
 * replicated the same way. Replicas rebuild from the store, so a process can start, restart or
 * fall behind at any time.
 */
export const distributedCatalog = (redisUrl: string, qdrant: QdrantSettings | undefined) => {
  const index = Layer.unwrapEffect(
    Effect.map(Effect.context<CatalogStore | SiteVisualSpaces>(), (context) =>
      qdrant !== undefined
        ? QdrantCatalogIndex.layer(qdrant, { redisUrl })
        : ReplicatedCatalogIndex.layer({
            redisUrl,
            rebuild: (apply) =>
              Effect.flatMap(CatalogStore, (store) =>
                store.forEachProduct(PAGE, (page) =>
                  Effect.flatMap(restoredDocuments(page), apply).pipe(Effect.provide(context))
                )
              ).pipe(Effect.provide(context))
          })
    )
  )
  const suggester = Layer.unwrapEffect(
    Effect.map(CatalogStore, (store) =>
      RedisSuggester.layer({
        redisUrl,
        rebuild: (apply) =>
          store.forEachProduct(PAGE, (page) => apply(page.map(({ product }) => suggestSource(product))))
      })
    )
  )
  const spaces = SiteVisualSpacesLive.pipe(Layer.provideMerge(RedisVisualSpaceStore.layer(redisUrl)))
  return Layer.mergeAll(index, suggester, RedisPredictionStore.layer(redisUrl)).pipe(
    Layer.provideMerge(Layer.mergeAll(RedisCatalogStore.layer(redisUrl), spaces))
  )
}
