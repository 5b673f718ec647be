import { HttpApiSwagger, HttpLayerRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { CommerceApi } from "./http/Api.js"
import { AuthenticationLive } from "./http/Authentication.js"
import { CatalogHandlers } from "./http/handlers/CatalogHandlers.js"
import { LegacyHandlers } from "./http/handlers/LegacyHandlers.js"
import { LegacySessionHandlers } from "./http/handlers/LegacySessionHandlers.js"
import { OpsHandlers } from "./http/handlers/OpsHandlers.js"
import { PredictionHandlers } from "./http/handlers/PredictionHandlers.js"
import { EventsHandlers } from "./http/handlers/EventsHandlers.js"
import { AnalyticsHandlers } from "./http/handlers/AnalyticsHandlers.js"
import { MerchandisingHandlers } from "./http/handlers/MerchandisingHandlers.js"
import { SearchHandlers } from "./http/handlers/SearchHandlers.js"
import { responsePolicy } from "./http/ResponsePolicy.js"
import { ServerConfig } from "./http/ServerConfig.js"
import { McpRoute } from "./mcp/McpRoute.js"
import { ConsoleRoute } from "./http/ConsoleRoute.js"
import { ProtectedResourceRoute } from "./mcp/ProtectedResource.js"
import { ApiTopology } from "./topology/Topology.js"
import { ReplicaReadyReport, servedWithLeader } from "./topology/replica/ReplicaServer.js"
import { LeaderChannel } from "./topology/replica/SearchReplicaBackends.js"
import { SearchReplica } from "./services/search-replica/SearchReplica.js"

const ApiRoutes = HttpLayerRouter.addHttpApi(CommerceApi, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([
    SearchHandlers,
    CatalogHandlers,
    LegacyHandlers,
    OpsHandlers,
    PredictionHandlers,
    EventsHandlers,
    AnalyticsHandlers,
    LegacySessionHandlers,
    MerchandisingHandlers
  ]),
  Layer.provide(AuthenticationLive)
)

const Routes = Layer.unwrapEffect(
  Effect.map(ServerConfig, (config) =>
    Layer.mergeAll(
      ApiRoutes,
      McpRoute,
      ConsoleRoute,
      ProtectedResourceRoute,
      HttpApiSwagger.layerHttpLayerRouter({ api: CommerceApi, path: "/docs" })
    ).pipe(Layer.provide(responsePolicy(config.maxBodyBytes)))
  )
)

/** How long a request may take to arrive in full: an hour (a bulk push of millions of products). */
const REQUEST_TIMEOUT_MS = 60 * 60 * 1000

const HttpServerLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const replicas = yield* Effect.serviceOption(SearchReplica)
    const leader = yield* Effect.serviceOption(LeaderChannel)
    // Node's default of 5 minutes to receive a whole request would cut a large bulk push short
    // (its body streams for as long as the catalog takes to send); headers still have 60 s.
    const server = () => {
      const made = createServer({ requestTimeout: REQUEST_TIMEOUT_MS })
      // A leader shares its connections with its search replicas; a replica serves those it is handed.
      if (Option.isSome(replicas)) return replicas.value.serve(made)
      return Option.isSome(leader) ? servedWithLeader(made, leader.value.route) : made
    }
    return NodeHttpServer.layer(server, { port: config.port, host: config.host })
  })
)

/**
 * The whole api process: REST, MCP and the docs over the services the topology chose. Every
 * setting is read through Effect's Config from the ambient ConfigProvider (the environment in
 * `npm start`; tests provide a map).
 */
/**
 * Path parameters as long as a product id may be (200 characters, ProductId) once
 * percent-encoded (up to 12 bytes a character): the router's default of 100 answered a longer
 * id with "no route" instead of the id's own rule.
 */
const MAX_PATH_PARAMETER = 2_400

export const App = Layer.merge(
  HttpLayerRouter.serve(Routes, {
    disableLogger: true,
    routerConfig: { maxParamLength: MAX_PATH_PARAMETER }
  }),
  ReplicaReadyReport
).pipe(Layer.provideMerge(HttpServerLive), Layer.provideMerge(ApiTopology))
