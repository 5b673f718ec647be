import * as fs from "node:fs"
import * as path from "node:path"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import { type ApiWithPhotos, startApiWithPhotos } from "../support/ApiWithPhotos.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"

let server: ApiWithPhotos
let red: Buffer
let blue: Buffer
let green: Buffer

beforeAll(async () => {
  server = await startApiWithPhotos()
  ;({ red, blue, green } = server.shots)
  const products = [
    { id: "mug-red", title: "Ceramic mug", brand: "Acme", type: "Kitchen > Mugs", image: "/red.jpg" },
    { id: "cup-blue", title: "Ceramic cup", brand: "Bolt", type: "Kitchen > Cups", image: "/blue.jpg" },
    { id: "mug-green", title: "Ceramic mug large", brand: "Acme", type: "Kitchen > Mugs", image: "/green.jpg" }
  ]
  for (const p of products) {
    const res = await call(server.baseUrl, "PUT", `/product/${p.id}`, {
      auth: server.siteA.basic,
      body: {
        data: { title: p.title, brand: p.brand, product_type: p.type },
        images: [{ url: server.imageBase + p.image }]
      }
    })
    expect(res.status).toBe(200)
  }
  await eventually(async () => {
    const res = await call(server.baseUrl, "POST", "/visual-search", {
      auth: server.siteA.bearer,
      body: { query: { image: red.toString("base64") } }
    })
    expect(res.body.data.products.map((p: any) => p.productId).sort()).toEqual(["cup-blue", "mug-green", "mug-red"])
  }, 120_000)
}, 180_000)

afterAll(async () => {
  await server?.close()
})

/** A request with a multipart/form-data or raw body; parsed JSON answer. */
const send = async (
  method: string,
  urlPath: string,
  options: { auth?: string; form?: FormData; raw?: { body: Buffer; type: string } } = {}
) => {
  const headers: Record<string, string> = {}
  if (options.auth) headers.authorization = options.auth
  let body: FormData | Buffer | undefined = options.form
  if (options.raw) {
    headers["content-type"] = options.raw.type
    body = options.raw.body
  }
  const res = await fetch(server.baseUrl + urlPath, { method, headers, body })
  const text = await res.text()
  let json: any
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined
  } catch {
    json = text
  }
  return { status: res.status, body: json }
}

const imageForm = (bytes: Buffer, type = "image/jpeg", field = "image") => {
  const form = new FormData()
  form.append(field, new Blob([bytes], { type }), "photo")
  return form
}

const createSession = (bytes: Buffer, query = "", auth = server.siteA.bearer) =>
  send("POST", `/search/session${query}`, { auth, form: imageForm(bytes) })
const getSession = (id: string, query = "", auth = server.siteA.bearer) =>
  send("GET", `/search/session/${id}${query}`, { auth })
const ids = (session: any) => session.value.map((p: any) => p.productId)
/** Path and query of an absolute link of this server. */
const local = (href: string) => {
  expect(href.startsWith(`${server.baseUrl}/`)).toBe(true)
  return href.slice(server.baseUrl.length)
}
const expectSearchException = (res: { status: number; body: any }, status: number, withDebug: boolean) => {
  expect(res.status).toBe(status)
  expect(Object.keys(res.body).sort()).toEqual(withDebug ? ["data", "debug", "message"] : ["data", "message"])
  expect(typeof res.body.message).toBe("string")
  if (withDebug) expect(typeof res.body.debug).toBe("string")
}

