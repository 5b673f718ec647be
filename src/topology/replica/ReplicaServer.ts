import { HttpServer } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import type * as http from "node:http"
import { LeaderChannel } from "./SearchReplicaBackends.js"

/**
 * The leader's listener with the replica's share taken off before the api sees it: a request
 * `route` hands to the replica never reaches the leader's handlers (nor its Effect runtime).
 */
export const routedToReplica = (
  server: http.Server,
  route: (req: http.IncomingMessage, res: http.ServerResponse) => boolean
): http.Server => {
  const emit = server.emit.bind(server)
  server.emit = ((event: string, ...args: Array<unknown>) =>
    event === "request" && route(args[0] as http.IncomingMessage, args[1] as http.ServerResponse)
      ? true
      : emit(event, ...args)) as typeof server.emit
  return server
}

/** In a search replica: tells the leader its port once the index is filled and it listens. */
export const ReplicaReadyReport = Layer.scopedDiscard(
  Effect.gen(function* () {
    const channel = yield* Effect.serviceOption(LeaderChannel)
    if (Option.isNone(channel)) return
    const server = yield* HttpServer.HttpServer
    const address = server.address
    if (address._tag !== "TcpAddress") return yield* Effect.dieMessage("a search replica listens on TCP")
    yield* Effect.forkScoped(
      Effect.zipRight(
        channel.value.synced,
        Effect.sync(() => channel.value.send({ _tag: "Ready", port: address.port }))
      )
    )
  })
)
