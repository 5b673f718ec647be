import { HttpApiSwagger, HttpLayerRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Duration, Effect, Layer, Schedule } from "effect"
import { createServer } from "node:http"
import { JobHandlersLive } from "./indexing/JobHandlers.js"
import { ProductIndexerLive } from "./indexing/ProductIndexer.js"
import { reconcile } from "./indexing/Reconcile.js"
import { AppConfig } from "./config/AppConfig.js"
import { CommerceApi } from "./http/Api.js"
import { AuthenticationLive } from "./http/Authentication.js"
import { CatalogHandlers } from "./http/handlers/CatalogHandlers.js"
import { LegacyHandlers } from "./http/handlers/LegacyHandlers.js"
import { LegacySessionHandlers } from "./http/handlers/LegacySessionHandlers.js"
import { OpsHandlers } from "./http/handlers/OpsHandlers.js"
import { PredictionHandlers } from "./http/handlers/PredictionHandlers.js"
import { SearchHandlers } from "./http/handlers/SearchHandlers.js"
import { responsePolicy } from "./http/ResponsePolicy.js"
import { Auth } from "./services/auth/Auth.js"
import { McpRoute } from "./mcp/McpRoute.js"
import { ProductImagesLive } from "./indexing/ProductImages.js"
import { CatalogIndex } from "./services/catalog-index/CatalogIndex.js"
import { EmbeddedJobQueue } from "./services/job-queue/EmbeddedJobQueue.js"
import { Readiness } from "./services/readiness/Readiness.js"
import { SiteRegistry } from "./services/site-registry/SiteRegistry.js"
import { Suggester } from "./services/suggester/Suggester.js"
import { CatalogStore } from "./services/catalog-store/CatalogStore.js"
import { MemoryLog } from "./services/memory-log/MemoryLog.js"
import { PredictionStore } from "./services/prediction-store/PredictionStore.js"
import { RateLimiter } from "./services/rate-limiter/RateLimiter.js"
import { SessionStore } from "./services/session-store/SessionStore.js"
import { JobQueue } from "./services/job-queue/JobQueue.js"
import { checkRedisSettings } from "./platform/redis/RedisSettingsCheck.js"
import { distributedApiBackends } from "./topology/Distributed.js"
import { embeddedBackends, embeddedStartup } from "./topology/Embedded.js"
import { Models, replicasSynced } from "./topology/Shared.js"

/** The models and the site registry: the same in every topology. */
const Shared = Layer.mergeAll(
  Models,
  Readiness.layer,
  Auth.layer.pipe(Layer.provideMerge(SiteRegistry.layer))
)

/** The embedded topology runs the job handlers itself, in fibers of this process. */
const Indexing = EmbeddedJobQueue().pipe(Layer.provide(JobHandlersLive), Layer.provide([ProductIndexerLive, ProductImagesLive]))

/** What the routes and the startup need, whichever topology provides it. */
type ServicesOut =
  | Layer.Layer.Success<typeof Indexing>
  | Layer.Layer.Success<typeof Shared>
  | CatalogStore | CatalogIndex | Suggester | PredictionStore | MemoryLog | RateLimiter | SessionStore

/**
 * The backends by configuration alone: REDIS_URL selects the distributed topology (the
 * workers index; this process only reads and enqueues), QDRANT_URL the Qdrant index.
 */
export const Services: Layer.Layer<ServicesOut, unknown, AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config): Layer.Layer<ServicesOut, unknown, AppConfig> => {
    const { redisUrl } = config
    if (redisUrl === undefined) return Indexing.pipe(Layer.provideMerge(Layer.mergeAll(embeddedBackends(config), Shared)))
    return Layer.mergeAll(distributedApiBackends({ ...config, redisUrl }), Shared)
  })
)

/**
 * Startup work that must not hold the listener back: fill the in-memory state (the embedded
 * index from the store, or the replicas from Redis), then mark the process ready; afterwards a
 * periodic reconcile heals anything a crash or a lost job left behind.
 */
const Startup = Layer.scopedDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    const readiness = yield* Readiness
    const context = yield* Effect.context<CatalogStore | CatalogIndex | Suggester | JobQueue>()
    yield* Effect.forkScoped(
      Effect.gen(function*() {
        if (config.redisUrl === undefined) {
          const { restored, queued } = yield* embeddedStartup(config)
          yield* Effect.logInfo("index restored", { restored, queued })
        } else {
          yield* checkRedisSettings(config.redisUrl)
          yield* replicasSynced
          yield* Effect.logInfo("replicas synced", { index: config.qdrantUrl === undefined ? "replica" : "qdrant" })
        }
        yield* readiness.markReady
        yield* reconcile.pipe(
          Effect.tap((queued) => (queued > 0 ? Effect.logInfo("reconcile queued jobs", { queued }) : Effect.void)),
          Effect.catchAllCause((cause) => Effect.logWarning("reconcile failed", cause)),
          Effect.repeat(Schedule.spaced(Duration.minutes(1)))
        )
      }).pipe(Effect.provide(context), Effect.catchAllCause((cause) => Effect.logError("startup failed", cause)))
    )
    // Flush the index after the listener has stopped taking requests (finalizers run in reverse).
    const index = yield* CatalogIndex
    yield* Effect.addFinalizer(() => index.flush.pipe(Effect.ignore))
  })
)

const ApiRoutes = HttpLayerRouter.addHttpApi(CommerceApi, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([SearchHandlers, CatalogHandlers, LegacyHandlers, OpsHandlers, PredictionHandlers, LegacySessionHandlers]),
  Layer.provide(AuthenticationLive)
)

const Routes = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Layer.mergeAll(ApiRoutes, McpRoute, HttpApiSwagger.layerHttpLayerRouter({ api: CommerceApi, path: "/docs" })).pipe(
      Layer.provide(responsePolicy(config.maxBodyBytes))
    ))
)

const HttpServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
)

/** The whole api process; `config` decides where it listens and keeps its data. */
export const App = <E>(config: Layer.Layer<AppConfig, E>) =>
  HttpLayerRouter.serve(Routes, { disableLogger: true }).pipe(
    Layer.provideMerge(HttpServerLive),
    Layer.provideMerge(Startup),
    Layer.provideMerge(Services),
    Layer.provideMerge(config)
  )
