import { Config, type ConfigError, Duration, Effect, Layer, Option, Schedule, Scope } from "effect"
import { LegacySessionTtl } from "../search/LegacySessions.js"
import { periodicReconcile, reconcile, restoreIndex, restoreSuggestions } from "../indexing/Reconcile.js"
import { reconcileAggregation } from "../learning/Aggregation.js"
import { reconcileVisualSpaces } from "../visual-space/VisualSpaceFit.js"
import { checkRedisSettings } from "../platform/redis/RedisSettingsCheck.js"
import { Sqlite } from "../platform/Sqlite.js"
import { EmbeddedAuth } from "../services/auth/EmbeddedAuth.js"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import type { CatalogStore, StoreError } from "../services/catalog-store/CatalogStore.js"
import type { JobQueue } from "../services/job-queue/JobQueue.js"
import type { MemoryLog } from "../services/memory-log/MemoryLog.js"
import type { PredictionStore } from "../services/prediction-store/PredictionStore.js"
import type { RateLimiter } from "../services/rate-limiter/RateLimiter.js"
import type { SessionStore } from "../services/session-store/SessionStore.js"
import { EmbeddedCatalogIndex, makeEmbeddedCatalogIndex } from "../services/catalog-index/EmbeddedCatalogIndex.js"
import { ProcessEntry } from "./replica/ReplicaMessages.js"
import { LeaderChannel, SearchReplicaBackends } from "./replica/SearchReplicaBackends.js"
import { REPLICA_FLAG, SearchReplica } from "../services/search-replica/SearchReplica.js"
import { SearchReplicaLeader, type SearchReplicaSettings } from "./replica/SearchReplicaLeader.js"
import { QdrantCatalogIndex } from "../services/catalog-index/QdrantCatalogIndex.js"
import { IndexReplica } from "../services/catalog-index/ReplicatedCatalogIndex.js"
import { EmbeddedCatalogStore } from "../services/catalog-store/EmbeddedCatalogStore.js"
import { EmbeddedImageAnalyzer } from "../services/image-analyzer/EmbeddedImageAnalyzer.js"
import { EmbeddedImageIntake } from "../services/image-intake/EmbeddedImageIntake.js"
import { ImageIntakeConfig } from "../services/image-intake/ImageIntakeConfig.js"
import { BullMqJobQueue } from "../services/job-queue/BullMqJobQueue.js"
import { BullMqWorker } from "../services/job-queue/BullMqWorker.js"
import { EmbeddedJobQueue } from "../services/job-queue/EmbeddedJobQueue.js"
import { EmbeddedMemoryLog } from "../services/memory-log/EmbeddedMemoryLog.js"
import { RedisMemoryLog } from "../services/memory-log/RedisMemoryLog.js"
import type { EventLog } from "../services/event-log/EventLog.js"
import { EmbeddedEventLog } from "../services/event-log/EmbeddedEventLog.js"
import { RedisEventLog } from "../services/event-log/RedisEventLog.js"
import type { ShopperStats } from "../services/shopper-stats/ShopperStats.js"
import type { VisualSpaceStore } from "../visual-space/VisualSpaceStore.js"
import { EmbeddedVisualSpaceStore } from "../visual-space/EmbeddedVisualSpaceStore.js"
import { type SiteVisualSpaces, SiteVisualSpacesLive } from "../visual-space/SiteVisualSpaces.js"
import { EmbeddedShopperStats } from "../services/shopper-stats/EmbeddedShopperStats.js"
import { RedisShopperStats } from "../services/shopper-stats/RedisShopperStats.js"
import { type ShopperSignals, ShopperSignalsLive } from "../learning/ShopperSignals.js"
import { EmbeddedPredictionStore } from "../services/prediction-store/EmbeddedPredictionStore.js"
import { EmbeddedMerchandisingStore } from "../services/merchandising/EmbeddedMerchandisingStore.js"
import { RedisMerchandisingStore } from "../services/merchandising/RedisMerchandisingStore.js"
import type { MerchandisingStore } from "../services/merchandising/MerchandisingStore.js"
import { EmbeddedRateLimiter } from "../services/rate-limiter/EmbeddedRateLimiter.js"
import { RedisRateLimiter } from "../services/rate-limiter/RedisRateLimiter.js"
import { EmbeddedReadiness } from "../services/readiness/EmbeddedReadiness.js"
import { Readiness } from "../services/readiness/Readiness.js"
import { EmbeddedSessionStore } from "../services/session-store/EmbeddedSessionStore.js"
import { RedisSessionStore } from "../services/session-store/RedisSessionStore.js"
import type { SiteRegistry } from "../services/site-registry/SiteRegistry.js"
import { EmbeddedSiteRegistry } from "../services/site-registry/EmbeddedSiteRegistry.js"
import { SuggestReplica } from "../services/suggester/RedisSuggester.js"
import { EmbeddedSuggester } from "../services/suggester/EmbeddedSuggester.js"
import type { Suggester } from "../services/suggester/Suggester.js"
import { EmbeddedTextEmbedder } from "../services/text-embedder/EmbeddedTextEmbedder.js"
import { JobHandlersLive } from "../jobs/JobHandlers.js"
import { ProductImagesLive } from "../indexing/ProductImages.js"
import { ProductIndexerLive } from "../indexing/ProductIndexer.js"
import { distributedCatalog, type QdrantSettings } from "./DistributedCatalog.js"

