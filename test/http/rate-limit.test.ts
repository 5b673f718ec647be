import * as fs from "node:fs/promises"
import * as http from "node:http"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientAddress } from "../../src/services/rate-limiter/Admission.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

let server: InProcessApi

// Long windows: a budget refills by one request every window/limit, far slower than a test runs.
beforeAll(async () => {
  server = await startInProcessApi({
    config: { REST_RATE_LIMIT_READ: 3, REST_RATE_LIMIT_SITE: 5, REST_RATE_WINDOW_MS: 3_600_000 }
  })
})
afterAll(async () => {
  await server?.close()
})

/** POST /auto-suggest from a given local address (any 127.x address reaches a loopback listener on Linux). */
const suggestFrom = (auth: string, localAddress = "127.0.0.1", headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const request = http.request(
      `${server.baseUrl}/auto-suggest`,
      {
        method: "POST",
        localAddress,
        headers: { authorization: auth, "content-type": "application/json", ...headers }
      },
      (response) => {
        let text = ""
        response
          .setEncoding("utf8")
          .on("data", (chunk) => (text += chunk))
          .on("end", () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) })
          )
      }
    )
    request.on("error", reject)
    request.end(JSON.stringify({ query: "dri" }))
  })

describe("REST rate limits", () => {
  it("answers a read-only token over its budget with 429, Retry-After and a JSON message", async () => {
    for (let i = 0; i < 3; i++) expect((await suggestFrom(server.siteA.bearer)).status).toBe(200)
    const refused = await suggestFrom(server.siteA.bearer)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    expect(refused.body).toEqual({
      message: expect.stringMatching(
        /^rate limit exceeded: 3 requests per 3600 s for this token and client; retry after \d+ s$/
      ),
      retryAfterSeconds: Number(refused.headers["retry-after"])
    })
  })

  it("keeps a budget per token and client address, apart from other clients, tokens and site credentials", async () => {
    // siteA's token is exhausted from 127.0.0.1 (previous test); the same token from another client is not.
    expect((await suggestFrom(server.siteA.bearer, "127.0.0.2")).status).toBe(200)
    expect((await suggestFrom(server.siteB.bearer)).status).toBe(200)
    expect((await suggestFrom(server.siteA.basic)).status).toBe(200)
  })

  it("ignores X-Forwarded-For unless proxies are trusted (a client cannot pick its own budget)", async () => {
    const res = await suggestFrom(server.siteA.bearer, "127.0.0.1", { "x-forwarded-for": "203.0.113.9" })
    expect(res.status).toBe(429)
  })

  it("gives site credentials their own budget, and does not count refused credentials", async () => {
    const wrong = `Basic ${Buffer.from("nobody:wrong").toString("base64")}`
    for (let i = 0; i < 10; i++)
      expect((await call(server.baseUrl, "GET", "/product/p-1", { auth: wrong })).status).toBe(401)
    // siteB's Basic credential: 5 requests, then refused (GET of an absent product answers 404).
    for (let i = 0; i < 5; i++)
      expect((await call(server.baseUrl, "GET", "/product/p-1", { auth: server.siteB.basic })).status).toBe(404)
    const refused = await call(server.baseUrl, "GET", "/product/p-1", { auth: server.siteB.basic })
    expect(refused.status).toBe(429)
    expect(refused.body.message).toMatch(/5 requests per 3600 s for this credential/)
  })

  it("applies a site's own rateLimits from the sites file without a restart", async () => {
    const file = JSON.parse(await fs.readFile(server.sitesFile, "utf8"))
    const siteA = file.sites.find((s: any) => s.id === server.siteA.site.id)
    siteA.rateLimits = { read: 1000 }
    await fs.writeFile(server.sitesFile, JSON.stringify(file, null, 2))
    // The exhausted token gets the larger budget once the registry has reloaded.
    await eventually(async () => expect((await suggestFrom(server.siteA.bearer)).status).toBe(200), 30_000)
  })

  it("with trusted proxies, takes the client as the outermost trusted proxy saw it", () => {
    const request = (forwardedFor: string, peer: string) =>
      ({ remoteAddress: Option.some(peer), headers: { "x-forwarded-for": forwardedFor } }) as any
    expect(clientAddress(request("spoofed, 198.51.100.7", "10.0.0.2"), 1)).toBe("198.51.100.7")
    expect(clientAddress(request("spoofed, 198.51.100.7, 10.0.0.1", "10.0.0.2"), 2)).toBe("198.51.100.7")
    expect(clientAddress(request("spoofed", "10.0.0.2"), 0)).toBe("10.0.0.2")
  })
})