describe("POST /search/session", () => {
  it("creates a session for an uploaded image and answers the legacy search-session object", async () => {
    const res = await createSession(red, "?campaign-id=0")
    expect(res.status).toBe(200)
    const s = res.body
    expect(ids(s)[0]).toBe("mug-red")
    expect(s.type).toBe("visual-search")

    const self = local(s.links.self.href)
    expect(s.links.self.method).toBe("GET")
    const id = /^\/search\/session\/([A-Za-z0-9_-]{16,})\?campaign-id=0$/.exec(self)?.[1]
    expect(id).toBeDefined()
    expect(s.links["detect-objects"]).toEqual({
      method: "GET",
      href: `${server.baseUrl}/search/session/${id}/detect-objects`
    })
    expect(s.links["upload-image"]).toEqual({
      method: "PUT",
      href: `${server.baseUrl}/search/session/${id}/upload-image`
    })

    expect(s.searchArea.method).toBe("GET")
    expect(s.searchArea.rel).toEqual(["search-area"])
    expect(local(s.searchArea.href)).toBe(`/search/session/${id}`)
    expect(s.searchArea.value).toEqual([
      { name: "left", value: "0" },
      { name: "top", value: "0" },
      { name: "width", value: "1" },
      { name: "height", value: "1" },
      { name: "campaign-id", value: "0" }
    ])
    expect(s.uploadHighResolutionImage).toEqual({
      rel: ["upload-high-resolution-image"],
      value: [{ name: "image", value: "" }],
      method: "PUT",
      href: `${server.baseUrl}/search/session/${id}/upload-image`
    })

    // The results' categories, most frequent first, each a link to the search within it.
    expect(s.filters.type).toBe("category")
    const categories = s.filters.value.categories
    expect(categories.map((c: any) => c.name)).toEqual(["Mugs", "Cups"])
    for (const c of categories) expect(c.method).toBe("GET")
    expect(local(categories[1].href)).toBe(
      `/search/session/${id}?campaign-id=0&category=${encodeCategoryPath("Kitchen > Cups")}`
    )
    const cups = await getSession(id!, local(categories[1].href).slice(`/search/session/${id}`.length))
    expect(cups.status).toBe(200)
    expect(ids(cups.body)).toEqual(["cup-blue"])

    expect(Array.isArray(s.detectedObjects)).toBe(true)
  })

  it("keeps excluded[] filters for the session's later searches", async () => {
    const res = await createSession(red, "?excluded[]=brand:Acme")
    expect(res.status).toBe(200)
    expect(ids(res.body)).toEqual(["cup-blue"])
    const again = await getSession(local(res.body.links.self.href).split("/")[3]!)
    expect(again.status).toBe(200)
    expect(ids(again.body)).toEqual(["cup-blue"])
  })

  it("answers search exceptions for garbage, bombs, a missing image and bad parameters", async () => {
    expectSearchException(await createSession(Buffer.from("definitely not an image")), 415, true)
    const bomb = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: "#000" } })
      .png({ compressionLevel: 9 })
      .toBuffer()
    const refused = await createSession(bomb)
    expect([413, 422]).toContain(refused.status)
    expectSearchException(refused, refused.status, true)

    const missing = await send("POST", "/search/session", {
      auth: server.siteA.bearer,
      form: imageForm(red, "image/jpeg", "picture")
    })
    expectSearchException(missing, 400, true)
    expect(missing.body.message).toContain("image")
    expect(missing.body.data).toEqual({ "site-id": server.siteA.site.id, "search-id": null })

    const badCampaign = await createSession(red, "?campaign-id=abc")
    expectSearchException(badCampaign, 400, true)
    expect(badCampaign.body.message).toContain("campaign-id")
    expectSearchException(await createSession(red, "?campaign-id=999"), 400, true)
    const badColumn = await createSession(red, "?excluded[]=nonsense:x")
    expectSearchException(badColumn, 400, true)
    expect(badColumn.body.message).toContain("excluded[0]")
    expectSearchException(await createSession(red, "?excluded[]=no-colon"), 400, true)
  })

  it("needs credentials", async () => {
    const res = await send("POST", "/search/session", { form: imageForm(red) })
    expect(res.status).toBe(401)
  })

  it("is documented (deprecated) in the OpenAPI document with its search-exception statuses", async () => {
    const openapi = (await call(server.baseUrl, "GET", "/openapi.json")).body
    const create = openapi.paths["/search/session"].post
    expect(create.deprecated).toBe(true)
    expect(Object.keys(create.requestBody.content)).toEqual(["multipart/form-data"])
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(["200", "400", "401", "404", "413", "415", "422", "503"])
    )
    const upload = openapi.paths["/search/session/{searchId}/upload-image"].put
    expect(Object.keys(upload.requestBody.content).sort()).toEqual(["application/octet-stream", "multipart/form-data"])
  })
})

describe("GET /search/session/{search-id}", () => {
  it("runs the search again on the stored image, also within a search area", async () => {
    const created = await createSession(green)
    const id = local(created.body.links.self.href).split("/")[3]!
    const res = await getSession(id)
    expect(res.status).toBe(200)
    expect(ids(res.body)[0]).toBe("mug-green")
    expect(res.body.links.self.href).toBe(`${server.baseUrl}/search/session/${id}`)

    const area = await getSession(id, "?left=0.2&top=0.2&width=0.6&height=0.6")
    expect(area.status).toBe(200)
    expect(ids(area.body)[0]).toBe("mug-green")
    expect(area.body.searchArea.value.slice(0, 4)).toEqual([
      { name: "left", value: "0.2" },
      { name: "top", value: "0.2" },
      { name: "width", value: "0.6" },
      { name: "height", value: "0.6" }
    ])

    expectSearchException(await getSession(id, "?left=0.8&top=0&width=0.5&height=1"), 400, true)
    expectSearchException(await getSession(id, "?left=0.1"), 400, true)
    expectSearchException(await getSession(id, "?category=not*base64"), 400, true)
    expectSearchException(await getSession(id, "?campaign-id=x"), 400, true)
  })

  it("answers 404 with the search-exception body for an unknown id", async () => {
    const res = await getSession("no-such-session")
    expectSearchException(res, 404, true)
    expect(res.body.data).toEqual({ "site-id": server.siteA.site.id, "search-id": "no-such-session" })
    expectSearchException(
      await send("GET", "/search/session/no-such-session/detect-objects", { auth: server.siteA.bearer }),
      404,
      false
    )
    expectSearchException(
      await send("PUT", "/search/session/no-such-session/upload-image", {
        auth: server.siteA.bearer,
        form: imageForm(blue)
      }),
      404,
      false
    )
  })
})

