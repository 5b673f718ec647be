import { Context, Deferred, Effect, Layer, Queue } from "effect"
import type * as net from "node:net"
import { restoredDocuments } from "../../indexing/ProductIndexer.js"
import { yieldToIo } from "../../platform/YieldToIo.js"
import { CatalogIndex, IndexError, type CatalogIndexService } from "../../services/catalog-index/CatalogIndex.js"
import { makeEmbeddedCatalogIndex } from "../../services/catalog-index/EmbeddedCatalogIndex.js"
import { CatalogStore } from "../../services/catalog-store/CatalogStore.js"
import { EmbeddedEventLog } from "../../services/event-log/EmbeddedEventLog.js"
import { type AppendedEvents, EventLog, EventLogError } from "../../services/event-log/EventLog.js"
import { JobQueue, QueueError } from "../../services/job-queue/JobQueue.js"
import { RateLimiter, RateLimiterError, type RateDecision } from "../../services/rate-limiter/RateLimiter.js"
import { SiteVisualSpaces } from "../../visual-space/SiteVisualSpaces.js"
import type { IndexWrite, ToLeader, ToReplica } from "./ReplicaMessages.js"

/**
 * The search replica's side of its channel to the leader (SearchReplicaLeader.ts): the index
 * it replays, and the rate limiter and job queue it borrows from the leader.
 */
export class LeaderChannel extends Context.Tag("LeaderChannel")<
  LeaderChannel,
  {
    /** Completes once the replica's index holds the store's catalog and every write since. */
    readonly synced: Effect.Effect<void>
    readonly send: (message: ToLeader) => void
    /** What the replica's listener needs of the leader (ReplicaServer.ts). */
    readonly route: LeaderRoute
  }
>() {}

/** The replica's listener's view of the leader (plain callbacks: it runs below the Effect runtime). */
export interface LeaderRoute {
  /** Calls `take` with each client connection the leader hands over. */
  readonly connections: (take: (socket: net.Socket) => void) => void
  /** The leader's internal listener (known before the replica is ready). */
  readonly leader: () => { readonly port: number; readonly secret: string }
  /**
   * Calls back true when this copy holds every index write the leader had applied when asked
   * (waiting for the last few to be applied), false when it is behind (the leader answers).
   */
  readonly current: (done: (fresh: boolean) => void) => void
}

const send = (message: ToLeader) => {
  if (process.connected) process.send!(message)
}

/** Writes arriving less than this apart: the leader is still writing (see the copy loop). */
const WRITING_MS = 250
/** The share of a core the copy takes while the leader is still writing and the replica is behind. */
const BACKGROUND_SHARE = 0.25
/**
 * A search waits for the replica to apply at most this many messages of writes it already
 * holds (the replica keeping up); further behind, the leader answers it.
 */
const WAIT_FOR_MESSAGES = 2

