import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { BadRequest, Forbidden } from "../../domain/Errors.js"
import { EVENT_LIMITS, eventTime, SHOPPER_SIDE_TYPES } from "../../domain/ShopperEvents.js"
import { EventLog } from "../../services/event-log/EventLog.js"
import { JobQueue } from "../../services/job-queue/JobQueue.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"

export const EventsHandlers = HttpApiBuilder.group(CommerceApi, "events", (handlers) =>
  handlers.handle("sendEvents", ({ payload }) =>
    Effect.gen(function*() {
      const principal = yield* CurrentPrincipal
      const receivedAt = Date.now()
      for (const [i, event] of payload.events.entries()) {
        if (principal.scope !== "site" && !SHOPPER_SIDE_TYPES.has(event.type)) {
          return yield* new Forbidden({ message: `events.${i}.type: a ${event.type} event needs site (Basic) credentials; a read-only token sends view, click, add_to_cart and search events` })
        }
        if (eventTime(event, receivedAt) > receivedAt + EVENT_LIMITS.futureMs) {
          return yield* new BadRequest({ message: `events.${i}.timestamp: must not be more than 5 minutes in the future` })
        }
      }
      const log = yield* EventLog
      const { accepted, duplicates } = yield* restErrors(log.append(principal.siteId, payload.events, receivedAt))
      // The events are stored (the answer's promise); aggregation follows in the events lane. A
      // failed enqueue is healed by the next batch's, or the reconcile pass.
      if (accepted > 0) {
        yield* Effect.flatMap(JobQueue, (queue) => queue.enqueue([{ _tag: "AggregateEvents", siteId: principal.siteId }])).pipe(
          Effect.catchAll((error) => Effect.logWarning("events stored; aggregation not queued", error))
        )
      }
      return { message: duplicates === 0 ? "events stored" : `events stored; ${duplicates} already known by their eventId`, data: { accepted, duplicates } }
    }))
)
