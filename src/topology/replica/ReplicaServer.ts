import { Effect, Layer, Option } from "effect"
import * as http from "node:http"
import type * as net from "node:net"
import { LeaderChannel, type LeaderRoute } from "./SearchReplicaBackends.js"
import { toLeader } from "./ReplicaProxy.js"
import { HOP_PEER_HEADER, HOP_SECRET_HEADER } from "./ReplicaMessages.js"
import { markReplicaPeer } from "../../services/search-replica/SearchReplica.js"

/**
 * How the leader and its search replicas share the api's one listening port. The leader
 * accepts every connection and hands some, socket and all, to a replica before reading a byte
 * of them (`sharedListener`): the replica then parses, authenticates and answers that
 * connection's searches itself, and the leader spends nothing on them but two IPC answers (the
 * index writes a search must see, the rate limit). The other requests of a handed connection
 * (a PUT, a bulk push, MCP) go to the leader through its internal listener, streamed
 * (`servedWithLeader`), and are answered as if the client had sent them to the leader.
 */

/** Routes a replica answers itself (method and path): searches that read the index and the store only. */
const REPLICATED_ROUTES = new Set(["POST /text-search"])

const pathOf = (url: string | undefined) => {
  const at = url?.indexOf("?") ?? -1
  return at < 0 ? (url ?? "/") : url!.slice(0, at)
}

/**
 * The leader's listener: `pauseOnConnect`, so a connection handed over has not been read here;
 * `hand` says whether it took the socket. Returns the internal listener's port once it listens:
 * a loopback listener whose requests (each carrying `secret`) join the leader's own.
 */
export const sharedListener = (
  server: http.Server,
  hand: (socket: net.Socket) => boolean,
  secret: string
): Promise<number> => {
  // net.Server reads it for each connection it accepts (http.Server's types omit it).
  Object.assign(server, { pauseOnConnect: true })
  const emit = server.emit.bind(server)
  server.emit = ((event: string, ...args: Array<unknown>) => {
    if (event !== "connection") return emit(event, ...args)
    const socket = args[0] as net.Socket
    if (hand(socket)) return true
    const listened = emit(event, ...args)
    socket.resume()
    return listened
  }) as typeof server.emit

  const internal = http.createServer({ requestTimeout: server.requestTimeout })
  // The replicas' agents keep their connections: the leader never closes an idle one under a
  // request they are about to send (a reused connection's reset could not be retried: its
  // body is streamed).
  internal.keepAliveTimeout = 0
  internal.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.headers[HOP_SECRET_HEADER] !== secret) {
      res.writeHead(403, { "content-type": "application/json" })
      res.end(JSON.stringify({ message: "this listener takes requests from the api's search replicas only" }))
      return
    }
    markReplicaPeer(req, String(req.headers[HOP_PEER_HEADER] ?? "unknown"))
    delete req.headers[HOP_SECRET_HEADER]
    delete req.headers[HOP_PEER_HEADER]
    emit("request", req, res)
  })
  server.once("close", () => internal.close())
  return new Promise((resolve, reject) => {
    internal.once("error", reject)
    internal.listen(0, "127.0.0.1", () => resolve((internal.address() as net.AddressInfo).port))
  })
}

/**
 * A replica's listener: it takes the connections the leader hands over, answers their
 * searches when it holds every index write the leader had applied when the search arrived,
 * and passes everything else (and a search while it is behind) to the leader.
 */
export const servedWithLeader = (server: http.Server, route: LeaderRoute): http.Server => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const emit = server.emit.bind(server)
  route.connections((socket) => {
    emit("connection", socket)
    socket.resume()
  })
  server.emit = ((event: string, ...args: Array<unknown>) => {
    if (event !== "request") return emit(event, ...args)
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse]
    const leader = route.leader()
    if (!REPLICATED_ROUTES.has(`${req.method} ${pathOf(req.url)}`)) toLeader(req, res, leader, agent)
    else route.current((fresh) => (fresh ? emit(event, req, res) : toLeader(req, res, leader, agent)))
    return true
  }) as typeof server.emit
  return server
}

/** In a search replica: tells the leader once the index is filled, so it hands connections over. */
export const ReplicaReadyReport = Layer.scopedDiscard(
  Effect.gen(function* () {
    const channel = yield* Effect.serviceOption(LeaderChannel)
    if (Option.isNone(channel)) return
    yield* Effect.forkScoped(
      Effect.zipRight(
        channel.value.synced,
        Effect.sync(() => channel.value.send({ _tag: "Ready" }))
      )
    )
  })
)