/**
 * Which backends this deployment runs on: the only reader of REDIS_URL and QDRANT_URL.
 * - neither: the embedded topology — one process, SQLite under DATA_DIR, the in-memory index,
 *   jobs handled by fibers of the api process;
 * - QDRANT_URL alone: the same, with the index in Qdrant;
 * - REDIS_URL: the distributed topology — records, queues, sessions, memory and rate limits in
 *   Redis, indexing in worker processes (`npm run worker`), the index in Qdrant (QDRANT_URL) or
 *   else a replica in each process fed through Redis.
 */
export interface Topology {
  readonly redisUrl: string | undefined
  readonly qdrant: QdrantSettings | undefined
  /** SEARCH_REPLICAS (default 0). */
  readonly searchReplicas: number
}

const optionalUrl = (name: string) =>
  Config.option(Config.string(name)).pipe(
    Config.map(Option.flatMap((value) => (value.trim() === "" ? Option.none() : Option.some(value.trim())))),
    Config.map(Option.getOrUndefined)
  )

export const TopologyConfig: Config.Config<Topology> = Config.all({
  redisUrl: optionalUrl("REDIS_URL"),
  qdrantUrl: optionalUrl("QDRANT_URL"),
  qdrantApiKey: optionalUrl("QDRANT_API_KEY"),
  qdrantCollection: Config.string("QDRANT_COLLECTION").pipe(Config.withDefault("catalog")),
  searchReplicas: Config.integer("SEARCH_REPLICAS").pipe(
    Config.validate({ message: "SEARCH_REPLICAS is 0 to 8", validation: (n) => n >= 0 && n <= 8 }),
    Config.withDefault(0)
  )
}).pipe(
  Config.map(({ qdrantApiKey, qdrantCollection, qdrantUrl, redisUrl, searchReplicas }) => ({
    redisUrl,
    qdrant:
      qdrantUrl === undefined ? undefined : { url: qdrantUrl, apiKey: qdrantApiKey, collection: qdrantCollection },
    searchReplicas
  }))
)

/**
 * The search replica's settings when this process forks one: the embedded default with its
 * index in memory (the distributed topology scales by running more api processes instead).
 */
const replicaSettings = (topology: Topology, entry: string | undefined): SearchReplicaSettings | undefined =>
  topology.searchReplicas > 0 && topology.redisUrl === undefined && topology.qdrant === undefined && entry !== undefined
    ? { count: topology.searchReplicas, entry, execArgv: process.execArgv }
    : undefined

/** The model threads and image intake: every process that embeds or analyses has its own. */
const Models = Layer.mergeAll(
  EmbeddedImageAnalyzer.layer,
  EmbeddedImageIntake.layer.pipe(Layer.provide(ImageIntakeConfig.fromEnv)),
  EmbeddedTextEmbedder.layer
)

/** The handlers of every job kind, as the embedded queue and the BullMQ workers run them. */
const JobHandling = JobHandlersLive.pipe(Layer.provide([ProductIndexerLive, ProductImagesLive]))

/** The models and the site registry: the same in every topology. */
const Shared = Layer.mergeAll(
  Models,
  EmbeddedReadiness.layer,
  LegacySessionTtl.layer,
  EmbeddedAuth.layer.pipe(Layer.provideMerge(EmbeddedSiteRegistry.layer))
)

/** The embedded stores: SQLite tables under DATA_DIR (a search replica opens the same file). */
const embeddedStores = Layer.mergeAll(
  EmbeddedCatalogStore.layer,
  EmbeddedMemoryLog.layer,
  EmbeddedEventLog.layer,
  EmbeddedShopperStats.layer,
  EmbeddedPredictionStore.layer,
  EmbeddedMerchandisingStore.layer,
  EmbeddedSuggester.layer,
  EmbeddedSessionStore.layer,
  SiteVisualSpacesLive.pipe(Layer.provideMerge(EmbeddedVisualSpaceStore.layer))
)

