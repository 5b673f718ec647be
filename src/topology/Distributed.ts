import { Effect, Layer } from "effect"
import { suggestSource } from "../indexing/ProductIndexer.js"
import { toIndexDocument } from "../model/ProductDocument.js"
import type { AppConfigShape } from "../config/AppConfig.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { QdrantCatalogIndex } from "../services/catalog-index/QdrantCatalogIndex.js"
import { ReplicatedCatalogIndex } from "../services/catalog-index/ReplicatedCatalogIndex.js"
import { RedisCatalogStore } from "../services/catalog-store/RedisCatalogStore.js"
import { BullMqJobQueue } from "../services/job-queue/BullMqJobQueue.js"
import { RedisMemoryLog } from "../services/memory-log/RedisMemoryLog.js"
import { RedisPredictionStore } from "../services/prediction-store/RedisPredictionStore.js"
import { RedisRateLimiter } from "../services/rate-limiter/RedisRateLimiter.js"
import { RedisSessionStore } from "../services/session-store/RedisSessionStore.js"
import { RedisSuggester } from "../services/suggester/RedisSuggester.js"

/** Pages of the store the replicas rebuild from. */
const PAGE = 1_000

/**
 * The catalog as every process of the distributed topology sees it: records and derived data
 * in Redis, the index in Qdrant (QDRANT_URL) or else a replica in each process's memory fed
 * through Redis, and the suggester's vocabulary replicated the same way. Replicas rebuild from
 * the store, so a process can start, restart or fall behind at any time.
 */
export const distributedCatalog = (config: AppConfigShape & { readonly redisUrl: string }) => {
  const index = Layer.unwrapEffect(Effect.map(CatalogStore, (store) =>
    config.qdrantUrl !== undefined
      ? QdrantCatalogIndex.layer({ url: config.qdrantUrl, apiKey: config.qdrantApiKey, collection: config.qdrantCollection })
      : ReplicatedCatalogIndex.layer({
        redisUrl: config.redisUrl,
        rebuild: (apply) =>
          store.forEachIndexed(PAGE, (page) => apply(page.map(({ derived, images, product }) => toIndexDocument(product, derived.textVector, images))))
      })))
  const suggester = Layer.unwrapEffect(Effect.map(CatalogStore, (store) =>
    RedisSuggester.layer({
      redisUrl: config.redisUrl,
      rebuild: (apply) =>
        store.forEachIndexed(PAGE, (page) =>
          apply(page.map(({ product }) => ({ siteId: product.siteId, productId: product.productId, source: suggestSource(product) }))))
    })))
  return Layer.mergeAll(index, suggester, RedisPredictionStore.layer(config.redisUrl)).pipe(
    Layer.provideMerge(RedisCatalogStore.layer(config.redisUrl))
  )
}

/** What only the api process needs besides the catalog: stateless replicas keep all of it in Redis. */
export const distributedApiBackends = (config: AppConfigShape & { readonly redisUrl: string }) =>
  Layer.mergeAll(
    distributedCatalog(config),
    RedisMemoryLog.layer(config.redisUrl),
    RedisRateLimiter.layer(config.redisUrl),
    RedisSessionStore.layer(config.redisUrl),
    BullMqJobQueue.layer(config.redisUrl)
  )
