import type * as http from "node:http"
import { Redis } from "ioredis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type LoopbackHost, startLoopbackHost } from "../support/LoopbackHost.js"
import { productShot } from "../support/ProductShots.js"
import { shapeShots } from "../support/ShapeShots.js"
import { MIN_PRODUCTS } from "../../src/visual-space/VisualSpaceFit.js"
import { redisForThisFile } from "../support/RedisSuite.js"
import { type ServerProcess, startServerProcess } from "../support/ServerProcess.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { makeWorkspace, type Workspace } from "../support/Workspace.js"
import { startWorkerProcess, type WorkerProcess } from "../support/WorkerProcess.js"

export interface TopologyUnderTest {
  readonly api: () => ServerProcess
  readonly sites: () => Workspace
  readonly put: (
    id: string,
    data: Record<string, unknown>,
    imageUrls?: ReadonlyArray<string>
  ) => ReturnType<typeof call>
  readonly search: (query: string, extra?: Record<string, unknown>) => ReturnType<typeof call>
}

/**
 * A merchant pushing products titled `title n` and a shopper searching for `title`, one after
 * the other, until `stop`: every status seen, and the ids whose push was acknowledged.
 */
export const underLoad = (
  topology: Pick<TopologyUnderTest, "put" | "search">,
  idPrefix: string,
  title: string,
  maxPushes = 500
) => {
  const statuses: Array<number> = []
  const acknowledged: Array<string> = []
  let loading = true
  const loop = (async () => {
    for (let n = 0; loading && n < maxPushes; n++) {
      const res = await topology.put(`${idPrefix}-${n}`, { title: `${title} ${n}` })
      statuses.push(res.status)
      if (res.status === 200) acknowledged.push(`${idPrefix}-${n}`)
      statuses.push((await topology.search(title.toLowerCase())).status)
      await new Promise((r) => setTimeout(r, 20))
    }
  })()
  return {
    acknowledged,
    /** Every status so far, in order. */
    statuses,
    stop: async () => {
      loading = false
      await loop
      return { statuses, acknowledged }
    }
  }
}

/**
 * The design card as separate OS processes: one api and worker processes on one real
 * redis-server, the index in Qdrant when `indexEnv` names one (QDRANT_URL), else held by each
 * process as a replica fed through Redis. Worker A serves every queue; worker B only text
 * indexing and predictions, so the image job of the kill test can only be worker A's.
 * `more` adds tests of the index's own failures.
 */