/**
 * The index of the embedded api process: in Qdrant, in memory, or in memory with its writes
 * replayed by a search replica (SEARCH_REPLICAS, see replica/SearchReplicaLeader.ts).
 */
const embeddedIndex = (topology: Topology, replica: SearchReplicaSettings | undefined) =>
  topology.qdrant !== undefined
    ? QdrantCatalogIndex.layer(topology.qdrant)
    : replica === undefined
      ? EmbeddedCatalogIndex.layer
      : Layer.effect(
          CatalogIndex,
          Effect.map(SearchReplica, (leader) => makeEmbeddedCatalogIndex(undefined, leader.observer))
        ).pipe(Layer.provideMerge(SearchReplicaLeader.layer(replica)))

const embeddedBackends = (topology: Topology, replica: SearchReplicaSettings | undefined) =>
  Layer.mergeAll(embeddedStores, embeddedIndex(topology, replica), EmbeddedRateLimiter.layer).pipe(
    Layer.provideMerge(Sqlite.layer)
  )

/** The embedded topology runs the job handlers itself, in fibers of this process. */
const embeddedApi = (topology: Topology, replica: SearchReplicaSettings | undefined) =>
  EmbeddedJobQueue.layer().pipe(
    Layer.provide(JobHandling),
    Layer.provideMerge(Layer.mergeAll(embeddedBackends(topology, replica), Shared))
  )

/**
 * A search replica of the embedded default: the same stores over the leader's SQLite file, an
 * index replaying the leader's writes, the leader's rate limiter and job queue; no jobs of its own.
 */
const replicaApi = SearchReplicaBackends.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(embeddedStores, Shared).pipe(Layer.provideMerge(Sqlite.layer)))
)

/** The replica is ready once its index holds the catalog; it restores nothing and reconciles nothing. */
const replicaStartup = Layer.scopedDiscard(
  Effect.gen(function* () {
    const readiness = yield* Readiness
    const channel = yield* LeaderChannel
    yield* Effect.forkScoped(Effect.zipRight(channel.synced, readiness.markReady))
  })
)

/** The api of the distributed topology only reads and enqueues; stateless replicas keep all state in Redis. */
const distributedApi = (topology: Topology, redisUrl: string) =>
  Layer.mergeAll(
    distributedCatalog(redisUrl, topology.qdrant),
    RedisMemoryLog.layer(redisUrl),
    RedisEventLog.layer(redisUrl),
    RedisShopperStats.layer(redisUrl),
    RedisRateLimiter.layer(redisUrl),
    RedisSessionStore.layer(redisUrl),
    RedisMerchandisingStore.layer(redisUrl),
    BullMqJobQueue.layer(redisUrl),
    Shared
  )

/**
 * Completes once this process's replicas (distributed index, suggester vocabulary) are filled;
 * at once where there are none. The api is ready only then, and a worker takes jobs only then.
 */
const replicasSynced = Effect.gen(function* () {
  const index = yield* Effect.serviceOption(IndexReplica)
  if (Option.isSome(index)) yield* index.value.synced
  const suggester = yield* Effect.serviceOption(SuggestReplica)
  if (Option.isSome(suggester)) yield* suggester.value.synced
})

/**
 * Filling the in-memory state before the api reports ready: the embedded index (and the
 * suggester's vocabulary) is rebuilt from what the store kept, without model calls (a Qdrant
 * index keeps its own state, so only the vocabulary then); the distributed api checks Redis's
 * settings and waits for its replicas. Whatever was acknowledged but not indexed is queued.
 */
const apiWarmUp = (topology: Topology) =>
  topology.redisUrl === undefined
    ? (topology.qdrant === undefined
        ? restoreIndex
        : Effect.map(Effect.zip(restoreSuggestions, reconcile), ([restored, queued]) => ({ restored, queued }))
      ).pipe(Effect.flatMap((counts) => Effect.logInfo("index restored", counts)))
    : Effect.zipRight(checkRedisSettings(topology.redisUrl), replicasSynced).pipe(
        Effect.zipRight(
          Effect.logInfo("replicas synced", { index: topology.qdrant === undefined ? "replica" : "qdrant" })
        )
      )

/**
 * The merchandising store of this deployment alone (Redis with REDIS_URL, else the embedded
 * SQLite file under DATA_DIR), for the site CLI, which writes campaigns through the same code
 * as the API.
 */
export const MerchandisingStoreLive: Layer.Layer<MerchandisingStore, StoreError | ConfigError.ConfigError> =
  Layer.unwrapEffect(
    Effect.map(
      TopologyConfig,
      (topology): Layer.Layer<MerchandisingStore, StoreError | ConfigError.ConfigError> =>
        topology.redisUrl !== undefined
          ? RedisMerchandisingStore.layer(topology.redisUrl)
          : EmbeddedMerchandisingStore.layer.pipe(Layer.provide(Sqlite.layer))
    )
  )

