import { Context, Duration, Effect, Layer, Schedule } from "effect"
import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { makeChangeFeed, type ChangeFeedError, type FeedEntry } from "../../platform/redis/ChangeFeed.js"
import { type ProductSource, Suggester, SuggestError } from "./Suggester.js"
import { decodeChange, encodeIndex, encodeRemove } from "./CatalogChanges.js"
import { type CountedQuery, SharedQueryCounts } from "./SharedQueryCounts.js"
import { recordableQuery, SiteVocabularies } from "./SiteVocabularies.js"

export interface RedisSuggesterOptions {
  readonly redisUrl: string
  /** Prefix of every key (the catalog feed, the searched queries); default `suggest`. */
  readonly keyPrefix?: string
  /**
   * Feeds every indexed product from the source of truth into `apply` (in pages) and returns
   * how many it fed: the app pages through `CatalogStore.forEachProduct` with `suggestSource`.
   */
  readonly rebuild: (
    apply: (products: ReadonlyArray<ProductSource>) => Effect.Effect<void>
  ) => Effect.Effect<number, unknown>
  /** How often this process's searches are added to Redis (default 500 ms). */
  readonly flushEvery?: Duration.DurationInput
  /** How often other processes' searches are read from Redis (default 5 s). */
  readonly refreshEvery?: Duration.DurationInput
  /** How long a catalog change waits to be visible in this process (default 10 s). */
  readonly applyTimeout?: Duration.DurationInput
  /** Catalog changes the feed keeps for processes that fall behind (default 20,000). */
  readonly maxLen?: number
}

/** This process's copy of the vocabulary, for readiness and monitoring. */
export class SuggestReplica extends Context.Tag("SuggestReplica")<
  SuggestReplica,
  {
    /** Completes once the vocabulary has been filled from the store and Redis. */
    readonly synced: Effect.Effect<void>
    /** Catalog changes published but not applied here yet. */
    readonly lag: Effect.Effect<number, SuggestError>
  }
>() {}

const suggestError = (error: ChangeFeedError) => new SuggestError({ message: error.message, cause: error.cause })

/**
 * A vocabulary and, per site and query, the Redis total it already counts: a refresh adds
 * only the difference, so a search is never counted twice in one process.
 */
interface View {
  readonly vocabularies: SiteVocabularies
  readonly counted: Map<string, number>
}
const queryKey = (siteId: number, query: string) => `${siteId}\u0000${query}`

const absorb = (view: View, rows: ReadonlyArray<CountedQuery>) => {
  for (const { siteId, query, count, lastSeen } of rows) {
    const key = queryKey(siteId, query)
    // A total below ours means Redis lost searches; the vocabulary keeps counting what it saw.
    const delta = count - (view.counted.get(key) ?? 0)
    if (delta <= 0) continue
    view.vocabularies.addSearches(siteId, query, delta, lastSeen)
    view.counted.set(key, count)
  }
}

/** Per site and query, searches made here and not yet added to Redis. */
type Pending = Map<number, Map<string, number>>
const addPending = (pending: Pending, siteId: number, queries: ReadonlyMap<string, number>) => {
  let site = pending.get(siteId)
  if (site === undefined) pending.set(siteId, (site = new Map()))
  for (const [query, count] of queries) site.set(query, (site.get(query) ?? 0) + count)
}

