import Database from "better-sqlite3"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RETRY_AFTER_SECONDS } from "../../src/http/ResponsePolicy.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi()
})
afterAll(() => server?.close())

describe("503 when a backend is unavailable", () => {
  it("answers 503 with Retry-After and a JSON message while the store cannot write, and recovers after", async () => {
    expect(
      (
        await call(server.baseUrl, "PUT", "/product/sku-1", {
          auth: server.siteA.basic,
          body: { data: { title: "Cordless drill" } }
        })
      ).status
    ).toBe(200)
    // Let indexing finish first: its writes would otherwise wait on the lock below as well.
    await eventually(async () => expect((await call(server.baseUrl, "GET", "/readyz")).body.pendingJobs).toBe(0))

    // Another process holds the catalog's write lock (a stuck backup or migration would): the
    // delete waits out the store's busy timeout, then fails, and the client should come back.
    const intruder = new Database(path.join(server.dataDir, "catalog.db"))
    intruder.exec("BEGIN IMMEDIATE")
    try {
      const res = await call(server.baseUrl, "DELETE", "/product/sku-1", { auth: server.siteA.basic })
      expect(res.status).toBe(503)
      expect(res.headers.get("retry-after")).toBe(String(RETRY_AFTER_SECONDS))
      expect(res.headers.get("content-type")).toContain("application/json")
      expect(res.body.message).toMatch(/^temporarily unavailable: .*database is locked/)
      expect(res.headers.get("x-request-id")).toBeTruthy()
    } finally {
      intruder.exec("ROLLBACK")
      intruder.close()
    }

    const retried = await call(server.baseUrl, "DELETE", "/product/sku-1", { auth: server.siteA.basic })
    expect(retried.status).toBe(200)
    expect(retried.body.message).toBe("product deleted")
    expect(retried.headers.get("retry-after")).toBeNull()
  }, 60_000)
})