export const distributedTopologySuite = (
  label: string,
  indexEnv: () => Record<string, string>,
  more: (topology: TopologyUnderTest) => void = () => {}
) => {
  const redis = redisForThisFile()
  let api: ServerProcess
  let images: LoopbackHost
  const workers: Array<WorkerProcess> = []
  let sites: Workspace
  let env: Record<string, string>
  /** Requests for /held.jpg wait here until the test lets them through. */
  const held: Array<http.ServerResponse> = []
  let holdImages = true
  let redJpeg: Buffer
  /** Site B's catalog for the learned visual space: enough products with a photo each. */
  const SHAPES = MIN_PRODUCTS + 2
  const shapes = shapeShots(SHAPES, 23)

  beforeAll(async () => {
    redJpeg = await productShot(210, 20, 20)
    const shapeRoutes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {}
    for (let i = 0; i < SHAPES; i++) {
      const jpeg = await shapes.studio(i)
      shapeRoutes[`/shape-${i}.jpg`] = (_req, res) => res.writeHead(200, { "content-type": "image/jpeg" }).end(jpeg)
    }
    images = await startLoopbackHost({
      ...shapeRoutes,
      "/red.jpg": (_req, res) => res.writeHead(200, { "content-type": "image/jpeg" }).end(redJpeg),
      "/held.jpg": (_req, res) => {
        if (holdImages) held.push(res)
        else res.writeHead(200, { "content-type": "image/jpeg" }).end(redJpeg)
      }
    })
    sites = await makeWorkspace({
      prefix: "commerce-topology-",
      // Searches list every product a load test pushed (the default campaign would cap them at 100).
      campaigns: [{ id: 0, name: "default", resultsCount: 1000 }]
    })
    env = {
      ...sites.env,
      REDIS_URL: redis.url,
      ...indexEnv(),
      IMAGE_ALLOWED_CIDRS: "127.0.0.0/8",
      // A dead worker's job is taken over within a few seconds instead of BullMQ's 30 s default.
      WORKER_LOCK_MS: "2000",
      WORKER_STALLED_INTERVAL_MS: "1000"
    }
    const [apiProcess, a, b] = await Promise.all([
      startServerProcess(env),
      startWorkerProcess(env),
      startWorkerProcess({ ...env, WORKER_QUEUES: "index,predict" })
    ])
    api = apiProcess
    workers.push(a, b)
  }, 180_000)

  afterAll(async () => {
    for (const res of held) res.destroy()
    for (const w of workers) w.child.kill("SIGKILL")
    api?.child.kill("SIGKILL")
    await images?.close()
  })

  const put = (id: string, data: Record<string, unknown>, imageUrls: ReadonlyArray<string> = []) =>
    call(api.baseUrl, "PUT", `/product/${id}`, {
      auth: sites.siteA.basic,
      body: { data, ...(imageUrls.length > 0 && { images: imageUrls.map((url) => ({ url })) }) }
    })
  const search = (query: string, extra: Record<string, unknown> = {}) =>
    call(api.baseUrl, "POST", "/text-search", {
      auth: sites.siteA.bearer,
      body: { query, resultsCount: 100, ...extra }
    })
  const ids = (res: { body: any }): Array<string> => res.body.data.products.map((p: any) => p.productId)

  describe(`distributed topology: api and worker processes on one Redis, ${label}`, () => {
    it("products pushed to the api are indexed by the worker processes and found by the api", async () => {
      for (let i = 0; i < 24; i++) {
        const res = await put(`lamp-${i}`, { title: `Brass desk lamp model ${i}`, brand: "Lumen", price: 20 + i })
        expect(res.status).toBe(200)
      }
      // Readable by id at once: the record is in Redis, not waiting for a worker.
      expect(
        (await call(api.baseUrl, "GET", "/product/lamp-3", { auth: sites.siteA.bearer })).body.data.data.title
      ).toBe("Brass desk lamp model 3")
      await eventually(async () => {
        const res = await search("brass desk lamp")
        expect(res.status).toBe(200)
        expect(
          ids(res)
            .filter((id) => id.startsWith("lamp-"))
            .sort()
        ).toEqual(Array.from({ length: 24 }, (_, i) => `lamp-${i}`).sort())
      }, 60_000)
      // The api indexed nothing itself: the workers did. A worker logs its batch once the handler
      // returns, just after the index write the api already sees.
      await eventually(async () => {
        const indexed = workers.map((w) => w.handled().index ?? 0)
        expect(indexed[0] + indexed[1]).toBeGreaterThanOrEqual(24)
      }, 10_000)
      expect(api.output()).not.toContain("jobs handled")
      // The other site sees none of it.
      const other = await call(api.baseUrl, "POST", "/text-search", {
        auth: sites.siteB.bearer,
        body: { query: "brass desk lamp" }
      })
      expect(other.body.data.products).toEqual([])
    }, 120_000)

    it("synonyms, rules and campaigns written through one api process are in effect on another, without re-indexing", async () => {
      const second = await startServerProcess(env)
      try {
        const onSecond = (query: string) =>
          call(second.baseUrl, "POST", "/text-search", { auth: sites.siteA.bearer, body: { query, resultsCount: 100 } })
        const merchant = (method: string, path: string, body?: unknown) =>
          call(api.baseUrl, method, path, { auth: sites.siteA.basic, ...(body === undefined ? {} : { body }) })
        expect(ids(await onSecond("glimmerstick")).filter((id) => id.startsWith("lamp-"))).toEqual([])
        const indexed = () => workers.map((w) => w.handled().index ?? 0)
        const before = indexed()
        const synonym = { type: "oneWaySynonym", input: "glimmerstick", synonyms: ["lamp"] }
        expect((await merchant("PUT", "/synonyms/glimmer", synonym)).status).toBe(200)
        const rule = {
          conditions: [{ pattern: "glimmerstick", anchoring: "is" }],
          consequence: { promote: [{ productId: "lamp-7", position: 0 }], userData: { banner: "Lamps" } }
        }
        expect((await merchant("PUT", "/rules/lamp-banner", rule)).status).toBe(200)
        expect((await merchant("PUT", "/campaigns/9", { name: "three", resultsCount: 3 })).status).toBe(200)
        await eventually(async () => {
          const res = await onSecond("glimmerstick")
          expect(ids(res)[0]).toBe("lamp-7")
          expect(ids(res).filter((id) => id.startsWith("lamp-"))).toHaveLength(24)
          expect(res.body.data.userData).toEqual([{ banner: "Lamps" }])
        }, 10_000)
        await eventually(async () => {
          const res = await call(second.baseUrl, "POST", "/text-search", {
            auth: sites.siteA.bearer,
            body: { query: "brass desk lamp", campaign: 9 }
          })
          expect(res.status).toBe(200)
          expect(ids(res)).toHaveLength(3)
        }, 10_000)
        // Nothing was indexed again: the change is applied at query time.
        expect(indexed()).toEqual(before)
        await merchant("DELETE", "/synonyms/glimmer")
        await merchant("DELETE", "/rules/lamp-banner")
        await merchant("DELETE", "/campaigns/9")
        await eventually(async () => {
          const res = await onSecond("glimmerstick")
          expect(ids(res).filter((id) => id.startsWith("lamp-"))).toEqual([])
          expect(res.body.data.appliedRules).toBeUndefined()
        }, 10_000)
      } finally {
        second.child.kill("SIGKILL")
      }
    }, 120_000)

    it("a site's learned visual space: fitted by a worker once its photos are analysed, " +
      "queries projected into it by the api", async () => {
      for (let i = 0; i < SHAPES; i++) {
        const res = await call(api.baseUrl, "PUT", `/product/shape-${i}`, {
          auth: sites.siteB.basic,
          body: {
            data: { title: "Wooden shape", product_type: "Toys > Shapes" },
            images: [{ url: `${images.base}/shape-${i}.jpg` }]
          }
        })
        expect(res.status).toBe(200)
      }
      // The worker stored the space in Redis, fitted on every photo (with its two views).
      const client = new Redis(redis.url)
      try {
        await eventually(async () => {
          const [photos, samples] = await client.hmget(`vspace:{${sites.siteB.site.id}}`, "photos", "samples")
          expect([photos, samples]).toEqual([String(SHAPES), String(3 * SHAPES)])
        }, 240_000)
      } finally {
        client.disconnect()
      }
      // The api projects a shopper's photo into the same space as the re-indexed products.
      await eventually(async () => {
        let first = 0
        for (const i of [0, 7, 14, 21, 28, 35, 42, 49]) {
          const res = await call(api.baseUrl, "POST", "/visual-search", {
            auth: sites.siteB.bearer,
            body: { query: { image: (await shapes.shelf(i)).toString("base64") } }
          })
          expect(res.status).toBe(200)
          const found = ids(res)
          expect(found.slice(0, 5)).toContain(`shape-${i}`)
          if (found[0] === `shape-${i}`) first++
        }
        expect(first).toBeGreaterThanOrEqual(6)
      }, 60_000)
      expect(api.output()).not.toContain("visual space fitted")
    }, 300_000)

    it("a bulk push to the api: searchable by its words at once via the index, embedded by the workers", async () => {
      const lines = Array.from({ length: 60 }, (_, i) =>
        JSON.stringify({ id: `mug-${i}`, data: { title: `Speckled stoneware mug ${i}`, price: 5 + i } })
      )
      lines.push(
        JSON.stringify({ id: "mug-3", patch: { data: { price: 1 } } }),
        JSON.stringify({ id: "mug-59", delete: true }),
        '{"id": "bad"}'
      )
      const res = await fetch(`${api.baseUrl}/products/bulk`, {
        method: "POST",
        headers: { authorization: sites.siteA.basic, "content-type": "application/x-ndjson" },
        body: lines.join("\n")
      })
      const answers = (await res.text())
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
      expect(answers.map((a) => a.status)).toEqual([...Array.from({ length: 62 }, () => 200), 400])
      // At once, before any worker embedded them: the api's replica already has them (read your writes).
      const cheapest = await search("speckled stoneware mug", { sort: [{ column: "price", order: "asc" }] })
      expect(ids(cheapest).slice(0, 2)).toEqual(["mug-3", "mug-0"])
      expect(ids(cheapest)).toHaveLength(59)
      // The workers embed them (the records are in Redis; jobs went through BullMQ).
      await eventually(async () => {
        const indexed = workers.map((w) => w.handled().index ?? 0)
        expect(indexed.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 + 59)
      }, 90_000)
    }, 180_000)

    it("events sent to the api are stored in Redis (sent again, " +
      "they are duplicates, per site) and aggregated by a worker", async () => {
      const events = [
        { eventId: "d-view", type: "view", productIds: ["lamp-1"] },
        { eventId: "d-order", type: "purchase", orderId: "d-order", productIds: ["lamp-1", "lamp-2"] }
      ]
      const send = (auth: string) => call(api.baseUrl, "POST", "/events", { auth, body: { events } })
      expect(await send(sites.siteA.basic)).toMatchObject({
        status: 200,
        body: { data: { accepted: 2, duplicates: 0 } }
      })
      expect(await send(sites.siteA.basic)).toMatchObject({
        status: 200,
        body: { data: { accepted: 0, duplicates: 2 } }
      })
      expect(await send(sites.siteB.basic)).toMatchObject({
        status: 200,
        body: { data: { accepted: 2, duplicates: 0 } }
      })
      const client = new Redis(redis.url)
      try {
        // The log holds the searches the api recorded too.
        const entries = await client.xrange(`events:{${sites.siteA.site.id}}:log`, "-", "+")
        expect(
          entries
            .map(([, fields]) => JSON.parse(fields[fields.indexOf("e") + 1]).eventId)
            .filter((id: string) => id.startsWith("d-"))
        ).toEqual(["d-view", "d-order"])
        // A worker added them to the site's statistics: the order names both lamps.
        await eventually(
          async () =>
            expect(await client.hgetall(`stats:{${sites.siteA.site.id}}:orders`)).toEqual({
              "lamp-1": "1",
              "lamp-2": "1"
            }),
          30_000
        )
        expect(await client.hgetall(`stats:{${sites.siteA.site.id}}:with:lamp-1`)).toEqual({ "lamp-2": "1" })
        // The api ranks by what the worker learnt: the viewed and bought lamp first, then the bought one.
        await eventually(
          async () =>
            expect(
              ids(await search("brass desk lamp", { sort: [{ column: "popular", order: "desc" }] })).slice(0, 2)
            ).toEqual(["lamp-1", "lamp-2"]),
          30_000
        )
      } finally {
        client.disconnect()
      }
    }, 60_000)

    it("a worker killed with SIGKILL mid-job: " +
      "another worker takes the job over and the product ends indexed exactly once", async () => {
      const [a] = workers
      expect(await put("vase-1", { title: "Glazed flower vase" }, [images.url("/held.jpg")])).toMatchObject({
        status: 200
      })
      // Only worker A serves image jobs; it is now waiting for the image host.
      await eventually(async () => expect(held.length).toBe(1), 60_000)
      a.child.kill("SIGKILL")
      expect(await a.exited).toBe("SIGKILL")
      for (const res of held.splice(0)) res.destroy()
      holdImages = false

      const c = await startWorkerProcess(env)
      workers.push(c)
      // C picks the stalled job up once A's lock has expired, analyses the photo and re-indexes.
      // Only the analysed photo gives the vase a colour.
      const inRedPhotos = { staticFilters: { included: [{ column: "image_color", values: ["red"] }] } }
      expect(ids(await search("vase", inRedPhotos))).toEqual([])
      await eventually(async () => expect(ids(await search("vase", inRedPhotos))).toEqual(["vase-1"]), 90_000)
      // C logs the batch once its handler returns, just after the re-index the api already sees.
      await eventually(async () => expect(c.handled().images ?? 0).toBeGreaterThanOrEqual(1), 10_000)
      const res = await search("vase")
      expect(ids(res).filter((id) => id === "vase-1")).toHaveLength(1)
      expect(res.body.data.products.find((p: any) => p.productId === "vase-1").images).toHaveLength(1)
    }, 180_000)

    it("Redis restarted under load: the api answers what it can, " +
      "503 with Retry-After otherwise, and every process recovers by itself", async () => {
      // Load: a merchant pushing products and a shopper searching, throughout the outage.
      const load = underLoad({ put, search }, "load", "Walnut cutting board")
      await new Promise((r) => setTimeout(r, 500))
      await redis.server.stop()
      const during = await put("kettle-down", { title: "Enamel kettle" })
      expect(during.status).toBe(503)
      expect(Number(during.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(during.body.message).toMatch(/unavailable/i)
      // What needs no record keeps working (completions come from this process's vocabulary);
      // what does gets a 503 that says when to come back, never a 500.
      const suggest = await call(api.baseUrl, "POST", "/auto-suggest", {
        auth: sites.siteA.bearer,
        body: { query: "brass de" }
      })
      expect(suggest.status).toBe(200)
      expect(JSON.stringify(suggest.body)).toContain("brass desk lamp")
      const read = await search("brass desk lamp")
      expect([200, 503]).toContain(read.status)
      if (read.status === 503) expect(Number(read.headers.get("retry-after"))).toBeGreaterThan(0)
      // Down until the load's own pushes have met the outage (on a busy machine one round of it takes seconds).
      await eventually(async () => expect(load.statuses).toContain(503), 60_000)

      await redis.restart()
      // A client retries a 503 (Redis may still be loading its AOF); every write lands.
      for (let i = 1; i <= 10; i++) {
        await eventually(
          async () => expect((await put(`kettle-${i}`, { title: `Enamel stovetop kettle ${i}` })).status).toBe(200),
          30_000
        )
      }
      const { acknowledged, statuses } = await load.stop()
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
      expect(statuses).toContain(503)
      await eventually(async () => {
        expect(ids(await search("enamel stovetop kettle")).filter((id) => id.startsWith("kettle-")).length).toBe(10)
        // Every write acknowledged before, during or after the outage is indexed.
        const found = new Set(ids(await search("walnut cutting board", { resultsCount: 1000 })))
        expect(acknowledged.filter((id) => !found.has(id))).toEqual([])
      }, 90_000)
      // Data from before the restart survived (AOF) and is still found.
      expect(ids(await search("brass desk lamp")).filter((id) => id.startsWith("lamp-"))).toHaveLength(24)
      expect(api.child.exitCode).toBeNull()
    }, 180_000)
  })

  more({ api: () => api, sites: () => sites, put, search })
}
