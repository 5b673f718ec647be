import { Effect, Layer } from "effect"
import { reconcile, restoreIndex, restoreSuggestions } from "../indexing/Reconcile.js"
import { EmbeddedCatalogIndex } from "../services/catalog-index/EmbeddedCatalogIndex.js"
import { EmbeddedCatalogStore } from "../services/catalog-store/EmbeddedCatalogStore.js"
import { EmbeddedMemoryLog } from "../services/memory-log/EmbeddedMemoryLog.js"
import { EmbeddedPredictionStore } from "../services/prediction-store/EmbeddedPredictionStore.js"
import { EmbeddedRateLimiter } from "../services/rate-limiter/EmbeddedRateLimiter.js"
import { EmbeddedSessionStore } from "../services/session-store/EmbeddedSessionStore.js"
import { Sqlite } from "../platform/Sqlite.js"
import { EmbeddedSuggester } from "../services/suggester/EmbeddedSuggester.js"
import type { AppConfigShape } from "../config/AppConfig.js"
import { QdrantCatalogIndex } from "../services/catalog-index/QdrantCatalogIndex.js"

/**
 * The embedded topology: every backend inside this process, durable state in one SQLite file
 * under DATA_DIR, jobs run by the api process itself. With QDRANT_URL (and no REDIS_URL) the
 * index alone moves to Qdrant.
 */
export const embeddedBackends = (config: AppConfigShape) =>
  Layer.mergeAll(
    EmbeddedCatalogStore.layer,
    EmbeddedMemoryLog.layer,
    EmbeddedPredictionStore.layer,
    EmbeddedSuggester.layer,
    config.qdrantUrl === undefined
      ? EmbeddedCatalogIndex.layer
      : QdrantCatalogIndex.layer({ url: config.qdrantUrl, apiKey: config.qdrantApiKey, collection: config.qdrantCollection }),
    EmbeddedRateLimiter.layer,
    EmbeddedSessionStore.layer
  ).pipe(Layer.provideMerge(Sqlite.layer))

/**
 * Startup of the embedded topology: the in-memory index (and the suggester's vocabulary) is
 * rebuilt from what the store kept, without model calls; a Qdrant index keeps its own state,
 * so only the vocabulary is rebuilt then. Whatever was acknowledged but not indexed is queued.
 */
export const embeddedStartup = (config: AppConfigShape) =>
  config.qdrantUrl === undefined
    ? restoreIndex
    : Effect.map(Effect.zip(restoreSuggestions, reconcile), ([restored, queued]) => ({ restored, queued }))
