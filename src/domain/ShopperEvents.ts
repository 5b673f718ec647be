import { Either, JSONSchema, ParseResult, Schema } from "effect"
import { compiledDecoder } from "./CompiledCheck.js"
import { ProductId } from "./Catalog.js"
import { maxChars, oneOf } from "./Product.js"

/**
 * POST /events: what shoppers did (views, clicks, carts, purchases, searches), sent by a shop's
 * front end or its order system. Each event names its own id, which makes a send idempotent:
 * an event id seen before for the site is counted as a duplicate and stored once.
 */
export const EVENT_LIMITS = {
  /** Events in one request. */
  events: 1_000,
  /** Products one event names (a purchase: the whole basket; a wholesale order holds hundreds). */
  productIds: 1_000,
  idChars: 200,
  queryChars: 500,
  /** How far in the future an event's timestamp may be (clocks drift). */
  futureMs: 5 * 60_000
} as const

export const EVENT_TYPES = ["view", "click", "add_to_cart", "purchase", "search"] as const
export const EventType = oneOf(...EVENT_TYPES)
export type EventType = typeof EventType.Type

/** Events a read-only (Bearer) token may send: a browser holds that token, so not purchases. */
export const SHOPPER_SIDE_TYPES: ReadonlySet<EventType> = new Set(["view", "click", "add_to_cart", "search"])

const Id = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  maxChars(EVENT_LIMITS.idChars)
)
const Count = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1, { message: () => "must be an integer >= 1" })
)
const Results = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0, { message: () => "must be an integer >= 0" })
)
const Amount = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) && n >= 0, { message: () => "must be a finite number >= 0" })
)

/** An ISO 8601 date-time with its offset ("2026-11-28T10:15:00Z"), or epoch milliseconds. */
const Timestamp = Schema.Union(
  Schema.String.pipe(
    Schema.filter(
      (s) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s))
    )
  ),
  Schema.Number.pipe(Schema.filter((n) => Number.isInteger(n) && n >= 0))
).annotations({
  message: () => ({
    message:
      'must be an ISO 8601 date-time with a time zone (e.g. "2026-11-28T10:15:00Z") or epoch milliseconds ' +
      "(an integer >= 0)",
    override: true
  })
})

const opt = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true })

const EventFields = Schema.Struct({
  eventId: Id,
  type: EventType,
  productIds: opt(
    Schema.Array(ProductId).pipe(
      Schema.maxItems(EVENT_LIMITS.productIds, {
        message: () => `must hold at most ${EVENT_LIMITS.productIds} products`
      })
    )
  ),
  quantity: opt(Count),
  price: opt(Amount),
  query: opt(Schema.String.pipe(maxChars(EVENT_LIMITS.queryChars))),
  /** A search's number of results (0: it found nothing); the server records its own searches with it. */
  resultsCount: opt(Results),
  /** The query rules that fired for a search (the server records its own searches with them). */
  rules: opt(Schema.Array(Id).pipe(Schema.maxItems(50))),
  requestId: opt(Id),
  position: opt(Count),
  orderId: opt(Id),
  userToken: opt(Id),
  sessionId: opt(Id),
  timestamp: opt(Timestamp)
})

/** What each type must carry: the products it is about, a purchase's order, a search's query. */
const missing = (event: typeof EventFields.Type): { readonly path: string; readonly message: string } | undefined => {
  switch (event.type) {
    case "click":
      if ((event.productIds?.length ?? 0) === 0)
        return { path: "productIds", message: "a click event names at least one product" }
      // Clicks count per position in search analytics, as Insights APIs ask for.
      return event.requestId !== undefined && event.position === undefined
        ? {
            path: "position",
            message: "a click naming a search's requestId carries its position in the results (1-based)"
          }
        : undefined
    case "view":
    case "add_to_cart":
      return (event.productIds?.length ?? 0) === 0
        ? { path: "productIds", message: `a ${event.type} event names at least one product` }
        : undefined
    case "purchase":
      if ((event.productIds?.length ?? 0) === 0)
        return { path: "productIds", message: "a purchase event names the products bought" }
      return event.orderId === undefined
        ? { path: "orderId", message: "a purchase event carries its order id" }
        : undefined
    case "search":
      return event.query === undefined ? { path: "query", message: "a search event carries its query" } : undefined
  }
}

export const ShopperEvent = EventFields.pipe(
  Schema.filter((event) => {
    const issue = missing(event)
    return issue === undefined ? true : { path: [issue.path], message: issue.message }
  })
).annotations({ identifier: "ShopperEvent" })
export type ShopperEvent = typeof ShopperEvent.Type

export const EventsBody = Schema.Struct({
  events: Schema.Array(ShopperEvent).pipe(
    Schema.minItems(1, { message: () => "must hold at least one event" }),
    Schema.maxItems(EVENT_LIMITS.events, {
      message: () => `must hold at most ${EVENT_LIMITS.events} events (send more requests)`
    })
  )
}).annotations({ identifier: "EventsBody" })
export type EventsBody = typeof EventsBody.Type

const decodeBody = compiledDecoder(EventsBody, { onExcessProperty: "error" })

/**
 * A schema's JSON Schema with its definitions written in place (none is recursive), to document a
 * body decoded another way.
 */
const inlined = (schema: Schema.Schema.Any): object => {
  const { $defs, $ref } = JSONSchema.make(schema) as { $defs: Record<string, unknown>; $ref: string }
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve)
    if (node === null || typeof node !== "object") return node
    const ref = (node as { $ref?: unknown }).$ref
    if (typeof ref === "string" && ref.startsWith("#/$defs/")) return resolve($defs[ref.slice("#/$defs/".length)])
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value)]))
  }
  return resolve({ $ref }) as object
}

/**
 * The POST /events body as the endpoint decodes it: EventsBody's rules compiled into one
 * check first (Effect's decoder alone would be most of a batch's cost), and Effect's
 * decoder for whatever the check does not accept, so a refusal names the field and rule as
 * the schema does. Documented as EventsBody.
 */
export const EventsPayload = Schema.transformOrFail(
  Schema.Unknown.annotations({ jsonSchema: inlined(EventsBody) }),
  Schema.typeSchema(EventsBody),
  {
    strict: true,
    decode: (input) => Either.mapLeft(decodeBody(input), (error) => error.issue),
    encode: ParseResult.succeed
  }
).annotations({ identifier: "EventsBody" })

/** An event's time in epoch milliseconds: its own timestamp, or when it was received. */
export const eventTime = (event: ShopperEvent, receivedAt: number): number =>
  event.timestamp === undefined
    ? receivedAt
    : typeof event.timestamp === "number"
      ? event.timestamp
      : Date.parse(event.timestamp)

export const EventsResponse = Schema.Struct({
  message: Schema.String,
  data: Schema.Struct({
    /** Events stored by this request. */
    accepted: Schema.Int,
    /** Events whose id the site had already (stored before, or twice in this body): not stored again. */
    duplicates: Schema.Int
  })
})
export type EventsResponse = typeof EventsResponse.Type
