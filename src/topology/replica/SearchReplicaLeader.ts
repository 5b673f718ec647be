import { Deferred, Duration, Effect, Exit, Layer, Runtime } from "effect"
import { type ChildProcess, fork } from "node:child_process"
import { randomBytes } from "node:crypto"
import type * as http from "node:http"
import type * as net from "node:net"
import type { IndexWriteObserver } from "../../services/catalog-index/EmbeddedCatalogIndex.js"
import { EventLog } from "../../services/event-log/EventLog.js"
import { JobQueue } from "../../services/job-queue/JobQueue.js"
import { RateLimiter } from "../../services/rate-limiter/RateLimiter.js"
import {
  REPLICA_FLAG,
  SearchReplica,
  type SearchReplicaService,
  type SearchReplicaStatus
} from "../../services/search-replica/SearchReplica.js"
import { sharedListener } from "./ReplicaServer.js"
import type { IndexWrite, ToLeader, ToReplica } from "./ReplicaMessages.js"

/**
 * The embedded default on several cores (SEARCH_REPLICAS): the api process (the leader) keeps
 * every write, job and model it always had, and forks search replicas, processes holding their
 * own copy of the in-memory index over the same SQLite file. A client's connection goes to the
 * process with the fewest open connections (see REPLICA_LEAD), so searches in flight together
 * run on several cores instead of queueing on one event loop. A replica fills its index from the store, then
 * replays the leader's index writes in the order the leader applied them; it answers a search
 * only once it holds every write the leader had applied when the search arrived (else the
 * leader answers it, so a product acknowledged before a search is found by it). Its rate-limit
 * decisions and the jobs its searches queue are the leader's (asked over the same channel), so
 * budgets and queues stay one. A replica that dies is forked again; meanwhile the leader
 * takes every connection.
 */

/** The replica's messages the leader answers on the channel's callback (see answeredAtOnce). */
type AtOnce = Extract<ToLeader, { readonly _tag: "Applied" | "Current" | "Took" | "Closed" }>

/**
 * A new connection goes to a replica unless it has more than this many connections beyond the
 * leader's: the replica takes ties and one more, since the leader also answers the replicas'
 * calls (a search's freshness and rate limit), the requests they pass on, and runs the jobs.
 * (With an even split the leader was the busy one, and a replica waited on its answers.)
 */
const REPLICA_LEAD = 1

/** A replica more messages of index writes behind than this gets no new connections. */
const MAX_LAG_MESSAGES = 2

/** A replica that exits is forked again after this pause (doubling while it keeps failing). */
const RESTART_PAUSE = Duration.seconds(1)
const MAX_RESTART_PAUSE = Duration.seconds(30)

interface Replica {
  readonly child: ChildProcess
  /** It listens for index writes (messages sent before it listened would be lost). */
  subscribed: boolean
  /** Its index is filled: it takes connections. */
  ready: boolean
  /** Client connections handed to it and not closed yet. */
  connections: number
  /**
   * Sockets on their way to it, by number: the leader keeps its copy open until the replica
   * says it took one (a replica that dies first would leave the client waiting forever).
   */
  readonly handing: Map<number, net.Socket>
  /** The last message of index writes the replica has applied. */
  applied: number
  /** Requests it answered itself, as it last reported. */
  served: number
}

export interface SearchReplicaSettings {
  /** How many replicas to fork. */
  readonly count: number
  /** The script the leader runs as (the replica is the same program in another role). */
  readonly entry: string
  readonly execArgv: ReadonlyArray<string>
}