describe("GET /search/session/{search-id}/detect-objects", () => {
  it("returns the objects of the session image with rectangles in [0,1] and search links", async () => {
    const photo = fs.readFileSync(path.resolve("node_modules/@vladmandic/human/assets/samples.jpg"))
    const created = await createSession(photo)
    expect(created.status).toBe(200)
    expect(created.body.detectedObjects.map((o: any) => o.value.class)).toContain("person")
    const id = local(created.body.links.self.href).split("/")[3]!

    const res = await send("GET", `/search/session/${id}/detect-objects`, { auth: server.siteA.bearer })
    expect(res.status).toBe(200)
    expect(res.body.value.length).toBeGreaterThan(0)
    expect(res.body.value.map((o: any) => o.value.class)).toContain("person")
    for (const { links, value } of res.body.value) {
      expect(Number.isInteger(value.classId)).toBe(true)
      expect(Number.isInteger(value.score)).toBe(true)
      expect(value.score).toBeGreaterThan(0)
      expect(value.score).toBeLessThanOrEqual(100)
      const r = value.rectangle
      for (const v of [r.left, r.top, r.width, r.height]) {
        expect(v).toBeGreaterThanOrEqual(0)
        expect(v).toBeLessThanOrEqual(1)
      }
      expect(r.left + r.width).toBeLessThanOrEqual(1.000001)
      expect(r.top + r.height).toBeLessThanOrEqual(1.000001)
      expect(links.search.method).toBe("GET")
      // Each object's link searches its area.
      const search = await getSession(id, local(links.search.href).slice(`/search/session/${id}`.length))
      expect(search.status).toBe(200)
    }
  })
})

describe("PUT /search/session/{search-id}/upload-image", () => {
  it("stores a high-resolution image (multipart or raw) that later searches use", async () => {
    const created = await createSession(red)
    const id = local(created.body.links.self.href).split("/")[3]!
    expect(ids((await getSession(id)).body)[0]).toBe("mug-red")

    const put = await send("PUT", `/search/session/${id}/upload-image`, {
      auth: server.siteA.bearer,
      form: imageForm(blue)
    })
    expect(put.status).toBe(200)
    expect(Object.keys(put.body)).toEqual(["message"])
    expect(ids((await getSession(id)).body)[0]).toBe("cup-blue")

    const raw = await send("PUT", `/search/session/${id}/upload-image`, {
      auth: server.siteA.basic,
      raw: { body: green, type: "image/jpeg" }
    })
    expect(raw.status).toBe(200)
    expect(ids((await getSession(id)).body)[0]).toBe("mug-green")

    const garbage = await send("PUT", `/search/session/${id}/upload-image`, {
      auth: server.siteA.bearer,
      form: imageForm(Buffer.from("nope"))
    })
    expectSearchException(garbage, 415, false)
    expect(garbage.body.data).toEqual({ "site-id": server.siteA.site.id, "search-id": id })
    expectSearchException(
      await send("PUT", `/search/session/${id}/upload-image`, { auth: server.siteA.bearer, form: new FormData() }),
      400,
      false
    )
    // A failed upload keeps the earlier one.
    expect(ids((await getSession(id)).body)[0]).toBe("mug-green")
  })
})

describe("session lifecycle", () => {
  it("expires a session after its TTL without use", async () => {
    // The TTL is read once at startup: a server of its own with a one-second TTL.
    const shared = server
    server = await startApiWithPhotos({ LEGACY_SESSION_TTL_SECONDS: 1 })
    try {
      const created = await createSession(red)
      expect(created.status).toBe(200)
      const id = local(created.body.links.self.href).split("/")[3]!
      // Use within the TTL keeps it alive (sliding expiry).
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 500))
        expect((await send("GET", `/search/session/${id}/detect-objects`, { auth: server.siteA.bearer })).status).toBe(
          200
        )
      }
      await new Promise((r) => setTimeout(r, 1600))
      const expired = await getSession(id)
      expectSearchException(expired, 404, true)
      expect(expired.body.message).toContain("expired")
    } finally {
      await server.close()
      server = shared
    }
  })

  it("keeps sessions per site: another site's credentials get 404", async () => {
    const created = await createSession(red)
    const id = local(created.body.links.self.href).split("/")[3]!
    expectSearchException(await getSession(id, "", server.siteB.bearer), 404, true)
    expectSearchException(
      await send("GET", `/search/session/${id}/detect-objects`, { auth: server.siteB.basic }),
      404,
      false
    )
    expectSearchException(
      await send("PUT", `/search/session/${id}/upload-image`, { auth: server.siteB.bearer, form: imageForm(blue) }),
      404,
      false
    )
    // Site A's session is untouched by site B's attempt.
    const mine = await getSession(id)
    expect(mine.status).toBe(200)
    expect(ids(mine.body)[0]).toBe("mug-red")
    expect((await getSession(id, "", "Bearer nonsense")).status).toBe(401)
  })
})
