import { Context, Deferred, Effect, FiberId, Layer, Queue } from "effect"
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
  }
>() {}

const send = (message: ToLeader) => {
  if (process.connected) process.send!(message)
}

/** Writes arriving less than this apart: the leader is still writing (see the copy loop). */
const WRITING_MS = 250
/** The share of a core the copy takes while the leader is still writing and the replica is behind. */
const BACKGROUND_SHARE = 0.25

/** The index: a copy filled from the store, then kept current by the leader's writes, in order. */
const indexLayer = Layer.scopedContext(
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const spaces = yield* SiteVisualSpaces
    const index = makeEmbeddedCatalogIndex()
    const writes = yield* Queue.unbounded<{ readonly seq: number; readonly writes: ReadonlyArray<IndexWrite> }>()
    const synced = yield* Deferred.make<void>()
    // Calls answered by the leader, by number.
    const calls = new Map<number, Deferred.Deferred<unknown, string>>()
    // Listening before the store is read (the fill waits for the leader to say it sends): a
    // write made meanwhile is replayed after the fill (a product written twice ends as its last
    // write, in the order the leader applied them).
    const subscribed = yield* Deferred.make<void>()
    let lastArrival = 0
    const onMessage = (message: ToReplica) => {
      switch (message._tag) {
        case "Subscribed":
          Deferred.unsafeDone(subscribed, Effect.void)
          return
        case "IndexWrites":
          lastArrival = performance.now()
          Queue.unsafeOffer(writes, { seq: message.seq, writes: message.writes })
          return
        case "Answered":
        case "Failed": {
          const call = calls.get(message.call)
          calls.delete(message.call)
          if (call === undefined) return
          if (message._tag === "Answered") Deferred.unsafeDone(call, Effect.succeed(message.value))
          else Deferred.unsafeDone(call, Effect.fail(message.message))
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
          send({ _tag: "Applied", seq: message.seq })
          // Behind a leader that keeps writing (a bulk push), the replica answers no searches (it
          // lacks the latest writes) and its copying would only take cores from the push and the
          // embedding: it copies in the background then, at a quarter of a core, and at full
          // speed once the writes pause.
          const behind = (yield* Queue.size(writes)) > 0 && performance.now() - lastArrival < WRITING_MS
          if (behind) yield* Effect.sleep(((performance.now() - started) * (1 - BACKGROUND_SHARE)) / BACKGROUND_SHARE)
          // A run of small messages is no slice boundary for the index: searches get a turn here.
          else yield* yieldToIo
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("search replica: index not kept", cause)))
    )

    let nextCall = 0
    /** Asks the leader; its answer (of the type the message's kind has) or its failure's message. */
    const ask = <A>(message: (call: number) => ToLeader): Effect.Effect<A, string> =>
      Effect.suspend(() => {
        const call = nextCall++
        const answered = Deferred.unsafeMake<unknown, string>(FiberId.none)
        calls.set(call, answered)
        send(message(call))
        return Deferred.await(answered) as Effect.Effect<A, string>
      })
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
      Context.add(LeaderChannel, { synced: Deferred.await(synced), send })
    )
  })
)

export const SearchReplicaBackends = { layer: indexLayer }