const make = (settings: SearchReplicaSettings): SearchReplicaService => {
  const replicas: Array<Replica> = []
  let leaderConnections = 0
  // Requests answered by replicas that have exited.
  let servedBefore = 0
  const secret = randomBytes(24).toString("base64url")
  let internalPort: Promise<number> = new Promise(() => {})

  // Writes of one turn of the event loop travel as one message, in the order applied; messages
  // are numbered, and each replica says which it has applied.
  let pending: Array<IndexWrite> = []
  let sent = 0
  const flush = () => {
    if (pending.length === 0) return
    const writes = pending
    pending = []
    const message: ToReplica = { _tag: "IndexWrites", seq: ++sent, writes }
    for (const replica of replicas) if (replica.subscribed && replica.child.connected) replica.child.send(message)
  }
  const publish = (write: IndexWrite) => {
    if (replicas.length === 0) return
    if (pending.length === 0) setImmediate(flush)
    pending.push(write)
  }
  const observer: IndexWriteObserver = {
    upserted: (docs) => publish({ _tag: "Upsert", docs }),
    removed: (siteId, productIds) => publish({ _tag: "Remove", siteId, productIds }),
    refreshed: (updates) => publish({ _tag: "Columns", updates })
  }

  /** The ready replica with the fewest connections, or null. */
  const leastConnected = (): Replica | null => {
    let best: Replica | null = null
    for (const replica of replicas)
      if (replica.ready && replica.child.connected && (best === null || replica.connections < best.connections))
        best = replica
    return best
  }

  let handed = 0
  /** Closes the leader's copy of a socket handed over (the connection ends unless the replica took it). */
  const drop = (replica: Replica, id: number) => {
    replica.handing.get(id)?.destroy()
    replica.handing.delete(id)
  }

  const keep = (socket: net.Socket) => {
    leaderConnections++
    socket.once("close", () => leaderConnections--)
    return false
  }

  /** The listener's hook: hands the connection to a replica (true), or keeps it. */
  const hand = (socket: net.Socket): boolean => {
    const replica = leastConnected()
    if (
      replica === null ||
      replica.connections > leaderConnections + REPLICA_LEAD ||
      replica.applied < sent - MAX_LAG_MESSAGES
    )
      return keep(socket)
    replica.connections++
    // Node would count a socket of a listening server as the replica's connection of that server
    // and make the leader's server.close() wait for the replica's clients to hang up; the
    // replica closes its own connections when it stops.
    Object.assign(socket, { server: null })
    const id = ++handed
    replica.handing.set(id, socket)
    replica.child.send({ _tag: "Connection", id } satisfies ToReplica, socket, { keepOpen: true }, (error) => {
      // The replica exited as the socket was on its way: the client's connection is dropped (as
      // by any server process that dies); it connects again.
      if (error) drop(replica, id)
    })
    return true
  }

  const serve = (server: http.Server) => {
    internalPort = sharedListener(server, hand, secret)
    internalPort.catch(() => {})
    return server
  }

  /** Answers a replica's numbered call with the effect's value, or its failure's message. */
  const reply = <A, E>(replica: Replica, call: number, effect: Effect.Effect<A, E>) =>
    Effect.map(Effect.exit(effect), (exit) =>
      replica.child.send(
        Exit.isSuccess(exit)
          ? ({ _tag: "Answered", call, value: exit.value } satisfies ToReplica)
          : ({ _tag: "Failed", call, message: String(exit.cause) } satisfies ToReplica)
      )
    )

  /**
   * The messages answered on the channel's own callback, without a fiber: a replica's search
   * waits on "Current", and the leader answers one for each search the replica takes.
   */
  const answeredAtOnce = (replica: Replica, message: ToLeader): message is AtOnce => {
    switch (message._tag) {
      case "Applied":
        replica.applied = message.seq
        return true
      case "Current":
        // Written before the answer on the same channel: the replica has them when it reads it.
        flush()
        replica.served = message.served
        replica.child.send({ _tag: "Answered", call: message.call, value: sent } satisfies ToReplica)
        return true
      case "Took":
        drop(replica, message.id)
        return true
      case "Closed":
        replica.connections--
        return true
      default:
        return false
    }
  }

  const answer = (
    replica: Replica,
    message: Exclude<ToLeader, AtOnce>,
    limiter: RateLimiter["Type"],
    queue: JobQueue["Type"],
    log: EventLog["Type"]
  ) => {
    switch (message._tag) {
      case "Subscribe":
        // What the leader's index held until now, the store holds too (store before index): the
        // replica's fill starts after this, so those writes count as applied.
        return Effect.promise(() => internalPort).pipe(
          Effect.map((port) => {
            flush()
            replica.subscribed = true
            replica.applied = sent
            replica.child.send({ _tag: "Subscribed", port, secret, seq: sent } satisfies ToReplica)
          })
        )
      case "Ready":
        replica.ready = true
        return Effect.logInfo("search replica ready", { pid: replica.child.pid })
      case "ConsumeRate":
        return reply(replica, message.call, limiter.consume(message.key, message.limit, message.windowMs))
      case "AppendEvents":
        return reply(replica, message.call, log.append(message.siteId, message.events, message.receivedAt))
      case "Enqueue":
        return queue
          .enqueue(message.jobs)
          .pipe(Effect.catchAll((error) => Effect.logWarning("search replica: jobs not queued", error)))
    }
  }

  /** One replica's life: forked, answered, until it exits (or the scope closes and stops it). */
  const once = (limiter: RateLimiter["Type"], queue: JobQueue["Type"], log: EventLog["Type"]) =>
    Effect.gen(function* () {
      const runtime = yield* Effect.runtime<never>()
      const exited = yield* Deferred.make<number | string | null>()
      const started = yield* Effect.acquireRelease(
        Effect.sync(() =>
          fork(settings.entry, [REPLICA_FLAG], {
            execArgv: [...settings.execArgv],
            serialization: "advanced",
            stdio: ["ignore", "inherit", "inherit", "ipc"],
            env: {
              ...process.env,
              // It listens only to run the api's server: its clients' connections come from the leader.
              HOST: "127.0.0.1",
              PORT: "0",
              // Query embeddings only: the leader's threads embed the catalog.
              EMBED_THREADS: "1"
            }
          })
        ),
        (proc) =>
          Effect.gen(function* () {
            if (proc.exitCode === null && proc.signalCode === null) {
              proc.kill("SIGTERM")
              const stopped = yield* Deferred.await(exited).pipe(Effect.timeout(Duration.seconds(10)), Effect.option)
              if (stopped._tag === "None") proc.kill("SIGKILL")
            }
          })
      )
      const replica: Replica = {
        child: started,
        subscribed: false,
        ready: false,
        connections: 0,
        handing: new Map(),
        applied: 0,
        served: 0
      }
      replicas.push(replica)
      started.on("message", (message: ToLeader) => {
        if (!answeredAtOnce(replica, message)) Runtime.runFork(runtime)(answer(replica, message, limiter, queue, log))
      })
      started.once("exit", (code, signal) => {
        replica.ready = false
        servedBefore += replica.served
        for (const id of [...replica.handing.keys()]) drop(replica, id)
        replicas.splice(replicas.indexOf(replica), 1)
        Deferred.unsafeDone(exited, Exit.succeed(code ?? signal))
      })
      return yield* Deferred.await(exited)
    }).pipe(Effect.scoped)

  const run = Effect.gen(function* () {
    const limiter = yield* RateLimiter
    const queue = yield* JobQueue
    const log = yield* EventLog
    const loop = Effect.gen(function* () {
      let pause = RESTART_PAUSE
      for (;;) {
        const startedAt = Date.now()
        const code = yield* once(limiter, queue, log)
        // A replica that served a while restarts at once; one that keeps dying waits longer each time.
        pause =
          Date.now() - startedAt > 60_000 ? RESTART_PAUSE : Duration.min(Duration.times(pause, 2), MAX_RESTART_PAUSE)
        yield* Effect.logWarning("search replica exited; forking another", { code, after: Duration.format(pause) })
        yield* Effect.sleep(pause)
      }
    })
    for (let i = 0; i < settings.count; i++) yield* Effect.forkScoped(loop)
  })

  const status = (): SearchReplicaStatus => ({
    configured: settings.count,
    ready: replicas.filter((r) => r.ready).length,
    answered: replicas.reduce((sum, r) => sum + r.served, servedBefore)
  })

  return { observer, run, serve, status }
}

export const SearchReplicaLeader = {
  layer: (settings: SearchReplicaSettings): Layer.Layer<SearchReplica> =>
    Layer.sync(SearchReplica, () => make(settings))
}
