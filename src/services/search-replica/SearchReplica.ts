import { Context, type Effect, type Scope } from "effect"
import type * as http from "node:http"
import type { IndexWriteObserver } from "../catalog-index/EmbeddedCatalogIndex.js"
import type { EventLog } from "../event-log/EventLog.js"
import type { JobQueue } from "../job-queue/JobQueue.js"
import type { RateLimiter } from "../rate-limiter/RateLimiter.js"

/**
 * The embedded default's search replicas, as the api process that forks them sees them
 * (topology/replica/SearchReplicaLeader.ts is the one implementation): where its index writes
 * go, which requests they take, how many answer.
 */
export interface SearchReplicaService {
  /** Given to the leader's index: its writes, in order, for the replica. */
  readonly observer: IndexWriteObserver
  /** Forks the replica, and again whenever it exits, until the scope closes. */
  readonly run: Effect.Effect<void, never, RateLimiter | JobQueue | EventLog | Scope.Scope>
  /** The server's hook: true when the request was handed to a replica (the leader must not answer it). */
  readonly route: (req: http.IncomingMessage, res: http.ServerResponse) => boolean
  /** For /readyz and /metrics. */
  readonly status: () => SearchReplicaStatus
}

export interface SearchReplicaStatus {
  /** Replicas configured, and those answering searches now. */
  readonly configured: number
  readonly ready: number
  /** Requests the replicas have answered since this process started. */
  readonly answered: number
}

export class SearchReplica extends Context.Tag("SearchReplica")<SearchReplica, SearchReplicaService>() {}
