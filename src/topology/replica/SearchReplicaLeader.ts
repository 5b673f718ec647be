import { Deferred, Duration, Effect, Exit, Layer, Runtime } from "effect"
import { type ChildProcess, fork } from "node:child_process"
import * as http from "node:http"
import type { IndexWriteObserver } from "../../services/catalog-index/EmbeddedCatalogIndex.js"
import { EventLog } from "../../services/event-log/EventLog.js"
import { JobQueue } from "../../services/job-queue/JobQueue.js"
import { RateLimiter } from "../../services/rate-limiter/RateLimiter.js"
import {
  SearchReplica,
  type SearchReplicaService,
  type SearchReplicaStatus
} from "../../services/search-replica/SearchReplica.js"
import { handOver } from "./ReplicaProxy.js"
import { type IndexWrite, REPLICA_FLAG, type ToLeader, type ToReplica } from "./ReplicaMessages.js"

/**
 * The embedded default on several cores (SEARCH_REPLICAS): the api process (the leader) keeps
 * every write, job and model it always had, and forks search replicas, processes holding their
 * own copy of the in-memory index over the same SQLite file. A text search goes to the least
 * busy process (see REPLICA_LEAD), so searches in flight together run on several cores instead
 * of queueing on one event loop. A replica fills its index from the store, then replays the
 * leader's index writes in the order the leader applied them; a search goes to a replica only if
 * it holds every write the leader had applied when the search arrived (else the leader answers
 * it, so a product acknowledged before a search is found by it). Its rate-limit decisions and
 * the jobs its searches queue are the leader's (asked over the same channel), so budgets and
 * queues stay one. A replica that dies is forked again; meanwhile the leader answers.
 */

/**
 * A search goes to the least busy replica unless it has more than this many requests in flight
 * beyond the leader's: the replica takes ties and one more, since the leader also parses, hands
 * over and writes back every request the replica answers, and runs the jobs.
 */
const REPLICA_LEAD = 1

/** Routes the replicas answer (method and path): searches that read the index and the store only. */
const REPLICATED_ROUTES = new Set(["POST /text-search"])

/** How long a replica a request could not reach gets no requests (unless its exit is reported meanwhile). */
const GONE_PAUSE_MS = 1000

/** A replica that exits is forked again after this pause (doubling while it keeps failing). */
const RESTART_PAUSE = Duration.seconds(1)
const MAX_RESTART_PAUSE = Duration.seconds(30)

interface Replica {
  readonly child: ChildProcess
  /** It listens for index writes (messages sent before it listened would be lost). */
  subscribed: boolean
  /** Set once the replica reports its index filled and its port. */
  port: number | null
  inFlight: number
  /** The last message of index writes the replica has applied. */
  applied: number
}

export interface SearchReplicaSettings {
  /** How many replicas to fork. */
  readonly count: number
  /** The script the leader runs as (the replica is the same program in another role). */
  readonly entry: string
  readonly execArgv: ReadonlyArray<string>
  /** The leader's trusted proxy hops: the replica trusts one more (the leader). */
  readonly trustedProxyHops: number
}

const pathOf = (url: string | undefined) => {
  const at = url?.indexOf("?") ?? -1
  return at < 0 ? (url ?? "/") : url!.slice(0, at)
}

const make = (settings: SearchReplicaSettings): SearchReplicaService => {
  const replicas: Array<Replica> = []
  let leaderInFlight = 0
  let answered = 0
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })

  // Writes of one turn of the event loop travel as one message, in the order applied; messages
  // are numbered, and each replica says which it has applied.
  let pending: Array<IndexWrite> = []
  let sent = 0
  const flush = () => {
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

  const toReplica = (req: http.IncomingMessage, res: http.ServerResponse, to: Replica) => {
    answered++
    to.inFlight++
    res.once("close", () => to.inFlight--)
    // Its exit is reported a moment after it stops listening: the first refused request says so.
    // A replica still running after a failed request was only briefly unreachable: it serves again.
    const port = to.port!
    handOver(req, res, port, agent, () => {
      if (to.port !== port) return
      to.port = null
      setTimeout(() => {
        if (replicas.includes(to) && to.child.exitCode === null && to.child.signalCode === null) to.port = port
      }, GONE_PAUSE_MS).unref()
    })
  }

  /** The ready replica with the fewest requests in flight, or null. */
  const leastBusy = (): Replica | null => {
    let best: Replica | null = null
    for (const replica of replicas)
      if (replica.port !== null && (best === null || replica.inFlight < best.inFlight)) best = replica
    return best
  }

  /** Index writes a search arriving now must see: those the leader has applied (sent or about to be). */
  const appliedHere = () => (pending.length > 0 ? sent + 1 : sent)

  const route = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const replica = REPLICATED_ROUTES.has(`${req.method} ${pathOf(req.url)}`) ? leastBusy() : null
    // A replica still applying writes the leader has applied would miss them: the leader answers.
    if (replica === null || replica.inFlight > leaderInFlight + REPLICA_LEAD || replica.applied < appliedHere()) {
      leaderInFlight++
      res.once("close", () => leaderInFlight--)
      return false
    }
    toReplica(req, res, replica)
    return true
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

  const answer = (
    replica: Replica,
    message: ToLeader,
    limiter: RateLimiter["Type"],
    queue: JobQueue["Type"],
    log: EventLog["Type"]
  ) => {
    switch (message._tag) {
      case "Subscribe":
        // What the leader's index held until now, the store holds too (store before index): the
        // replica's fill starts after this, so those writes count as applied.
        replica.subscribed = true
        replica.applied = sent
        return Effect.sync(() => replica.child.send({ _tag: "Subscribed" } satisfies ToReplica))
      case "Applied":
        replica.applied = message.seq
        return Effect.void
      case "Ready":
        replica.port = message.port
        return Effect.logInfo("search replica ready", { port: message.port })
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
              HOST: "127.0.0.1",
              PORT: "0",
              // Query embeddings only: the leader's threads embed the catalog.
              EMBED_THREADS: "1",
              TRUSTED_PROXY_HOPS: String(settings.trustedProxyHops + 1)
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
      const replica: Replica = { child: started, subscribed: false, port: null, inFlight: 0, applied: 0 }
      replicas.push(replica)
      started.on("message", (message: ToLeader) => {
        Runtime.runFork(runtime)(answer(replica, message, limiter, queue, log))
      })
      started.once("exit", (code, signal) => {
        replica.port = null
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
    ready: replicas.filter((r) => r.port !== null).length,
    answered
  })

  return { observer, run, route, status }
}

export const SearchReplicaLeader = {
  layer: (settings: SearchReplicaSettings): Layer.Layer<SearchReplica> =>
    Layer.sync(SearchReplica, () => make(settings))
}
