import Database from "better-sqlite3"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loopbackImages } from "../support/ApiWithPhotos.js"
import { productShot } from "../support/ProductShots.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

/**
 * The two passes over a product's images, end to end through the real api: features, adult
 * score and colours first (the product is visually searchable), object detection after, as a
 * job of its own that fetches the image again. The image host can hold that second fetch until
 * the test lets it go, so the state in between is observed, not raced.
 */

let server: InProcessApi
let images: http.Server
let imageBase = ""
const files = new Map<string, Buffer>()
const fetches = new Map<string, number>()
/** Paths whose second fetch waits until the test releases it. */
const held = new Map<string, Promise<void>>()
const releases: Array<() => void> = []
const holdSecondFetch = (path: string) => {
  let release = () => {}
  held.set(
    path,
    new Promise<void>((resolve) => {
      release = () => resolve()
    })
  )
  releases.push(release)
  return release
}

// A rendered full-figure avatar: CenterNet finds a person in it (test/services/image-analyzer/ImageAnalyzer.test.ts).
const avatar = fs.readFileSync(path.resolve("node_modules/@vladmandic/human/assets/screenshot-vrm.jpg"))

beforeAll(async () => {
  files.set("/avatar.jpg", avatar)
  files.set("/avatar-2.jpg", avatar)
  files.set("/red.jpg", await productShot(210, 20, 20))
  files.set("/blue.jpg", await productShot(30, 60, 210))
  images = http.createServer(async (req, res) => {
    const url = req.url ?? ""
    const body = files.get(url)
    if (!body) return res.writeHead(404).end()
    const n = (fetches.get(url) ?? 0) + 1
    fetches.set(url, n)
    if (n === 2) await held.get(url)
    res.writeHead(200, { "content-type": "image/jpeg" }).end(body)
  })
  await new Promise<void>((r) => images.listen(0, "127.0.0.1", () => r()))
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`
  // The product images live on this machine's loopback; only that range is opened. The held
  // fetch must outlast the test's checks rather than time out.
  server = await startInProcessApi({ config: { ...loopbackImages, IMAGE_FETCH_TIMEOUT_MS: 120_000 } })
}, 60_000)
afterAll(async () => {
  for (const release of releases) release()
  await server?.close()
  images?.close()
})

const put = (productId: string, title: string, image: string) =>
  call(server.baseUrl, "PUT", `/product/${productId}`, {
    auth: server.siteA.basic,
    body: { data: { title, product_type: "Home > Decor" }, images: [{ url: imageBase + image }] }
  })
const textSearch = (body: Record<string, unknown>) =>
  call(server.baseUrl, "POST", "/text-search", { auth: server.siteA.bearer, body })
const ids = (res: { body: any }) => res.body.data.products.map((p: any) => p.productId)

/** The stored analyses of a product, read from the embedded store's file. */
const storedAnalyses = (productId: string) => {
  const db = new Database(path.join(server.dataDir, "catalog.db"), { readonly: true, fileMustExist: true })
  try {
    return (
      db
        .prepare("SELECT url, status, colors, objects FROM product_image_analyses WHERE site_id = ? AND product_id = ?")
        .all(server.siteA.site.id, productId) as Array<{ url: string; status: string; colors: string; objects: string }>
    ).map((row) => ({
      url: row.url,
      status: row.status,
      colors: JSON.parse(row.colors),
      objects: JSON.parse(row.objects)
    }))
  } finally {
    db.close()
  }
}

describe("product image passes", () => {
  it("makes a product visually searchable first, then detects its objects for text search", async () => {
    const release = holdSecondFetch("/avatar.jpg")
    expect((await put("figure-1", "Collectible display figure", "/avatar.jpg")).status).toBe(200)
    const byObject = { query: "figure", staticFilters: { included: [{ column: "image_object", values: ["person"] }] } }

    // First pass done: the photo finds the product, and colours are stored; objects are not yet.
    await eventually(async () => {
      const res = await call(server.baseUrl, "POST", "/visual-search", {
        auth: server.siteA.bearer,
        body: { query: { image: avatar.toString("base64") } }
      })
      expect(ids(res)[0]).toBe("figure-1")
    }, 120_000)
    const [first] = storedAnalyses("figure-1")
    expect(first).toMatchObject({ url: `${imageBase}/avatar.jpg`, status: "ok", objects: null })
    expect(first.colors.length).toBeGreaterThan(0)
    // The detection pass has asked for the image again and waits for it.
    await eventually(async () => expect(fetches.get("/avatar.jpg")).toBe(2), 60_000)
    expect(ids(await textSearch(byObject))).toEqual([])

    release()
    // Second pass done: the person is stored and the product is found by it, as a word and as a column.
    await eventually(async () => expect(ids(await textSearch(byObject))).toEqual(["figure-1"]), 60_000)
    const [second] = storedAnalyses("figure-1")
    expect(second.objects.map((o: { class: string }) => o.class)).toContain("person")
    expect(second.colors).toEqual(first.colors)
    expect(ids(await textSearch({ query: "person" }))[0]).toBe("figure-1")
  }, 240_000)

  it("detects objects at once for an attribute prediction while the background pass still waits", async () => {
    const release = holdSecondFetch("/avatar-2.jpg")
    expect((await put("figure-2", "Collectible display figure, second edition", "/avatar-2.jpg")).status).toBe(200)
    // First pass done; the background detection has asked for the image and waits for it.
    await eventually(async () => expect(fetches.get("/avatar-2.jpg")).toBe(2), 120_000)
    expect(storedAnalyses("figure-2")[0].objects).toBeNull()
    const res = await call(server.baseUrl, "POST", "/product/figure-2/predicted-attributes", {
      auth: server.siteA.basic,
      body: { attributes: ["color"] }
    })
    expect(res.status).toBe(200)
    const objects = res.body.images[0].attributes.find((a: { name: string }) => a.name === "objects")
    expect(objects.prediction).toContain("person")
    // The prediction's own detection fetched the image a third time; the held pass then adds nothing.
    expect(fetches.get("/avatar-2.jpg")).toBe(3)
    release()
    await eventually(
      async () => expect((await call(server.baseUrl, "GET", "/readyz")).body.pendingJobs).toBe(0),
      60_000
    )
    expect(storedAnalyses("figure-2")[0].objects).toEqual(
      expect.arrayContaining([expect.objectContaining({ class: "person" })])
    )
  }, 240_000)

  it("analyses an image pushed again under a new URL, and forgets the old one", async () => {
    expect((await put("mug-1", "Ceramic mug", "/red.jpg")).status).toBe(200)
    const byColor = (color: string) =>
      textSearch({ query: "mug", staticFilters: { included: [{ column: "image_color", values: [color] }] } })
    await eventually(async () => expect(ids(await byColor("red"))).toEqual(["mug-1"]), 120_000)

    expect((await put("mug-1", "Ceramic mug", "/blue.jpg")).status).toBe(200)
    await eventually(async () => expect(ids(await byColor("blue"))).toEqual(["mug-1"]), 120_000)
    expect(ids(await byColor("red"))).toEqual([])
    const stored = storedAnalyses("mug-1")
    expect(stored.map((a) => a.url)).toEqual([`${imageBase}/blue.jpg`])
    // Both passes ran on the new image, each fetching it once.
    await eventually(async () => expect(storedAnalyses("mug-1")[0].objects).not.toBeNull(), 60_000)
    expect(fetches.get("/blue.jpg")).toBe(2)
  }, 240_000)
})
