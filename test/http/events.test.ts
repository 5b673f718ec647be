import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../support/Http.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi()
})
afterAll(() => server?.close())

const send = (events: unknown, auth = server.siteA.basic) =>
  call(server.baseUrl, "POST", "/events", { auth, body: { events } })

describe("POST /events", () => {
  it("stores a mixed batch once: a repeated eventId is a duplicate, in the same body or sent again", async () => {
    const batch = [
      { eventId: "v-1", type: "view", productIds: ["p1"], userToken: "u1", sessionId: "s1" },
      { eventId: "s-1", type: "search", query: "red shoes", requestId: "r1", timestamp: "2026-11-20T10:00:00Z" },
      { eventId: "c-1", type: "click", productIds: ["p1"], requestId: "r1", position: 3 },
      { eventId: "a-1", type: "add_to_cart", productIds: ["p1"], quantity: 2, price: 19.9 },
      { eventId: "o-1", type: "purchase", productIds: ["p1", "p2"], orderId: "o-1", timestamp: 1_763_600_000_000 },
      { eventId: "v-1", type: "view", productIds: ["p1"] }
    ]
    const first = await send(batch)
    expect(first).toMatchObject({ status: 200, body: { data: { accepted: 5, duplicates: 1 } } })
    const again = await send(batch.slice(0, 2))
    expect(again).toMatchObject({ status: 200, body: { data: { accepted: 0, duplicates: 2 } } })
    expect(again.body.message).toContain("2 already known")
  })

  it("answers 400 naming the event and field for each rule", async () => {
    const cases: Array<[unknown, string]> = [
      [[{ eventId: "x", type: "view" }], "productIds"],
      [[{ eventId: "x", type: "purchase", productIds: ["p1"] }], "orderId"],
      [[{ eventId: "x", type: "search" }], "query"],
      [[{ eventId: "x", type: "like", productIds: ["p1"] }], "type"],
      [[{ type: "view", productIds: ["p1"] }], "eventId"],
      [[{ eventId: "x", type: "view", productIds: ["p1"], colour: "red" }], "colour"],
      [[{ eventId: "x", type: "view", productIds: ["p1"], position: 0 }], "position"],
      [[{ eventId: "x", type: "view", productIds: ["p1"], timestamp: "yesterday" }], "timestamp"],
      [[{ eventId: "x", type: "view", productIds: ["a/b"] }], "productIds"],
      [[], "events"],
      [Array.from({ length: 1_001 }, (_, n) => ({ eventId: `e${n}`, type: "view", productIds: ["p1"] })), "events"]
    ]
    for (const [events, field] of cases) {
      const res = await send(events)
      expect({ events: JSON.stringify(events).slice(0, 80), status: res.status }).toEqual({
        events: JSON.stringify(events).slice(0, 80),
        status: 400
      })
      expect(JSON.stringify(res.body)).toContain(field)
    }
    const future = await send([
      { eventId: "f", type: "view", productIds: ["p1"] },
      { eventId: "g", type: "view", productIds: ["p1"], timestamp: Date.now() + 3_600_000 }
    ])
    expect(future).toMatchObject({
      status: 400,
      body: { message: "events.1.timestamp: must not be more than 5 minutes in the future" }
    })
    // Nothing of a refused body is stored: the valid event of it is new afterwards.
    expect(await send([{ eventId: "f", type: "view", productIds: ["p1"] }])).toMatchObject({
      status: 200,
      body: { data: { accepted: 1, duplicates: 0 } }
    })
  })

  it("takes shopper-side events from a read-only token, purchases only with site credentials", async () => {
    expect(await send([{ eventId: "t-v", type: "view", productIds: ["p1"] }], server.siteA.bearer)).toMatchObject({
      status: 200,
      body: { data: { accepted: 1 } }
    })
    const purchase = await send(
      [{ eventId: "t-o", type: "purchase", productIds: ["p1"], orderId: "o9" }],
      server.siteA.bearer
    )
    expect(purchase.status).toBe(403)
    expect(purchase.body.message).toContain("events.0.type")
    expect((await call(server.baseUrl, "POST", "/events", { body: { events: [] } })).status).toBe(401)
  })

  it("keeps each site's event ids apart", async () => {
    const event = { eventId: "shared-id", type: "view", productIds: ["p1"] }
    expect(await send([event], server.siteA.basic)).toMatchObject({ status: 200, body: { data: { accepted: 1 } } })
    expect(await send([event], server.siteB.basic)).toMatchObject({ status: 200, body: { data: { accepted: 1 } } })
    expect(await send([event], server.siteB.basic)).toMatchObject({ status: 200, body: { data: { duplicates: 1 } } })
  })
})
