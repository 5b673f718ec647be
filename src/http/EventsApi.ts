import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { BadRequest, Forbidden, ServiceUnavailable } from "../domain/Errors.js"
import { EVENT_LIMITS, EventsPayload, EventsResponse } from "../domain/ShopperEvents.js"
import { Authentication } from "./Authentication.js"

/**
 * POST /events: shoppers' events (a design of ours: the spec shows none). Site credentials send
 * every type; a read-only token, which a shop's pages hold in the open, sends the shopper-side
 * types only (view, click, add_to_cart, search): a purchase names an order and drives
 * bought-together and best-seller figures, so it comes from the shop's server.
 */
export class EventsApi extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.post("sendEvents", "/events")
      .annotate(OpenApi.Summary, "Record what shoppers did: views, clicks, carts, purchases, searches")
      .annotate(
        OpenApi.Description,
        `Body \`{"events": [...]}\`, 1 to ${EVENT_LIMITS.events} events, each \`{eventId, type, productIds?, ` +
          "quantity?, price?, query?, requestId?, position?, orderId?, userToken?, sessionId?, timestamp?}`. " +
          "`eventId` makes sending idempotent: an id the site already has is counted in `duplicates` and not " +
          "stored again. view, click and add_to_cart name at least one product; a purchase names the products " +
          "bought (the whole basket) and its `orderId`; a search carries its `query` (and `resultsCount` when a " +
          "front end served it itself; the server records the searches it answers). A click naming a search's " +
          "`requestId` (every POST /text-search answer carries one) carries its `position`, 1-based. `timestamp`: " +
          "ISO 8601 with a time zone or epoch milliseconds, at most 5 minutes ahead (default: when received; past " +
          "orders may be sent with their own dates). Durable once answered. Read-only tokens may send view, " +
          "click, add_to_cart and search events; purchases need site credentials (403)."
      )
      .setPayload(EventsPayload)
      .addSuccess(EventsResponse)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(ServiceUnavailable)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Shoppers' events, the input of popularity, bought-together and search analytics.") {}
