import { Effect } from "effect"
import { createHash } from "node:crypto"
import { EVENT_LIMITS, type ShopperEvent } from "../domain/ShopperEvents.js"
import { storeEvents } from "./Aggregation.js"

/**
 * The server's own record of a text search, for search analytics: a `search` event with its
 * number of results, stored in the site's event log like a shopper's and aggregated with them
 * (a front end that sends the same search with the same requestId is counted once). Its event
 * id derives from the requestId, so a request sent again (a retry, the next page of the same
 * search) is one search. Off the request path: the search answers without waiting, and a
 * failure to record is logged, never the search's.
 */
export const recordSearch = (siteId: number, requestId: string, query: string, resultsCount: number) =>
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
      resultsCount
    }
    yield* storeEvents(siteId, [event], Date.now())
  }).pipe(
    Effect.catchAll((error) => Effect.logWarning("search not recorded for analytics", error)),
    Effect.forkDaemon,
    Effect.asVoid
  )
