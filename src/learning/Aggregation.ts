import { Effect } from "effect"
import type { ShopperEvent } from "../domain/ShopperEvents.js"
import type { Job } from "../model/Jobs.js"
import { EventLog, type StoredEvent } from "../services/event-log/EventLog.js"
import { JobQueue } from "../services/job-queue/JobQueue.js"
import { queueCatchUp } from "../services/job-queue/CatchUp.js"
import {
  dayOf,
  type KnownSearch,
  type ProductStats,
  type QueryFigures,
  ShopperStats,
  type StatsDelta
} from "../services/shopper-stats/ShopperStats.js"
import { normalize } from "../text/NormalForm.js"
import { Suggester } from "../services/suggester/Suggester.js"
import { decayedTo, EVENT_WEIGHTS, HALF_LIFE_MS } from "../services/shopper-stats/Decay.js"

/**
 * Aggregation (the AggregateEvents job, one site at a time): reads the site's event log from
 * where the statistics left off and adds what the events say, in steps that each land whole
 * with the cursor (ShopperStats.apply):
 * - popularity and recent activity per product (EVENT_WEIGHTS, decayed: services/shopper-stats/Decay.ts);
 * - orders per product and co-purchases per pair of products (baskets of up to
 *   PAIR_BASKET_LIMIT products: a wholesale basket of hundreds says little about which two go
 *   together and would cost its square);
 * - per query and day: searches (one per request id: a search the server recorded and the
 *   front end sent again counts once), zero-result searches, clicks on their results with
 *   their positions, searches with a click;
 * - a query shoppers clicked a result of is taught to auto-suggest (once per search): a query
 *   alone, which anyone holding the read-only token can send, plants no completion.
 */
export const PAIR_BASKET_LIMIT = 50
/** A step reads at most this many events and stops early past this many co-purchase increments. */
const STEP_EVENTS = 1_000
const STEP_PAIRS = 20_000

type MutableProduct = { -readonly [K in keyof ProductStats]: ProductStats[K] }
type MutableQuery = { -readonly [K in keyof QueryFigures]: QueryFigures[K] } & { day: number }

const distinctProducts = (event: ShopperEvent): ReadonlyArray<string> => [...new Set(event.productIds ?? [])]

const pairCost = (event: ShopperEvent) => {
  if (event.type !== "purchase") return 0
  const n = distinctProducts(event).length
  return n >= 2 && n <= PAIR_BASKET_LIMIT ? (n * (n - 1)) / 2 : 0
}

/** The events of one step: all of `events` up to the pair budget (at least one). */
const stepOf = (events: ReadonlyArray<StoredEvent>): ReadonlyArray<StoredEvent> => {
  let pairs = 0
  for (let i = 0; i < events.length; i++) {
    pairs += pairCost(events[i].event)
    if (pairs > STEP_PAIRS && i > 0) return events.slice(0, i)
  }
  return events
}

