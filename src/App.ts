import { HttpApiSwagger, HttpLayerRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Duration, Effect, Layer, Schedule } from "effect"
import { createServer } from "node:http"
import { JobHandlersLive } from "../workers/JobHandlers.js"
import { ProductIndexerLive } from "./catalog/ProductIndexer.js"
import { reconcile, restoreIndex } from "./catalog/Reconcile.js"
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
import { Auth } from "./services/Auth.js"
import { EmbeddedCatalogIndex } from "./services/catalog-index/EmbeddedCatalogIndex.js"
import { SqliteCatalogStore } from "./services/catalog-store/SqliteCatalogStore.js"
import { SqliteMemoryLog } from "./services/memory/SqliteMemoryLog.js"
import { SqlitePredictionStore } from "./services/prediction/SqlitePredictionStore.js"
import { EmbeddedRateLimiter } from "./services/rate-limiter/EmbeddedRateLimiter.js"
import { McpRoute } from "./mcp/McpRoute.js"
import { ProductImagesLive } from "./catalog/ProductImages.js"
import { ImageAnalyzerLive } from "./services/image-analyzer/ImageAnalyzerLive.js"
import { ImageIntake, ImageIntakeConfig } from "./services/ImageIntake.js"
import { EmbeddedSessionStore } from "./services/session-store/EmbeddedSessionStore.js"
import { CatalogIndex } from "./services/CatalogIndex.js"
import { InProcessJobQueue } from "./services/job-queue/InProcessJobQueue.js"
import { Readiness } from "./services/Readiness.js"
import { SiteRegistry } from "./services/SiteRegistry.js"
import { Sqlite } from "./services/Sqlite.js"
import { Suggester } from "./services/Suggester.js"
import { TextEmbedder } from "./services/TextEmbedder.js"

/** The embedded topology: every backend inside this process, durable state under DATA_DIR. */
const EmbeddedBackends = Layer.mergeAll(SqliteCatalogStore, SqliteMemoryLog, SqlitePredictionStore, Suggester.layer, EmbeddedCatalogIndex.layer, EmbeddedRateLimiter.layer).pipe(
  Layer.provideMerge(Sqlite.layer)
)

const Vision = Layer.mergeAll(ImageAnalyzerLive, ImageIntake.layer.pipe(Layer.provide(ImageIntakeConfig.fromEnv)), EmbeddedSessionStore.layer)

const Core = Layer.mergeAll(EmbeddedBackends, Vision, TextEmbedder.layer, Readiness.layer, Auth.layer.pipe(Layer.provideMerge(SiteRegistry.layer)))

const Indexing = InProcessJobQueue().pipe(Layer.provide(JobHandlersLive), Layer.provide([ProductIndexerLive, ProductImagesLive]))

export const Services = Indexing.pipe(Layer.provideMerge(Core))

/**
 * Startup work that must not hold the listener back: rebuild the index from the store, then
 * mark the process ready; afterwards a periodic reconcile heals anything a crash left behind.
 */
const Startup = Layer.scopedDiscard(
  Effect.gen(function*() {
    const readiness = yield* Readiness
    yield* Effect.forkScoped(
      Effect.gen(function*() {
        const { restored, queued } = yield* restoreIndex
        yield* Effect.logInfo("index restored", { restored, queued })
        yield* readiness.markReady
        yield* reconcile.pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("reconcile failed", cause)),
          Effect.repeat(Schedule.spaced(Duration.minutes(1)))
        )
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("startup failed", cause)))
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
