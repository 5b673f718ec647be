import { Context, Duration, Effect, Layer } from "effect"
import { CatalogIndex, IndexError, type CatalogIndexService } from "./CatalogIndex.js"
import type { IndexDocument } from "../../model/IndexDocument.js"
import { makeChangeFeed, type ChangeFeedError, type FeedEntry } from "../../platform/redis/ChangeFeed.js"
import { makeEmbeddedCatalogIndex, type EmbeddedCatalogIndexService } from "./EmbeddedCatalogIndex.js"
import type { EmbeddedIndexOverrides } from "./embedded/EmbeddedIndexOptions.js"
import { decodeChange, encodeColumns, encodeRemove, encodeUpsert, type IndexChange } from "./replicated/IndexChanges.js"

/**
 * The CatalogIndex of the distributed topology without a Qdrant server: every process (api
 * replicas, workers) keeps a whole embedded index in memory, and writes reach all of them
 * through a Redis change feed (redis/ChangeFeed.ts). Reads never leave the process.
 *
 * The durable state is the CatalogStore (and, for the latest writes, the stream): a replica
 * starts empty and `rebuild`s from the store, and rebuilds again whenever it cannot trust the
 * feed (entries trimmed before it read them, Redis restarted without its data). So a writer
 * must save what `rebuild` reads (the derived vector, image analyses) before it upserts.
 */
export interface ReplicatedIndexOptions {
  readonly redisUrl: string
  /** The stream; processes sharing a catalog share it. Default `catalog-index:changes`. */
  readonly feedKey?: string
  /**
   * Feeds every indexed document from the source of truth into `apply` (in pages) and returns
   * how many it fed: the app pages through `CatalogStore.forEachProduct`. A failure is retried.
   */
  readonly rebuild: (
    apply: (docs: ReadonlyArray<IndexDocument>) => Effect.Effect<void>
  ) => Effect.Effect<number, unknown>
  /** Changes the stream keeps for replicas that fall behind (default 20,000); older ones cost a rebuild. */
  readonly maxLen?: number
  /** How long a write waits to be visible in this process's own replica (default 10 s). */
  readonly applyTimeout?: Duration.DurationInput
  readonly index?: EmbeddedIndexOverrides
}

/** This process's replica, for readiness and monitoring. */
export class IndexReplica extends Context.Tag("IndexReplica")<
  IndexReplica,
  {
    /** Completes once the replica has been filled from the store: the process may serve searches. */
    readonly synced: Effect.Effect<void>
    /** Changes published but not applied here yet. */
    readonly lag: Effect.Effect<number, IndexError>
  }
>() {}

const indexError = (error: ChangeFeedError) => new IndexError({ message: error.message, cause: error.cause })

/** Applies one page of a rebuild; a batch the replica refuses (dimension conflict) is retried document by document. */
const feedLeniently = (replica: EmbeddedCatalogIndexService, docs: ReadonlyArray<IndexDocument>) =>
  replica
    .upsert(docs)
    .pipe(
      Effect.catchAll(() =>
        Effect.forEach(
          docs,
          (doc) =>
            replica
              .upsert([doc])
              .pipe(Effect.catchAll((error) => Effect.logWarning("index replica: document skipped", error.message))),
          { discard: true }
        )
      )
    )

const applyChange = (replica: EmbeddedCatalogIndexService, change: IndexChange): Effect.Effect<void, IndexError> => {
  switch (change._tag) {
    case "Upsert":
      return replica.upsert([change.doc])
    case "Remove":
      return replica.remove(change.siteId, change.productIds)
    case "Columns":
      return Effect.asVoid(replica.refreshColumns([change.update]))
  }
}

