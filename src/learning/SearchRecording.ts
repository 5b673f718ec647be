import { Effect } from "effect"
import { createHash } from "node:crypto"
import { EVENT_LIMITS, type ShopperEvent } from "../domain/ShopperEvents.js"
import { EventLog } from "../services/event-log/EventLog.js"
import { JobQueue } from "../services/job-queue/JobQueue.js"

/**
 * The server's own record of a text search, for search analytics: a `search` event with its
 * number of results, stored in the site's event log like a shopper's and aggregated with them
 * (a front end that sends the same search with the same requestId is counted once). Its event
 * id derives from the requestId, so a request sent again (a retry, the next page of the same
 * search) is one search. Off the request path: the search answers without waiting, and a
 * failure to record is logged, never the search's.
 */
export const recordSearch = (siteId: number, requestId: string, query: string, resultsCount: number) =>
  Effect.gen(function*() {
    const eventId = `search:${requestId}`
    const event: ShopperEvent = {
      eventId: eventId.length <= EVENT_LIMITS.idChars ? eventId : `search:#${createHash("sha1").update(requestId).digest("hex")}`,
      type: "search",
      query: query.slice(0, EVENT_LIMITS.queryChars),
      requestId,
      resultsCount
    }
    const { accepted } = yield* Effect.flatMap(EventLog, (log) => log.append(siteId, [event], Date.now()))
    if (accepted > 0) yield* Effect.flatMap(JobQueue, (queue) => queue.enqueue([{ _tag: "AggregateEvents", siteId }]))
  }).pipe(
    Effect.catchAll((error) => Effect.logWarning("search not recorded for analytics", error)),
    Effect.forkDaemon,
    Effect.asVoid
  )
