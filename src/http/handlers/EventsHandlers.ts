import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { BadRequest, Forbidden } from "../../domain/Errors.js"
import { EVENT_LIMITS, eventTime, SHOPPER_SIDE_TYPES } from "../../domain/ShopperEvents.js"
import { storeEvents } from "../../learning/Aggregation.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"

export const EventsHandlers = HttpApiBuilder.group(CommerceApi, "events", (handlers) =>
  handlers.handle("sendEvents", ({ payload }) =>
    Effect.gen(function* () {
      const principal = yield* CurrentPrincipal
      const receivedAt = Date.now()
      for (const [i, event] of payload.events.entries()) {
        if (principal.scope !== "site" && !SHOPPER_SIDE_TYPES.has(event.type)) {
          return yield* new Forbidden({
            message:
              `events.${i}.type: a ${event.type} event needs site (Basic) credentials; ` +
              `a read-only token sends view, click, add_to_cart and search events`
          })
        }
        if (eventTime(event, receivedAt) > receivedAt + EVENT_LIMITS.futureMs) {
          return yield* new BadRequest({
            message: `events.${i}.timestamp: must not be more than 5 minutes in the future`
          })
        }
      }
      // Stored when this answers (the answer's promise); aggregation follows in the events lane.
      const { accepted, duplicates } = yield* restErrors(storeEvents(principal.siteId, payload.events, receivedAt))
      return {
        message: duplicates === 0 ? "events stored" : `events stored; ${duplicates} already known by their eventId`,
        data: { accepted, duplicates }
      }
    })
  )
)