/** The index: a copy filled from the store, then kept current by the leader's writes, in order. */
const indexLayer = Layer.scopedContext(
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const spaces = yield* SiteVisualSpaces
    const index = makeEmbeddedCatalogIndex()
    const writes = yield* Queue.unbounded<{ readonly seq: number; readonly writes: ReadonlyArray<IndexWrite> }>()
    const synced = yield* Deferred.make<void>()
    // Calls answered by the leader, by number.
    const calls = new Map<number, (answer: Extract<ToReplica, { _tag: "Answered" | "Failed" }>) => void>()
    // Listening before the store is read (the fill waits for the leader to say it sends): a
    // write made meanwhile is replayed after the fill (a product written twice ends as its last
    // write, in the order the leader applied them).
    const subscribed = yield* Deferred.make<void>()
    let leader = { port: 0, secret: "" }
    let takeConnection: (socket: net.Socket) => void = (socket) => socket.destroy()
    let lastArrival = 0
    // The last message of writes received and applied, and whether the copy runs in the background.
    let received = 0
    let applied = 0
    let behind = false
    let served = 0
    const waiting: Array<{ readonly seq: number; readonly done: (fresh: boolean) => void }> = []
    const onMessage = (message: ToReplica, handle?: unknown) => {
      switch (message._tag) {
        case "Subscribed":
          leader = { port: message.port, secret: message.secret }
          // The store holds what the leader wrote until now: the fill reads it.
          received = message.seq
          applied = message.seq
          Deferred.unsafeDone(subscribed, Effect.void)
          return
        case "Connection": {
          const socket = handle as net.Socket | undefined
          send({ _tag: "Took", id: message.id })
          if (socket === undefined) return
          socket.once("close", () => send({ _tag: "Closed" }))
          takeConnection(socket)
          return
        }
        case "IndexWrites":
          lastArrival = performance.now()
          received = message.seq
          Queue.unsafeOffer(writes, { seq: message.seq, writes: message.writes })
          return
        case "Answered":
        case "Failed": {
          const call = calls.get(message.call)
          calls.delete(message.call)
          call?.(message)
        }
      }
    }
    process.on("message", onMessage)
    send({ _tag: "Subscribe" })
    yield* Effect.addFinalizer(() => Effect.sync(() => process.off("message", onMessage)))
    // The leader gone (killed, even): nothing keeps this copy current any more.
    process.once("disconnect", () => process.exit(0))

    const apply = (write: IndexWrite): Effect.Effect<unknown, IndexError> => {
      switch (write._tag) {
        case "Upsert":
          return index.upsert(write.docs)
        case "Remove":
          return index.remove(write.siteId, write.productIds)
        case "Columns":
          return index.refreshColumns(write.updates)
      }
    }
    yield* Effect.forkScoped(
      Effect.gen(function* () {
        yield* Deferred.await(subscribed)
        const documents = yield* store.forEachProduct(1000, (page) =>
          Effect.flatMap(restoredDocuments(page).pipe(Effect.provideService(SiteVisualSpaces, spaces)), index.upsert)
        )
        yield* Effect.logInfo("search replica: index filled from the store", { documents })
        yield* Deferred.succeed(synced, undefined)
        for (;;) {
          const message = yield* Queue.take(writes)
          const started = performance.now()
          for (const write of message.writes)
            yield* apply(write).pipe(
              Effect.catchAll((error) => Effect.logWarning("search replica: index write skipped", error.message))
            )
          applied = message.seq
          send({ _tag: "Applied", seq: message.seq })
          while (waiting.length > 0 && waiting[0].seq <= applied) waiting.shift()!.done(true)
          // Behind a leader that keeps writing (a bulk push), the replica passes its searches to
          // the leader (it lacks the latest writes) and its copying would only take cores from
          // the push and the embedding: it copies in the background then, at a quarter of a
          // core, and at full speed once the writes pause.
          behind = (yield* Queue.size(writes)) > 0 && performance.now() - lastArrival < WRITING_MS
          if (behind) {
            for (const search of waiting.splice(0)) search.done(false)
            yield* Effect.sleep(((performance.now() - started) * (1 - BACKGROUND_SHARE)) / BACKGROUND_SHARE)
          }
          // A run of small messages is no slice boundary for the index: searches get a turn here.
          else yield* yieldToIo
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("search replica: index not kept", cause)))
    )

    let nextCall = 0
    /** Asks the leader; `answered` gets its answer (of the type the message's kind has) or its failure's message. */
    const call = (message: (call: number) => ToLeader, answered: (value: unknown, failure?: string) => void) => {
      const number = nextCall++
      calls.set(number, (answer) =>
        answer._tag === "Answered" ? answered(answer.value) : answered(undefined, answer.message)
      )
      send(message(number))
    }
    const ask = <A>(message: (call: number) => ToLeader): Effect.Effect<A, string> =>
      Effect.async<A, string>((resume) =>
        call(message, (value, failure) =>
          resume(failure === undefined ? Effect.succeed(value as A) : Effect.fail(failure))
        )
      )
    const route: LeaderRoute = {
      connections: (take) => {
        takeConnection = take
      },
      leader: () => leader,
      current: (done) => {
        const answered = (fresh: boolean) => {
          if (fresh) served++
          done(fresh)
        }
        // The leader sends the writes it applied before its answer, on this same ordered channel:
        // when the answer arrives, every write the search must see has been received here.
        call(
          (number) => ({ _tag: "Current", call: number, served }),
          (seq, failure) => {
            if (failure !== undefined) answered(false)
            else if ((seq as number) <= applied) answered(true)
            // Received already (the channel is ordered), only not applied yet: worth a short wait.
            else if (!behind && received >= (seq as number) && received - applied <= WAIT_FOR_MESSAGES)
              waiting.push({ seq: seq as number, done: answered })
            else answered(false)
          }
        )
      }
    }
    const limiter = RateLimiter.of({
      consume: (key, limit, windowMs) =>
        ask<RateDecision>((call) => ({ _tag: "ConsumeRate", call, key, limit, windowMs })).pipe(
          Effect.mapError((message) => new RateLimiterError({ message }))
        )
    })
    // The leader is the one writer of the SQLite file (a second writer's transactions could fail
    // busy): the replica's searches record their analytics through it, and read the log directly.
    const localLog = yield* EventLog.pipe(Effect.provide(EmbeddedEventLog.layer))
    const eventLog = EventLog.of({
      ...localLog,
      append: (siteId, events, receivedAt) =>
        ask<AppendedEvents>((call) => ({ _tag: "AppendEvents", call, siteId, events, receivedAt })).pipe(
          Effect.mapError((message) => new EventLogError({ message }))
        )
    })
    const readOnly = (what: string) =>
      Effect.fail(new IndexError({ message: `the search replica does not ${what}: the leader writes the index` }))
    const replica: CatalogIndexService = {
      ...index,
      upsert: () => readOnly("upsert"),
      remove: () => readOnly("remove"),
      refreshColumns: () => readOnly("refresh columns"),
      flush: Effect.void
    }
    const queue = JobQueue.of({
      enqueue: (jobs) => Effect.sync(() => send({ _tag: "Enqueue", jobs })),
      queued: () => Effect.fail(new QueueError({ message: "the search replica runs no jobs" })),
      pending: Effect.succeed(0),
      drained: Effect.void
    })
    return Context.make(CatalogIndex, replica).pipe(
      Context.add(RateLimiter, limiter),
      Context.add(EventLog, eventLog),
      Context.add(JobQueue, queue),
      Context.add(LeaderChannel, { synced: Deferred.await(synced), send, route })
    )
  })
)

export const SearchReplicaBackends = { layer: indexLayer }
