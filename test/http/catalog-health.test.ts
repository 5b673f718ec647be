import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiWithPhotos, startApiWithPhotos } from "../support/ApiWithPhotos.js"
import { eventually } from "../support/Eventually.js"
import { call } from "../support/Http.js"

let server: ApiWithPhotos
beforeAll(async () => {
  server = await startApiWithPhotos()
})
afterAll(() => server?.close())

const put = (id: string, image: string) =>
  call(server.baseUrl, "PUT", `/product/${id}`, {
    auth: server.siteA.basic,
    body: { data: { title: `Mug ${id}` }, images: [{ url: `${server.imageBase}/${image}` }] }
  })

describe("GET /catalog/health", () => {
  it("counts the site's products and lists the images that failed with the reason, until they are replaced", async () => {
    expect((await put("good", "red.jpg")).status).toBe(200)
    expect((await put("broken", "missing.jpg")).status).toBe(200)
    const health = () => call(server.baseUrl, "GET", "/catalog/health", { auth: server.siteA.basic })
    await eventually(async () => {
      const res = await health()
      expect(res.status).toBe(200)
      expect(res.body.products).toBe(2)
      expect(res.body.failedImages.products).toBe(1)
      expect(res.body.failedImages.images).toEqual([
        { productId: "broken", url: `${server.imageBase}/missing.jpg`, reason: expect.stringContaining("404") }
      ])
    }, 30_000)
    const now = await health()
    expect(typeof now.body.pendingJobs).toBe("number")
    expect(Date.now() - Date.parse(now.body.lastProductWrite)).toBeLessThan(120_000)
    // Another site sees nothing of it; a read-only token may not ask.
    const other = await call(server.baseUrl, "GET", "/catalog/health", { auth: server.siteB.basic })
    expect(other.body).toEqual({
      products: 0,
      lastProductWrite: null,
      pendingJobs: expect.any(Number),
      failedImages: { products: 0, images: [] }
    })
    expect((await call(server.baseUrl, "GET", "/catalog/health", { auth: server.siteA.bearer })).status).toBe(403)
    // A new image replaces the failed one: nothing fails any more.
    expect((await put("broken", "blue.jpg")).status).toBe(200)
    await eventually(async () => expect((await health()).body.failedImages.products).toBe(0), 30_000)
  })
})
