import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { EmbeddedEventLog } from "../../src/services/event-log/EmbeddedEventLog.js"
import { EventLog } from "../../src/services/event-log/EventLog.js"
import { onSqlite } from "../support/SqliteLayer.js"
import { startServerProcess } from "../support/ServerProcess.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { makeWorkspace } from "../support/Workspace.js"

describe("durability of acknowledged writes", () => {
  it("serves every product acknowledged by PUT after SIGKILL and restart, and indexes them", async () => {
    const { siteA, env } = await makeWorkspace({ prefix: "commerce-durable-" })

    const first = await startServerProcess(env)
    const acknowledged: Array<string> = []
    for (let i = 0; i < 40; i++) {
      const res = await call(first.baseUrl, "PUT", `/product/k-${i}`, {
        auth: siteA.basic,
        body: { data: { title: `Durable kettle number ${i}`, price: 10 + i } }
      })
      if (res.status === 200) acknowledged.push(`k-${i}`)
    }
    first.child.kill("SIGKILL")
    expect(await first.exited).toBe("SIGKILL")
    expect(acknowledged).toHaveLength(40)

    const second = await startServerProcess(env)
    try {
      for (const id of acknowledged) {
        const res = await call(second.baseUrl, "GET", `/product/${id}`, { auth: siteA.bearer })
        expect(res.status, id).toBe(200)
      }
      // Whatever the first process had not indexed is re-queued at startup.
      await eventually(async () => {
        const res = await call(second.baseUrl, "POST", "/text-search", {
          auth: siteA.bearer,
          body: { query: "durable kettle", resultsCount: 100 }
        })
        expect(res.body.data.products.length).toBe(40)
      }, 60_000)
    } finally {
      second.child.kill("SIGTERM")
      // Graceful shutdown: SIGTERM ends the process by itself.
      expect(await second.exited).toBe(0)
    }
  }, 180_000)

  it("keeps every event POST /events acknowledged across SIGKILL and restart: resent, all are duplicates", async () => {
    const { siteA, env } = await makeWorkspace({ prefix: "commerce-durable-events-" })
    const batches = Array.from({ length: 20 }, (_, b) =>
      Array.from({ length: 10 }, (_, n) => ({
        eventId: `e-${b}-${n}`,
        type: "purchase",
        orderId: `o-${b}-${n}`,
        productIds: [`p${n}`, `p${b}`]
      }))
    )
    const first = await startServerProcess(env)
    let acknowledged = 0
    for (const events of batches) {
      const res = await call(first.baseUrl, "POST", "/events", { auth: siteA.basic, body: { events } })
      if (res.status === 200) acknowledged += res.body.data.accepted
    }
    first.child.kill("SIGKILL")
    expect(await first.exited).toBe("SIGKILL")
    expect(acknowledged).toBe(200)

    const second = await startServerProcess(env)
    try {
      let duplicates = 0
      for (const events of batches) {
        const res = await call(second.baseUrl, "POST", "/events", { auth: siteA.basic, body: { events } })
        expect(res.status).toBe(200)
        duplicates += res.body.data.duplicates
      }
      expect(duplicates).toBe(200)
    } finally {
      second.child.kill("SIGTERM")
      expect(await second.exited).toBe(0)
    }
  }, 180_000)

  it("aggregates events stored before a crash cut their aggregation short, once the service is back", async () => {
    const { siteA, env } = await makeWorkspace({ prefix: "commerce-durable-aggregation-" })
    // What a process that died between storing and aggregating leaves: events, no statistics.
    const events = Array.from({ length: 30 }, (_, n) => ({
      eventId: `s-${n}`,
      type: "search" as const,
      query: n % 3 === 0 ? "lamp" : "desk lamp",
      requestId: `r-${n}`,
      resultsCount: n % 5
    }))
    await Effect.runPromise(
      Effect.flatMap(EventLog, (log) => log.append(siteA.site.id, events, Date.now())).pipe(
        Effect.provide(onSqlite(EmbeddedEventLog.layer, "", env.DATA_DIR))
      )
    )
    const server = await startServerProcess(env)
    try {
      await eventually(async () => {
        const res = await call(server.baseUrl, "GET", "/analytics/searches", { auth: siteA.basic })
        expect(res.body.data.totals).toMatchObject({ searches: 30, zeroResults: 6 })
      }, 60_000)
    } finally {
      server.child.kill("SIGTERM")
      expect(await server.exited).toBe(0)
    }
  }, 120_000)
})
