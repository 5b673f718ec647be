import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"
import { call } from "../support/Http.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi({
    campaigns: [
      { id: 0, name: "default", resultsCount: 10 },
      // Candles are cross-sold with holders only: the campaign's pair wins over bought-together.
      { id: 1, name: "holders", resultsCount: 10, crossSell: [{ from: "Home > Candles", to: ["Home > Holders"] }] }
    ]
  })
  const products = [
    { id: "vanilla", data: { title: "Vanilla scented candle", product_type: "Home > Candles" } },
    { id: "pine", data: { title: "Pine scented candle", product_type: "Home > Candles" } },
    { id: "cedar", data: { title: "Cedar scented candle", product_type: "Home > Candles", item_group_id: "woods" } },
    {
      id: "cedar-xl",
      data: { title: "Cedar scented candle, large", product_type: "Home > Candles", item_group_id: "woods" }
    },
    { id: "holder", data: { title: "Brass candle holder", product_type: "Home > Holders" } },
    { id: "matches", data: { title: "Long safety matches", product_type: "Home > Fire" } },
    { id: "mug", data: { title: "Stoneware mug", product_type: "Kitchen > Mugs" } }
  ]
  for (const site of [server.siteA, server.siteB]) {
    for (const p of products) {
      const res = await call(server.baseUrl, "PUT", `/product/${p.id}`, { auth: site.basic, body: { data: p.data } })
      expect(res.status).toBe(200)
    }
  }
})
afterAll(() => server?.close())

const order = (site: { basic: string }, id: string, productIds: ReadonlyArray<string>) =>
  call(server.baseUrl, "POST", "/events", {
    auth: site.basic,
    body: { events: [{ eventId: id, type: "purchase", orderId: id, productIds }] }
  })

const aggregated = () => server.run(Effect.flatMap(JobQueue, (queue) => queue.drained))

const crossSell = async (site: { basic: string }, productId: string, campaigns?: ReadonlyArray<number>) => {
  const res = await call(server.baseUrl, "POST", "/cross-selling", {
    auth: site.basic,
    body: { productId, ...(campaigns ? { campaigns } : {}) }
  })
  expect(res.status).toBe(200)
  return (res.body.data.products as Array<{ productId: string }>).map((p) => p.productId)
}

describe("bought together in POST /cross-selling", () => {
  it("appears once two orders hold the pair, not after one; in its own site only; campaign pairs win", async () => {
    // The content rule never offers the source's own leaf category: another candle comes only from orders.
    expect(await crossSell(server.siteA, "vanilla")).not.toContain("pine")
    expect((await order(server.siteA, "o1", ["vanilla", "pine", "mug"])).status).toBe(200)
    await aggregated()
    expect(await crossSell(server.siteA, "vanilla")).not.toContain("pine")

    expect((await order(server.siteA, "o2", ["pine", "vanilla"])).status).toBe(200)
    // Sent again: a duplicate adds nothing.
    expect((await order(server.siteA, "o2", ["pine", "vanilla"])).body.data).toEqual({ accepted: 0, duplicates: 1 })
    await aggregated()
    expect((await crossSell(server.siteA, "vanilla"))[0]).toBe("pine")
    expect((await crossSell(server.siteA, "pine"))[0]).toBe("vanilla")
    // The mug shared one order only: the content rule may list it, but not ahead of the evidence.
    expect((await crossSell(server.siteA, "vanilla")).indexOf("mug")).not.toBe(0)

    // Site B has the same catalog and no orders.
    expect(await crossSell(server.siteB, "vanilla")).not.toContain("pine")
    // A campaign pair (candles → holders) scopes the list: the bought-together candle is outside it.
    expect(await crossSell(server.siteA, "vanilla", [1])).toEqual(["holder"])
  })

  it("never offers the source's variants, however often they were bought together", async () => {
    for (const id of ["v1", "v2", "v3"])
      expect((await order(server.siteA, id, ["cedar", "cedar-xl", "matches"])).status).toBe(200)
    await aggregated()
    const list = await crossSell(server.siteA, "cedar")
    expect(list[0]).toBe("matches")
    expect(list).not.toContain("cedar-xl")
  })
})
