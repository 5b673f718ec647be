import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"
import { eventually } from "../support/Eventually.js"
import { call } from "../support/Http.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"
import { callTool, connectMcp } from "../support/McpClient.js"

const COLOURS = ["amber", "blue", "coral", "dune", "ember", "fern"]
const DAY = 86_400_000

let server: InProcessApi
let agent: Client
let merchant: Client
beforeAll(async () => {
  server = await startInProcessApi({
    campaigns: [
      { id: 0, name: "default", resultsCount: 20 },
      { id: 1, name: "no popularity", resultsCount: 20, popularityBoost: 0 }
    ]
  })
  for (const site of [server.siteA, server.siteB]) {
    for (const colour of COLOURS) {
      const res = await call(server.baseUrl, "PUT", `/product/mug-${colour}`, {
        auth: site.basic,
        body: { data: { title: `Stoneware mug ${colour}`, product_type: "Kitchen > Mugs" } }
      })
      expect(res.status).toBe(200)
    }
  }
  const views = (productId: string, n: number, time: number) =>
    Array.from({ length: n }, (_, i) => ({
      eventId: `${productId}-${time}-${i}`,
      type: "view",
      productIds: [productId],
      timestamp: time
    }))
  const now = Date.now()
  // Coral: drew a lot ten days ago, nothing since (popular, not trending). Ember: a surge today.
  const res = await call(server.baseUrl, "POST", "/events", {
    auth: server.siteA.bearer,
    body: { events: [...views("mug-coral", 60, now - 10 * DAY), ...views("mug-ember", 20, now - 60_000)] }
  })
  expect(res.status).toBe(200)
  await server.run(Effect.flatMap(JobQueue, (queue) => queue.drained))
  agent = await connectMcp(server.baseUrl, server.siteA.bearer)
  merchant = await connectMcp(server.baseUrl, server.siteA.basic)
})
afterAll(async () => {
  await agent?.close()
  await merchant?.close()
  await server?.close()
})

const ids = async (body: Record<string, unknown>, site = server.siteA) => {
  const res = await call(server.baseUrl, "POST", "/text-search", { auth: site.bearer, body })
  expect(res.status).toBe(200)
  return (res.body.data.products as Array<{ productId: string }>).map((p) => p.productId)
}

describe("shoppers' popularity and trend in listings", () => {
  it("sorts a browse by popularity and by trend; products without events follow", async () => {
    await eventually(
      async () =>
        expect((await ids({ sort: [{ column: "popular", order: "desc" }] })).slice(0, 2)).toEqual([
          "mug-coral",
          "mug-ember"
        ]),
      30_000
    )
    expect(await ids({ sort: [{ column: "popular", order: "desc" }] })).toEqual([
      "mug-coral",
      "mug-ember",
      "mug-amber",
      "mug-blue",
      "mug-dune",
      "mug-fern"
    ])
    expect((await ids({ query: "mug", sort: [{ column: "trending", order: "desc" }] }))[0]).toBe("mug-ember")
    // Site B has the same catalog and no events.
    expect(await ids({ sort: [{ column: "popular", order: "desc" }] }, server.siteB)).toEqual(
      COLOURS.map((c) => `mug-${c}`)
    )
  })

  it("lifts popular products in relevance by the campaign's weight, and not at all with weight 0", async () => {
    await eventually(async () => expect((await ids({ query: "stoneware mug" }))[0]).toBe("mug-coral"), 30_000)
    expect((await ids({ query: "stoneware mug" })).slice(0, 2)).toEqual(["mug-coral", "mug-ember"])
    // Without the boost the order is the catalog's alone: site B's, which has no events.
    expect(await ids({ query: "stoneware mug", campaign: 1 })).toEqual(
      await ids({ query: "stoneware mug" }, server.siteB)
    )
  })

  it("refuses an unknown sort column, naming the choices", async () => {
    const res = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { sort: [{ column: "hot", order: "desc" }] }
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain("trending")
  })
})

describe("MCP: list_trending and search_analytics", () => {
  it("lists the surging product and a query searched more than usual, not the product popular long ago", async () => {
    for (let i = 0; i < 4; i++) await ids({ query: "ember mug" })
    await server.run(Effect.flatMap(JobQueue, (queue) => queue.drained))
    await eventually(async () => {
      const trending = await callTool(agent, "list_trending", { detail: "compact" })
      expect(trending.products.map((p: any) => p.product.productId)).toEqual(["mug-ember"])
      expect(trending.products[0].trend).toBeGreaterThan(1.5)
      expect(trending.queries.map((q: any) => q.query)).toContain("ember mug")
    }, 30_000)
  })

  it("gives merchants search analytics, and refuses a read-only token", async () => {
    // Searches are recorded off their request path, a few milliseconds' worth together.
    await eventually(async () => {
      const analytics = await callTool(merchant, "search_analytics", { limit: 50 })
      expect(analytics.data.topQueries.find((q: any) => q.query === "ember mug")?.searches).toBeGreaterThanOrEqual(4)
    }, 30_000)
    await expect(agent.callTool({ name: "search_analytics", arguments: {} })).rejects.toThrow(
      /needs site \(Basic\) credentials/
    )
  })
})