/** What the routes need, whichever topology provides it. */
export type ApiServices =
  | Layer.Layer.Success<typeof Shared>
  | CatalogStore
  | CatalogIndex
  | Suggester
  | PredictionStore
  | MerchandisingStore
  | MemoryLog
  | EventLog
  | ShopperStats
  | ShopperSignals
  | RateLimiter
  | SessionStore
  | JobQueue
  | VisualSpaceStore
  | SiteVisualSpaces

/**
 * Startup work that must not hold the listener back: the warm-up, then the process is marked
 * ready; afterwards a periodic reconcile heals anything a crash or a lost job left behind
 * (products not indexed, events not aggregated).
 * The index is flushed after the listener has stopped taking requests (finalizers run in reverse).
 */
const apiStartup = (topology: Topology) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const readiness = yield* Readiness
      const replica = yield* Effect.serviceOption(SearchReplica)
      const scope = yield* Effect.scope
      const context = yield* Effect.context<
        | CatalogStore
        | CatalogIndex
        | Suggester
        | JobQueue
        | EventLog
        | ShopperStats
        | SiteRegistry
        | SiteVisualSpaces
        | VisualSpaceStore
        | RateLimiter
      >()
      yield* Effect.forkScoped(
        Effect.gen(function* () {
          yield* apiWarmUp(topology)
          yield* readiness.markReady
          // Forked once this process's index is whole: the replica fills its own from the store.
          if (Option.isSome(replica)) yield* replica.value.run.pipe(Scope.extend(scope))
          yield* Effect.all([periodicReconcile(), reconcileAggregation, reconcileVisualSpaces]).pipe(
            Effect.map(([indexing, aggregation, spaces]) => indexing + aggregation + spaces),
            Effect.tap((queued) => (queued > 0 ? Effect.logInfo("reconcile queued jobs", { queued }) : Effect.void)),
            Effect.catchAllCause((cause) => Effect.logWarning("reconcile failed", cause)),
            Effect.repeat(Schedule.spaced(Duration.minutes(1)))
          )
        }).pipe(
          Effect.provide(context),
          Effect.catchAllCause((cause) => Effect.logError("startup failed", cause))
        )
      )
      const index = yield* CatalogIndex
      yield* Effect.addFinalizer(() => index.flush.pipe(Effect.ignore))
    })
  )

/** The api process's services and its startup, chosen by configuration alone. */
export const ApiTopology: Layer.Layer<ApiServices, unknown> = Layer.unwrapEffect(
  Effect.gen(function* () {
    const topology = yield* TopologyConfig
    // Process wiring, not settings: a leader forks its replicas with this flag.
    if (process.argv.includes(REPLICA_FLAG))
      return replicaStartup.pipe(Layer.provideMerge(ShopperSignalsLive.pipe(Layer.provideMerge(replicaApi))))
    const entry = Option.getOrUndefined(yield* Effect.serviceOption(ProcessEntry))
    const replica = replicaSettings(topology, entry)
    const backends: Layer.Layer<Exclude<ApiServices, ShopperSignals>, unknown> = topology.redisUrl === undefined
      ? embeddedApi(topology, replica)
      : distributedApi(topology, topology.redisUrl)
    return apiStartup(topology).pipe(Layer.provideMerge(ShopperSignalsLive.pipe(Layer.provideMerge(backends))))
  })
)

/**
 * A worker process (`npm run worker`): the same shared catalog the api reads, the event log and
 * statistics the aggregation jobs read and write, model threads of its own, and the job
 * handlers fed from the BullMQ queues at REDIS_URL once its replicas are filled. A worker
 * without REDIS_URL has nothing to take jobs from: that fails the start.
 */
export const WorkerTopology = Layer.unwrapEffect(
  Effect.gen(function* () {
    const topology = yield* TopologyConfig
    const redisUrl = topology.redisUrl
    if (redisUrl === undefined)
      return yield* Effect.fail(
        new Error("a worker needs REDIS_URL: the embedded topology runs its jobs inside the api process")
      )
    const Ready = Layer.effectDiscard(Effect.zipRight(checkRedisSettings(redisUrl), replicasSynced))
    return BullMqWorker.layer(redisUrl).pipe(
      Layer.provide(Ready),
      Layer.provide(JobHandling),
      Layer.provideMerge(
        Layer.mergeAll(
          distributedCatalog(redisUrl, topology.qdrant),
          RedisEventLog.layer(redisUrl),
          RedisShopperStats.layer(redisUrl),
          Models
        )
      )
    )
  })
)