const make = (options: RedisSuggesterOptions) =>
  Effect.gen(function* () {
    const prefix = options.keyPrefix ?? "suggest"
    const applyTimeout = options.applyTimeout ?? Duration.seconds(10)
    const client = yield* connectFailFast(
      options.redisUrl,
      { commandTimeoutMs: 5_000 },
      (cause) => new SuggestError({ message: `suggester: cannot connect to Redis: ${String(cause)}`, cause })
    )
    const counts = new SharedQueryCounts(client, `${prefix}:queries`)
    const feed = yield* makeChangeFeed({
      redisUrl: options.redisUrl,
      key: `${prefix}:catalog`,
      maxLen: options.maxLen
    }).pipe(Effect.mapError(suggestError))

    // Replaced whole by a rebuild; `lock` orders flushes, refreshes and that swap, each of which
    // reads or moves `counted`.
    let view: View = { vocabularies: new SiteVocabularies(), counted: new Map() }
    let pending: Pending = new Map()
    let refreshedAt = 0
    const lock = yield* Effect.makeSemaphore(1)

    const flushOnce = async () => {
      const taken = pending
      pending = new Map()
      let failure: unknown
      for (const [siteId, queries] of taken) {
        try {
          await counts.add(siteId, queries)
          for (const [query, count] of queries) {
            const key = queryKey(siteId, query)
            view.counted.set(key, (view.counted.get(key) ?? 0) + count)
          }
        } catch (cause) {
          // Kept for the next flush: Redis down only delays searches, it does not lose them.
          addPending(pending, siteId, queries)
          failure = cause
        }
      }
      if (failure !== undefined) throw failure
    }

    const refreshOnce = async () => {
      const now = await counts.now()
      absorb(view, await counts.touchedSince(refreshedAt))
      refreshedAt = now
    }

    // One warning per outage, not one per tick.
    const quietly = (what: string, run: () => Promise<void>) => {
      let failing = false
      return lock
        .withPermits(1)(Effect.tryPromise(run))
        .pipe(
          Effect.andThen(() => {
            failing = false
          }),
          Effect.catchAll((error) => {
            const first = !failing
            failing = true
            return first ? Effect.logWarning(`suggester: ${what} failed, will retry`, error.error) : Effect.void
          })
        )
    }
    const flush = quietly("adding searches to Redis", flushOnce)
    const refresh = quietly("reading searches from Redis", refreshOnce)

    const following = yield* feed
      .follow({
        rebuild: Effect.gen(function* () {
          const vocabularies = new SiteVocabularies()
          const products = yield* options.rebuild((page) =>
            Effect.sync(() => page.forEach((p) => vocabularies.indexProduct(p.siteId, p.productId, p.source)))
          )
          yield* lock.withPermits(1)(
            Effect.tryPromise(async () => {
              const now = await counts.now()
              const next: View = { vocabularies, counted: new Map() }
              absorb(next, await counts.touchedSince(0))
              const at = Date.now()
              for (const [siteId, queries] of pending)
                for (const [query, count] of queries) vocabularies.addSearches(siteId, query, count, at)
              view = next
              refreshedAt = now
            })
          )
          yield* Effect.logInfo("suggester vocabulary rebuilt", { products })
        }),
        apply: (entries) =>
          Effect.forEach(
            entries,
            (values) =>
              Effect.try(() => {
                const change = decodeChange(values)
                if (change._tag === "Index")
                  view.vocabularies.indexProduct(change.siteId, change.productId, change.source)
                else view.vocabularies.removeProduct(change.siteId, change.productId)
              }).pipe(Effect.catchAll((error) => Effect.logWarning("suggester: change skipped", String(error)))),
            { discard: true }
          )
      })
      .pipe(Effect.mapError(suggestError))

    // Registered before the flusher is forked, so it runs after the flusher stops: a last flush.
    yield* Effect.addFinalizer(() => flush)
    yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced(options.flushEvery ?? "500 millis")))
    // The rebuild reads everything; refreshing before it would only read it twice.
    yield* Effect.forkScoped(
      following.synced.pipe(
        Effect.zipRight(Effect.repeat(refresh, Schedule.spaced(options.refreshEvery ?? "5 seconds")))
      )
    )

    /** Visible in this process once it returns (within `applyTimeout`), in every process soon after. */
    const publish = (entries: ReadonlyArray<FeedEntry>) =>
      feed.publish(entries).pipe(
        Effect.mapError(suggestError),
        Effect.flatMap((id) => following.awaitApplied(id, applyTimeout)),
        Effect.flatMap((applied) =>
          applied
            ? Effect.void
            : Effect.logWarning(
                `suggester: a catalog change was not applied here within ${Duration.format(applyTimeout)}`
              )
        )
      )

    const suggester = Suggester.of({
      indexProducts: (products) =>
        products.length === 0
          ? Effect.void
          : publish(products.map((p) => encodeIndex(p.siteId, p.productId, p.source))),
      removeProducts: (siteId, productIds) =>
        productIds.length === 0 ? Effect.void : publish(productIds.map((id) => encodeRemove(siteId, id))),
      recordQuery: (siteId, query, resultCount) =>
        Effect.sync(() => {
          const normalized = recordableQuery(query, resultCount)
          if (normalized === null) return
          view.vocabularies.addSearches(siteId, normalized, 1, Date.now())
          addPending(pending, siteId, new Map([[normalized, 1]]))
        }),
      suggest: (siteId, prefix, limit) =>
        Effect.sync(() => view.vocabularies.suggest(siteId, prefix, limit, Date.now()))
    })
    return Context.make(Suggester, suggester).pipe(
      Context.add(SuggestReplica, { synced: following.synced, lag: following.lag.pipe(Effect.mapError(suggestError)) })
    )
  })

/**
 * The Suggester of the distributed topology. The catalog vocabulary is replicated: every
 * process keeps it in memory, fed by a change feed (redis/ChangeFeed.ts) that the indexing
 * workers publish to, and rebuilt from the store at start (and whenever the feed cannot be
 * trusted). Searched queries are counted in Redis, so a search on one api replica completes on
 * every other within `refreshEvery`, and survives restarts.
 */
export const RedisSuggester = {
  /**
   * Scoped: three Redis connections (commands and feed, the follower's blocking reads). Fails if
   * Redis is unreachable at start.
   */
  layer: (options: RedisSuggesterOptions): Layer.Layer<Suggester | SuggestReplica, SuggestError> =>
    Layer.scopedContext(make(options))
}
