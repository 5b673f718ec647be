import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TextEmbedder } from "../../src/services/text-embedder/TextEmbedder.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"
import { redisForThisFile } from "../support/RedisSuite.js"

let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi()
})
afterAll(() => server?.close())

const patch = (id: string, body: unknown, auth = server.siteA.basic, contentType = "application/merge-patch+json") =>
  fetch(`${server.baseUrl}/product/${id}`, {
    method: "PATCH",
    headers: { authorization: auth, "content-type": contentType },
    body: JSON.stringify(body)
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

const put = (id: string, data: Record<string, unknown>, images: Array<{ url: string }> = []) =>
  call(server.baseUrl, "PUT", `/product/${id}`, { auth: server.siteA.basic, body: { data, images } })

const stored = async (id: string) =>
  (await call(server.baseUrl, "GET", `/product/${id}`, { auth: server.siteA.basic })).body.data

describe("PATCH /product/{id}", () => {
  it("merges fields into the record, removes those set to null, and leaves the rest", async () => {
    await put("lamp-1", { title: "Brass Desk Lamp", brand: "Lumo", price: 49.9, color: "gold" }, [
      { url: "https://img.example.com/lamp.jpg" }
    ])
    const res = await patch("lamp-1", { data: { price: 39.9, color: null, custom_label_0: "sale" } })
    expect(res).toEqual({
      status: 200,
      body: {
        message: "product updated",
        data: {
          "site-id": server.siteA.site.id,
          "product-id": "lamp-1",
          data: { title: "Brass Desk Lamp", brand: "Lumo", price: 39.9, custom_label_0: "sale" }
        }
      }
    })
    const after = await stored("lamp-1")
    expect(after.data).toEqual({ title: "Brass Desk Lamp", brand: "Lumo", price: 39.9, custom_label_0: "sale" })
    expect(after.images.map((i: any) => i.url)).toEqual(["https://img.example.com/lamp.jpg"])
    // images replaces the list; null removes them all. application/json works too.
    expect((await patch("lamp-1", { images: null }, server.siteA.basic, "application/json")).status).toBe(200)
    expect((await stored("lamp-1")).images).toEqual([])
  })

  it("makes a new price visible to price filters and sorting", async () => {
    await put("mug-1", { title: "Stoneware Mug", price: 12 })
    await put("mug-2", { title: "Porcelain Mug", price: 15 })
    const byPrice = () =>
      call(server.baseUrl, "POST", "/text-search", {
        auth: server.siteA.bearer,
        body: {
          query: "mug",
          sort: [{ column: "price", order: "asc" }],
          dynamicFilters: [{ column: "price", values: { end: 14 } }]
        }
      }).then((r) => r.body.data.products.map((p: any) => p.productId))
    await eventually(async () => expect(await byPrice()).toEqual(["mug-1"]), 30_000)
    expect((await patch("mug-2", { data: { price: 9 } })).status).toBe(200)
    await eventually(async () => expect(await byPrice()).toEqual(["mug-2", "mug-1"]), 30_000)
  })

  it("re-indexes a price change without running the text model, and a title change with it", async () => {
    const embedded = () =>
      server.run(
        Effect.map(
          Effect.flatMap(TextEmbedder, (e) => e.stats),
          (s) => s.documentsEmbedded
        )
      )
    const cheapest = () =>
      call(server.baseUrl, "POST", "/text-search", {
        auth: server.siteA.bearer,
        body: { query: "teapot", sort: [{ column: "price", order: "asc" }] }
      }).then((r) => r.body.data.products.map((p: any) => [p.productId, p.price?.actual]))
    await put("teapot-1", { title: "Cast Iron Teapot", price: 40 })
    await put("teapot-2", { title: "Glass Teapot", price: 30 })
    await eventually(
      async () =>
        expect(await cheapest()).toEqual([
          ["teapot-2", 30],
          ["teapot-1", 40]
        ]),
      30_000
    )
    const before = await embedded()
    expect((await patch("teapot-1", { data: { price: 20 } })).status).toBe(200)
    await eventually(
      async () =>
        expect(await cheapest()).toEqual([
          ["teapot-1", 20],
          ["teapot-2", 30]
        ]),
      30_000
    )
    expect(await embedded()).toBe(before)
    // New text is embedded again.
    expect((await patch("teapot-1", { data: { title: "Cast Iron Teapot, 1.2 l" } })).status).toBe(200)
    await eventually(async () => expect(await embedded()).toBe(before + 1), 30_000)
  })

  it("refuses a result that is not a valid product with 400 naming the field, and stores nothing", async () => {
    await put("kettle-1", { title: "Steel Kettle", price: 30 })
    const res = await patch("kettle-1", { data: { price: "cheap" } })
    expect(res).toEqual({ status: 400, body: { message: 'data.price: must be a number, not "cheap"' } })
    expect((await stored("kettle-1")).data).toEqual({ title: "Steel Kettle", price: 30 })
    expect((await patch("kettle-1", { datum: {} })).status).toBe(400)
  })

  it("answers 404 for an unknown product and 403 to a read-only token", async () => {
    expect(await patch("no-such-product", { data: { price: 1 } })).toEqual({
      status: 404,
      body: { message: 'product "no-such-product" not found' }
    })
    expect((await patch("kettle-1", { data: { price: 1 } }, server.siteA.bearer)).status).toBe(403)
  })
})

describe("PATCH /product/{id} with the records in Redis", () => {
  // The Redis store reads and writes asynchronously, so two patches could interleave their
  // read-merge-write there (the embedded store's are synchronous, which hides the question).
  const redis = redisForThisFile()
  let distributed: InProcessApi
  beforeAll(async () => {
    distributed = await startInProcessApi({ config: { REDIS_URL: redis.url } })
  })
  afterAll(() => distributed?.close())

  it("applies concurrent patches of one product one after another, so none is lost", async () => {
    const auth = distributed.siteA.basic
    await call(distributed.baseUrl, "PUT", "/product/chair-1", {
      auth,
      body: { data: { title: "Oak Chair", price: 120 } }
    })
    const labels = [0, 1, 2, 3, 4].map((i) => ({ [`custom_label_${i}`]: `label ${i}` }))
    const answers = await Promise.all(
      labels.map((data) => call(distributed.baseUrl, "PATCH", "/product/chair-1", { auth, body: { data } }))
    )
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    const after = await call(distributed.baseUrl, "GET", "/product/chair-1", { auth })
    expect(after.body.data.data).toEqual({ title: "Oak Chair", price: 120, ...Object.assign({}, ...labels) })
  })
})