/** What a step adds, given the searches already known for the clicks' request ids. */
export const summarise = (events: ReadonlyArray<StoredEvent>, known: ReadonlyMap<string, KnownSearch>) => {
  const at = events.reduce((max, e) => Math.max(max, e.time), 0)
  const products = new Map<string, MutableProduct>()
  const pairs = new Map<string, { a: string; b: string; together: number }>()
  const queries = new Map<string, MutableQuery>()
  const searches = new Map<string, KnownSearch>()
  const learnt: Array<string> = []
  const figures = (day: number, query: string) => {
    const key = `${day}\n${query}`
    let entry = queries.get(key)
    if (entry === undefined) {
      entry = { day, query, searches: 0, zeroResults: 0, clicks: 0, positionSum: 0, clickedSearches: 0 }
      queries.set(key, entry)
    }
    return entry
  }
  const searchOf = (requestId: string) => searches.get(requestId) ?? known.get(requestId)

  for (const { event, time } of events) {
    const weight = EVENT_WEIGHTS[event.type]
    const ids = distinctProducts(event)
    if (weight > 0) {
      for (const productId of ids) {
        let entry = products.get(productId)
        if (entry === undefined) {
          entry = { productId, orders: 0, popularity: 0, recent: 0, at }
          products.set(productId, entry)
        }
        entry.popularity += decayedTo(weight, time, at, HALF_LIFE_MS.popularity)
        entry.recent += decayedTo(weight, time, at, HALF_LIFE_MS.recent)
        if (event.type === "purchase") entry.orders += 1
      }
    }
    if (event.type === "purchase" && ids.length >= 2 && ids.length <= PAIR_BASKET_LIMIT) {
      const sorted = [...ids].sort()
      for (let i = 0; i < sorted.length; i++) {
        for (let j = i + 1; j < sorted.length; j++) {
          const key = `${sorted[i]}\n${sorted[j]}`
          const pair = pairs.get(key)
          if (pair === undefined) pairs.set(key, { a: sorted[i], b: sorted[j], together: 1 })
          else pair.together += 1
        }
      }
    }
    if (event.type === "search" && event.query !== undefined) {
      const query = normalize(event.query)
      if (query.length === 0) continue
      if (event.requestId !== undefined && searchOf(event.requestId) !== undefined) continue
      const day = dayOf(time)
      const entry = figures(day, query)
      entry.searches += 1
      if (event.resultsCount === 0) entry.zeroResults += 1
      if (event.requestId !== undefined)
        searches.set(event.requestId, { requestId: event.requestId, query, day, clicked: false })
    }
    if (event.type === "click" && event.requestId !== undefined) {
      const search = searchOf(event.requestId)
      if (search === undefined) continue
      const entry = figures(search.day, search.query)
      entry.clicks += 1
      entry.positionSum += event.position ?? 0
      if (!search.clicked) {
        entry.clickedSearches += 1
        searches.set(search.requestId, { ...search, clicked: true })
        learnt.push(search.query)
      }
    }
  }
  const delta: StatsDelta = {
    products: [...products.values()],
    pairs: [...pairs.values()],
    queries: [...queries.values()],
    searches: [...searches.values()]
  }
  return { delta, learnt }
}

/**
 * Stores events in the site's log and queues their aggregation: POST /events and the server's
 * own search records both go through here. The events are stored when this returns; a failed
 * enqueue is only logged (the next batch's, or the reconcile pass, queues the job).
 */
export const storeEvents = (siteId: number, events: ReadonlyArray<ShopperEvent>, receivedAt: number) =>
  Effect.gen(function* () {
    const stored = yield* Effect.flatMap(EventLog, (log) => log.append(siteId, events, receivedAt))
    if (stored.accepted > 0) {
      yield* Effect.flatMap(JobQueue, (queue) => queue.enqueue([{ _tag: "AggregateEvents", siteId }])).pipe(
        Effect.catchAll((error) => Effect.logWarning("events stored; aggregation not queued", error))
      )
    }
    return stored
  })

/** The AggregateEvents jobs of a batch, one aggregation per site. */
export const aggregateJobs = (jobs: ReadonlyArray<Job>) =>
  Effect.forEach(new Set(jobs.flatMap((j) => (j._tag === "AggregateEvents" ? [j.siteId] : []))), aggregateSite, {
    discard: true
  })

/** Aggregates the site's events not aggregated yet; the number of events read. */
export const aggregateSite = (siteId: number) =>
  Effect.gen(function* () {
    const log = yield* EventLog
    const stats = yield* ShopperStats
    const suggester = yield* Suggester
    let read = 0
    for (;;) {
      const from = yield* stats.cursor(siteId)
      const page = yield* log.read(siteId, from, STEP_EVENTS)
      if (page.length === 0) break
      const step = stepOf(page)
      // Searches already counted: those clicked now, and those the server and the front end both sent.
      const requestIds = step.flatMap(({ event }) =>
        (event.type === "click" || event.type === "search") && event.requestId !== undefined ? [event.requestId] : []
      )
      const known = new Map((yield* stats.searches(siteId, requestIds)).map((s) => [s.requestId, s]))
      const { delta, learnt } = summarise(step, known)
      // Another aggregator moved the cursor meanwhile (two workers, a retried job): it does the rest.
      if (!(yield* stats.apply(siteId, from, step[step.length - 1].sequence, delta))) break
      read += step.length
      for (const query of learnt) yield* suggester.recordQuery(siteId, query, 1)
    }
    return read
  })

/**
 * Sites whose events are not all aggregated (the events were stored, then the process died
 * before its in-memory queue ran their job; or the enqueue failed) get an AggregateEvents job.
 */
export const reconcileAggregation = Effect.gen(function* () {
  const log = yield* EventLog
  const stats = yield* ShopperStats
  return yield* queueCatchUp(
    (siteId) => Effect.zipWith(log.last(siteId), stats.cursor(siteId), (last, cursor) => last > cursor),
    (siteId) => ({ _tag: "AggregateEvents", siteId })
  )
})
