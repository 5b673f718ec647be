import { Context, type Effect, type Scope } from "effect"
import type * as http from "node:http"
import type { IndexWriteObserver } from "../catalog-index/EmbeddedCatalogIndex.js"
import type { EventLog } from "../event-log/EventLog.js"
import type { JobQueue } from "../job-queue/JobQueue.js"
import type { RateLimiter } from "../rate-limiter/RateLimiter.js"

/**
 * The embedded default's search replicas, as the api process that forks them sees them
 * (topology/replica/SearchReplicaLeader.ts is the one implementation): where its index writes
 * go, which connections they take, how many requests they answer.
 */
export interface SearchReplicaService {
  /** Given to the leader's index: its writes, in order, for the replica. */
  readonly observer: IndexWriteObserver
  /** Forks the replica, and again whenever it exits, until the scope closes. */
  readonly run: Effect.Effect<void, never, RateLimiter | JobQueue | EventLog | Scope.Scope>
  /** The api's listener, made to share its connections with the replicas. */
  readonly serve: (server: http.Server) => http.Server
  /** For /readyz and /metrics. */
  readonly status: () => SearchReplicaStatus
}

export interface SearchReplicaStatus {
  /** Replicas configured, and those answering searches now. */
  readonly configured: number
  readonly ready: number
  /** Requests the replicas answered themselves since this process started (as they last reported). */
  readonly answered: number
}

export class SearchReplica extends Context.Tag("SearchReplica")<SearchReplica, SearchReplicaService>() {}

/** The argument the leader forks its replicas with: the same program in the replica's role. */
export const REPLICA_FLAG = "--search-replica"

/** This process is a search replica (its answers say so in Server-Timing). */
export const IN_SEARCH_REPLICA = process.argv.includes(REPLICA_FLAG)

/** Set on a request a replica passed on to the leader: the client's address as the replica saw it. */
const PEER = Symbol("search replica's client")

/** Marks a request a replica passed on with its client's address (the internal hop is no proxy a user configured). */
export const markReplicaPeer = (incoming: http.IncomingMessage, peer: string) => {
  ;(incoming as http.IncomingMessage & { [PEER]?: string })[PEER] = peer
}

/** The client's address of a request a replica passed on, or undefined. */
export const replicaPeer = (incoming: http.IncomingMessage): string | undefined =>
  (incoming as http.IncomingMessage & { [PEER]?: string })[PEER]
