import { Clock, Effect } from "effect"
import { LruCache } from "../../../platform/LruCache.js"

/** One count of a site's statistics, by a name unique within the site. */
export interface StatisticRequest<E> {
  readonly name: string
  readonly count: Effect.Effect<number, E>
}

interface Entry {
  readonly value: unknown
  /** The site's epoch when the count was asked for: a later write makes it stale. */
  readonly epoch: number
  readonly expires: number
}

/**
 * Values derived from a site's contents and asked of Qdrant, remembered for a short time: a
 * common query's exact total and its result set's member ids (see Query.ts), the second round
 * of a search whose lists were cut.
 *
 * Every write to the site, by this process or another (each reaches every process through the
 * term feed, see TermReplica.ts), calls `invalidate`, and a value asked for before an
 * invalidation is never stored as current (it carries the old epoch). `ttlMillis` bounds the
 * rest: an expired value is answered while it is asked again in the background.
 */
export class StatisticsCache {
  private readonly entries: LruCache<string, Entry>
  private readonly epochs = new Map<number, number>()
  private generation = 0

  constructor(
    capacity: number,
    private readonly ttlMillis: number
  ) {
    this.entries = new LruCache(capacity)
  }

  /**
   * The counts of `requests`, in order: remembered ones as they are, the others asked for
   * together. An expired count is answered as it was and asked for again in the background:
   * only a count never asked for (or asked for before this process's last write) waits.
   */
  counts<E>(siteId: number, requests: ReadonlyArray<StatisticRequest<E>>): Effect.Effect<Array<number>, E> {
    return Effect.gen(this, function* () {
      const now = yield* Clock.currentTimeMillis
      const epoch = this.epochs.get(siteId) ?? 0
      const values = requests.map(
        ({ name, count }) => this.known(siteId, name, epoch, now, count) as number | undefined
      )
      const missing = requests.filter((_, i) => values[i] === undefined)
      const fetched = yield* Effect.forEach(missing, (request) => request.count, { concurrency: 16 })
      missing.forEach(({ name }, i) => this.store(siteId, name, fetched[i], epoch, now))
      let next = 0
      return values.map((value) => value ?? fetched[next++])
    })
  }

  /** One value derived from the site's contents, remembered under `name` as counts are. */
  remember<A, E>(siteId: number, name: string, compute: Effect.Effect<A, E>): Effect.Effect<A, E> {
    return Effect.gen(this, function* () {
      const now = yield* Clock.currentTimeMillis
      const epoch = this.epochs.get(siteId) ?? 0
      const known = this.known(siteId, name, epoch, now, compute)
      if (known !== undefined) return known as A
      const value = yield* compute
      this.store(siteId, name, value, epoch, now)
      return value
    })
  }

  /**
   * The remembered value, if any under the site's current epoch. Once expired it is still
   * answered, and `compute` runs once in the background to replace it (its entry counts as
   * fresh meanwhile, so concurrent queries do not ask again; a failure leaves the old value
   * to be asked for again after another `ttlMillis`).
   */
  private known<E>(
    siteId: number,
    name: string,
    epoch: number,
    now: number,
    compute: Effect.Effect<unknown, E>
  ): unknown {
    const key = `${siteId}:${name}`
    const entry = this.entries.get(key)
    if (entry === undefined || entry.epoch !== epoch) return undefined
    if (entry.expires <= now) {
      this.entries.set(key, { ...entry, expires: now + this.ttlMillis })
      Effect.runFork(
        compute.pipe(
          Effect.tap((value) => Effect.sync(() => this.store(siteId, name, value, epoch, now))),
          Effect.ignore
        )
      )
    }
    return entry.value
  }

  /**
   * Stored with the epoch it was asked under: a write seen meanwhile makes it stale at once.
   * A value asked for under an older epoch than the entry's never replaces it.
   */
  private store(siteId: number, name: string, value: unknown, epoch: number, now: number): void {
    const key = `${siteId}:${name}`
    if ((this.entries.get(key)?.epoch ?? -1) > epoch) return
    this.entries.set(key, { value, epoch, expires: now + this.ttlMillis })
  }

  /** Forgets the site's counts: called once this process's write to the site is acknowledged (or failed). */
  invalidate(siteId: number): void {
    this.epochs.set(siteId, ++this.generation)
  }
}
