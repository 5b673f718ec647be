import * as fs from "node:fs"
import * as path from "node:path"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiWithPhotos, startApiWithPhotos } from "../support/ApiWithPhotos.js"
import { productShot } from "../support/ProductShots.js"
import { call } from "../support/Http.js"
import { parseServerTiming } from "../../src/platform/ServerTiming.js"
import { eventually } from "../support/Eventually.js"

const halves = async () =>
  sharp({ create: { width: 400, height: 200, channels: 3, background: "#ffffff" } })
    .composite([
      {
        input: await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 210, g: 20, b: 20 } } })
          .png()
          .toBuffer(),
        left: 0,
        top: 0
      },
      {
        input: await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 30, g: 60, b: 210 } } })
          .png()
          .toBuffer(),
        left: 200,
        top: 0
      }
    ])
    .jpeg()
    .toBuffer()

let server: ApiWithPhotos

beforeAll(async () => {
  server = await startApiWithPhotos()
  const products = [
    { id: "mug-red", title: "Ceramic mug", image: "/red.jpg" },
    { id: "mug-blue", title: "Ceramic mug classic", image: "/blue.jpg" },
    { id: "mug-green", title: "Ceramic mug large", image: "/green.jpg" },
    { id: "mug-broken", title: "Ceramic mug with a missing photo", image: "/missing.jpg" }
  ]
  for (const p of products) {
    const res = await call(server.baseUrl, "PUT", `/product/${p.id}`, {
      auth: server.siteA.basic,
      body: { data: { title: p.title, product_type: "Kitchen > Mugs" }, images: [{ url: server.imageBase + p.image }] }
    })
    expect(res.status).toBe(200)
  }
  await eventually(async () => {
    const res = await visual({ query: { image: (await productShot(210, 20, 20)).toString("base64") } })
    expect(
      res.body.data.products
        .map((p: any) => p.productId)
        .slice(0, 3)
        .sort()
    ).toEqual(["mug-blue", "mug-green", "mug-red"])
  }, 120_000)
}, 180_000)
afterAll(async () => {
  await server?.close()
})

const visual = (body: Record<string, unknown>) =>
  call(server.baseUrl, "POST", "/visual-search", { auth: server.siteA.bearer, body })
const ids = (res: any) => res.body.data.products.map((p: any) => p.productId)

describe("POST /visual-search", () => {
  it("ranks the product whose photo looks like the query first, and shows the searched image", async () => {
    const res = await visual({
      requestId: "vs-1",
      query: { image: (await productShot(200, 30, 30)).toString("base64") }
    })
    expect(res.status).toBe(200)
    expect(res.body.requestId).toBe("vs-1")
    expect(ids(res)[0]).toBe("mug-red")
    const parts = res.body.stream.items[0].parts
    expect(parts[0].inlineData.mimeType).toBe("image/jpeg")
    expect(Buffer.from(parts[0].inlineData.data, "base64").subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]))
    const stages = parseServerTiming(res.headers.get("server-timing") ?? "")
    for (const stage of ["decode", "crop", "embed", "index", "entities"])
      expect(stages.get(stage)).toBeGreaterThanOrEqual(0)
  })

  it("accepts a data URL, and a url fetched server-side", async () => {
    const dataUrl = `data:image/jpeg;base64,${(await productShot(30, 60, 210)).toString("base64")}`
    expect(ids(await visual({ query: { image: dataUrl } }))[0]).toBe("mug-blue")
    expect(ids(await visual({ query: { url: `${server.imageBase}/green.jpg` } }))[0]).toBe("mug-green")
  })

  it("reuses the image stored for a requestId", async () => {
    await visual({ requestId: "vs-reuse", query: { image: (await productShot(30, 160, 60)).toString("base64") } })
    const again = await visual({ requestId: "vs-reuse", query: {} })
    expect(again.status).toBe(200)
    expect(ids(again)[0]).toBe("mug-green")
    const unknown = await visual({ requestId: "never-seen", query: {} })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toContain("never-seen")
    const none = await visual({ query: {} })
    expect(none.status).toBe(400)
  })

  it("searches only the search area: each half of a two-colour image finds its own colour", async () => {
    const image = (await halves()).toString("base64")
    expect(ids(await visual({ query: { image, searchArea: { left: 0, top: 0, width: 0.5, height: 1 } } }))[0]).toBe(
      "mug-red"
    )
    expect(ids(await visual({ query: { image, searchArea: { left: 0.5, top: 0, width: 0.5, height: 1 } } }))[0]).toBe(
      "mug-blue"
    )
    const bad = await visual({ query: { image, searchArea: { left: 0.8, top: 0, width: 0.5, height: 1 } } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain("searchArea")
  })

  it("returns detected objects as suggested search areas within [0,1]", async () => {
    const photo = fs.readFileSync(path.resolve("node_modules/@vladmandic/human/assets/samples.jpg"))
    const res = await visual({ query: { image: photo.toString("base64") }, objectDetection: { include: true } })
    expect(res.status).toBe(200)
    const areas = res.body.interactions.suggestedSearchAreas
    expect(areas.length).toBeGreaterThan(0)
    for (const { rectangle } of areas) {
      for (const v of [rectangle.left, rectangle.top, rectangle.width, rectangle.height]) {
        expect(v).toBeGreaterThanOrEqual(0)
        expect(v).toBeLessThanOrEqual(1)
      }
      expect(rectangle.left + rectangle.width).toBeLessThanOrEqual(1.000001)
    }
  })

  it("refuses private addresses, garbage and decompression bombs with 4xx", async () => {
    const ssrf = await visual({ query: { url: "http://10.0.0.1/x.jpg" } })
    expect(ssrf.status).toBe(400)
    expect(ssrf.body.message).toContain("query.url")
    const metadata = await visual({ query: { url: "http://169.254.169.254/latest/meta-data" } })
    expect(metadata.status).toBe(400)
    const garbage = await visual({ query: { image: Buffer.from("definitely not an image").toString("base64") } })
    expect(garbage.status).toBe(415)
    const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: "#000" } })
      .png({ compressionLevel: 9 })
      .toBuffer()
    const refused = await visual({ query: { image: bomb.toString("base64") } })
    expect([413, 422]).toContain(refused.status)
  })
})

describe("text search over visual features", () => {
  it("finds a product by the colour its photo shows, though its record names no colour", async () => {
    const res = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "red mug" }
    })
    expect(res.body.data.products[0].productId).toBe("mug-red")
    const blue = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "blue mug" }
    })
    expect(blue.body.data.products[0].productId).toBe("mug-blue")
  })

  it("keeps a product with a broken image searchable by text", async () => {
    const res = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "missing photo" }
    })
    expect(res.body.data.products[0].productId).toBe("mug-broken")
  })
})