const make = (options: ReplicatedIndexOptions) =>
  Effect.gen(function* () {
    const feed = yield* makeChangeFeed({
      redisUrl: options.redisUrl,
      key: options.feedKey ?? "catalog-index:changes",
      maxLen: options.maxLen
    }).pipe(Effect.mapError(indexError))
    const applyTimeout = options.applyTimeout ?? Duration.seconds(10)
    // Swapped whole by a rebuild, so searches keep answering from the old copy meanwhile.
    let replica = makeEmbeddedCatalogIndex(options.index)

    const following = yield* feed
      .follow({
        rebuild: Effect.gen(function* () {
          const fresh = makeEmbeddedCatalogIndex(options.index)
          const documents = yield* options.rebuild((docs) => feedLeniently(fresh, docs))
          replica = fresh
          yield* Effect.logInfo("index replica rebuilt", { documents })
        }),
        // Every process applies the same entries in the same order; an entry its replica refuses
        // (two writers racing with vectors of different dimensions) is refused everywhere alike.
        apply: (entries) =>
          Effect.forEach(
            entries,
            (values) =>
              Effect.try(() => decodeChange(values)).pipe(
                Effect.flatMap((change) => applyChange(replica, change)),
                Effect.catchAll((error) => Effect.logWarning("index replica: change skipped", String(error)))
              ),
            { discard: true }
          )
      })
      .pipe(Effect.mapError(indexError))

    /** Read-your-writes in the writing process; past the bound the write still reaches every replica. */
    const publishAndAwait = (entries: ReadonlyArray<FeedEntry>) =>
      feed.publish(entries).pipe(
        Effect.mapError(indexError),
        Effect.flatMap((id) => following.awaitApplied(id, applyTimeout)),
        Effect.flatMap((applied) =>
          applied
            ? Effect.void
            : Effect.logWarning(`index replica: a write was not applied here within ${Duration.format(applyTimeout)}`)
        )
      )

    const index: CatalogIndexService = {
      upsert: (docs) =>
        docs.length === 0
          ? Effect.void
          : Effect.suspend(() => replica.validate(docs)).pipe(
              Effect.andThen(() => publishAndAwait(docs.map(encodeUpsert)))
            ),
      remove: (siteId, productIds) =>
        productIds.length === 0 ? Effect.void : publishAndAwait([encodeRemove(siteId, productIds)]),
      // Every replica applies an update by the same rule, in the same order: this one's answer
      // (asked before publishing) stands for all. Refused updates are not published: the
      // caller upserts those documents whole.
      refreshColumns: (updates) =>
        Effect.suspend(() => {
          const fits = replica.columnsFit(updates)
          const published = updates.filter((_, i) => fits[i])
          return Effect.as(published.length === 0 ? Effect.void : publishAndAwait(published.map(encodeColumns)), fits)
        }),
      search: (query) => Effect.suspend(() => replica.search(query)),
      prepare: (scope) => Effect.suspend(() => replica.prepare(scope)),
      matchIds: (query) => Effect.suspend(() => replica.matchIds(query)),
      facets: (scope, request) => Effect.suspend(() => replica.facets(scope, request)),
      facet: (siteId, column, scope, limit) => Effect.suspend(() => replica.facet(siteId, column, scope, limit)),
      numericStats: (siteId, column, scope) => Effect.suspend(() => replica.numericStats(siteId, column, scope)),
      histogram: (siteId, column, scope, edges) =>
        Effect.suspend(() => replica.histogram(siteId, column, scope, edges)),
      retrieve: (siteId, productIds) => Effect.suspend(() => replica.retrieve(siteId, productIds)),
      scroll: (siteId, filter, limit, after) => Effect.suspend(() => replica.scroll(siteId, filter, limit, after)),
      count: (siteId, filter) => Effect.suspend(() => replica.count(siteId, filter)),
      // Published writes are already durable in the stream, and the store holds the rest.
      flush: Effect.void
    }
    return Context.make(CatalogIndex, index).pipe(
      Context.add(IndexReplica, { synced: following.synced, lag: following.lag.pipe(Effect.mapError(indexError)) })
    )
  })

export const ReplicatedCatalogIndex = {
  /**
   * Scoped: two Redis connections (commands, and the follower's blocking reads). Fails if Redis is
   * unreachable at start.
   */
  layer: (options: ReplicatedIndexOptions): Layer.Layer<CatalogIndex | IndexReplica, IndexError> =>
    Layer.scopedContext(make(options))
}
