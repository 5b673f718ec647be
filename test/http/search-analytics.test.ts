import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"
import { call } from "../support/Http.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi()
  for (const site of [server.siteA, server.siteB]) {
    for (const [id, title] of [
      ["drill-1", "Cordless hammer drill"],
      ["drill-2", "Compact drill driver"],
      ["saw-1", "Circular saw"]
    ]) {
      expect(
        (
          await call(server.baseUrl, "PUT", `/product/${id}`, {
            auth: site.basic,
            body: { data: { title, product_type: "Tools" } }
          })
        ).status
      ).toBe(200)
    }
  }
})
afterAll(() => server?.close())

const aggregated = () => server.run(Effect.flatMap(JobQueue, (queue) => queue.drained))
const search = async (query: string, auth = server.siteA.bearer, requestId?: string) => {
  const res = await call(server.baseUrl, "POST", "/text-search", {
    auth,
    body: { query, ...(requestId ? { requestId } : {}) }
  })
  expect(res.status).toBe(200)
  return { requestId: res.body.requestId as string, found: res.body.data.products.length as number }
}
const send = (events: ReadonlyArray<unknown>, auth = server.siteA.bearer) =>
  call(server.baseUrl, "POST", "/events", { auth, body: { events } })
const analytics = (query = "", auth = server.siteA.basic) =>
  call(server.baseUrl, "GET", `/analytics/searches${query}`, { auth })

describe("GET /analytics/searches", () => {
  it(
    "counts a scripted sequence of searches and clicks: top, " +
      "zero-result and unclicked queries, CTR and click position",
    async () => {
      const drills = [await search("Drill"), await search("drill"), await search("  DRILL ")]
      expect(drills.every((d) => d.found > 0)).toBe(true)
      // A search asking to be left out (a merchant's preview) counts nowhere.
      const preview = await call(server.baseUrl, "POST", "/text-search", {
        auth: server.siteA.bearer,
        body: { query: "drill", analytics: false }
      })
      expect(preview.status).toBe(200)
      const saw = await search("circular saw")
      expect(saw.found).toBeGreaterThan(0)
      // The same requestId again (a retry, the next page): one search.
      await search("circular saw", server.siteA.bearer, saw.requestId)
      // A front end reports a search it answered from its own cache, one that found nothing,
      // one the server already recorded (counted once), and one on a past day.
      expect(
        (
          await send([
            { eventId: "fe-1", type: "search", query: "circular saw", requestId: "cache-1", resultsCount: 4 },
            { eventId: "fe-2", type: "search", query: "Flux capacitor", requestId: "cache-2", resultsCount: 0 },
            { eventId: "fe-3", type: "search", query: "flux capacitor", resultsCount: 0 },
            { eventId: "fe-4", type: "search", query: "drill", requestId: drills[0].requestId, resultsCount: 2 },
            {
              eventId: "fe-5",
              type: "search",
              query: "drill",
              requestId: "old-1",
              resultsCount: 2,
              timestamp: "2026-01-05T10:00:00Z"
            }
          ])
        ).status
      ).toBe(200)
      // Two clicks on the first drill search (positions 2 and 4), one on the second (1); none on the saw.
      expect(
        (
          await send([
            { eventId: "c-1", type: "click", productIds: ["drill-1"], requestId: drills[0].requestId, position: 2 },
            { eventId: "c-2", type: "click", productIds: ["drill-2"], requestId: drills[0].requestId, position: 4 },
            { eventId: "c-3", type: "click", productIds: ["drill-1"], requestId: drills[1].requestId, position: 1 },
            // A click naming a search nobody recorded counts nowhere.
            { eventId: "c-4", type: "click", productIds: ["saw-1"], requestId: "unknown", position: 1 }
          ])
        ).status
      ).toBe(200)
      await aggregated()

      const res = await analytics()
      expect(res.status).toBe(200)
      const today = new Date().toISOString().slice(0, 10)
      expect(res.body.data.to).toBe(today)
      expect(res.body.data.totals).toEqual({ searches: 7, zeroResults: 2, clicks: 3, clickThroughRate: 0.4 })
      // Day by day over the default 30 days: today holds them all (the January search is outside).
      expect(res.body.data.days).toHaveLength(30)
      expect(res.body.data.days.at(-1)).toEqual({ day: today, searches: 7, zeroResults: 2, clicks: 3 })
      expect(res.body.data.days.slice(0, -1).every((d: { searches: number }) => d.searches === 0)).toBe(true)
      expect(res.body.data.topQueries).toEqual([
        {
          query: "drill",
          searches: 3,
          zeroResults: 0,
          clicks: 3,
          clickThroughRate: 0.6667,
          averageClickPosition: 2.3333
        },
        {
          query: "circular saw",
          searches: 2,
          zeroResults: 0,
          clicks: 0,
          clickThroughRate: 0,
          averageClickPosition: null
        },
        {
          query: "flux capacitor",
          searches: 2,
          zeroResults: 2,
          clicks: 0,
          clickThroughRate: null,
          averageClickPosition: null
        }
      ])
      expect(res.body.data.zeroResultQueries.map((q: any) => q.query)).toEqual(["flux capacitor"])
      expect(res.body.data.noClickQueries.map((q: any) => q.query)).toEqual(["circular saw"])

      // The past day's search is in a range that holds it, and only there.
      const january = await analytics("?from=2026-01-01&to=2026-01-31")
      expect(january.body.data.topQueries).toEqual([
        { query: "drill", searches: 1, zeroResults: 0, clicks: 0, clickThroughRate: 0, averageClickPosition: null }
      ])
      expect((await analytics("?limit=1")).body.data.topQueries.map((q: any) => q.query)).toEqual(["drill"])

      // Site B searched nothing.
      expect((await analytics("", server.siteB.basic)).body.data.totals).toEqual({
        searches: 0,
        zeroResults: 0,
        clicks: 0,
        clickThroughRate: null
      })
    }
  )

  it("needs site credentials and names a bad parameter", async () => {
    expect((await analytics("", server.siteA.bearer)).status).toBe(403)
    expect((await call(server.baseUrl, "GET", "/analytics/searches")).status).toBe(401)
    for (const [query, field] of [
      ["?from=2026-13-01", "from"],
      ["?to=yesterday", "to"],
      ["?limit=0", "limit"],
      ["?limit=5000", "limit"],
      ["?from=2026-02-01&to=2026-01-01", "from"],
      ["?from=2020-01-01&to=2026-01-01", "from"]
    ] as const) {
      const res = await analytics(query)
      expect(res.status, query).toBe(400)
      expect(res.body.message ?? JSON.stringify(res.body), query).toContain(field)
    }
  })

  it("a click naming a requestId carries its position", async () => {
    const res = await send([{ eventId: "bad", type: "click", productIds: ["drill-1"], requestId: "r" }])
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain("events.0.position")
  })
})
