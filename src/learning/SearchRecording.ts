import { Effect, Runtime } from "effect"
import { createHash } from "node:crypto"
import { EVENT_LIMITS, type ShopperEvent } from "../domain/ShopperEvents.js"
import { type Batcher, makeBatcher } from "../platform/Batcher.js"
import { EventLog } from "../services/event-log/EventLog.js"
import type { JobQueue } from "../services/job-queue/JobQueue.js"
import { storeEvents } from "./Aggregation.js"

/** A search's record on its way to the event log. */
interface SearchRecord {
  readonly siteId: number
  readonly event: ShopperEvent
}

/**
 * Searches answered within this long of each other are recorded together: one append a site
 * (one SQLite transaction, or one message from a search replica to its api) and one aggregation
 * job, instead of one each per search (~5 % of a busy api's CPU went to them).
 */
const LINGER_MS = 10
const MAX_BATCH = 500

/** One batcher per event log (an api in a test shares its process with others). */
const batchers = new WeakMap<EventLog["Type"], Batcher<SearchRecord, void>>()

const batcherOf = Effect.gen(function* () {
  const log = yield* EventLog
  const known = batchers.get(log)
  if (known !== undefined) return known
  const runtime = yield* Effect.runtime<EventLog | JobQueue>()
  const store = (records: ReadonlyArray<SearchRecord>) => {
    const bySite = new Map<number, Array<ShopperEvent>>()
    for (const { siteId, event } of records) bySite.set(siteId, [...(bySite.get(siteId) ?? []), event])
    return Effect.forEach(
      bySite,
      ([siteId, events]) =>
        storeEvents(siteId, events, Date.now()).pipe(
          Effect.catchAll((error) => Effect.logWarning("searches not recorded for analytics", error))
        ),
      { discard: true }
    )
  }
  const batcher = makeBatcher<SearchRecord, void>(
    (records) =>
      Runtime.runPromise(runtime)(store(records)).then(() =>
        records.map(() => ({ ok: true, value: undefined }) as const)
      ),
    { maxBatch: MAX_BATCH, lingerMs: LINGER_MS }
  )
  batchers.set(log, batcher)
  return batcher
})

/**
 * The server's own record of a text search, for search analytics: a `search` event with its
 * number of results, stored in the site's event log like a shopper's and aggregated with them
 * (a front end that sends the same search with the same requestId is counted once). Its event
 * id derives from the requestId, so a request sent again (a retry, the next page of the same
 * search) is one search. Off the request path: the search answers without waiting, and a
 * failure to record is logged, never the search's.
 */
export const recordSearch = (
  siteId: number,
  requestId: string,
  query: string,
  resultsCount: number,
  rules: ReadonlyArray<string> = []
) =>
  Effect.gen(function* () {
    const eventId = `search:${requestId}`
    const event: ShopperEvent = {
      eventId:
        eventId.length <= EVENT_LIMITS.idChars
          ? eventId
          : `search:#${createHash("sha1").update(requestId).digest("hex")}`,
      type: "search",
      query: query.slice(0, EVENT_LIMITS.queryChars),
      requestId,
      resultsCount,
      ...(rules.length > 0 ? { rules } : {})
    }
    const batcher = yield* batcherOf
    // Failures are logged by the batch's store; the submission's own outcome is always success.
    batcher.submit({ siteId, event }).catch(() => {})
  })
