import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SetProductBody, SetProductResponse } from "../../src/domain/Catalog.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi()
})
afterAll(() => server.close())

const put = (id: string, body: unknown, auth = server.siteA.basic) =>
  call(server.baseUrl, "PUT", `/product/${id}`, { auth, body })

describe("PUT /product/{id}", () => {
  it("creates, then updates, a product and returns the stored record", async () => {
    const created = await put("p-1", {
      data: { title: "Blue Mug", price: 9.5, brand: "Acme" },
      images: [{ url: "https://img.example.com/mug.jpg" }]
    })
    expect(created.status).toBe(200)
    expect(created.body.message).toBe("product created")
    expect(created.body.data).toEqual({
      "site-id": server.siteA.site.id,
      "product-id": "p-1",
      data: { title: "Blue Mug", price: 9.5, brand: "Acme" }
    })

    const updated = await put("p-1", { data: { title: "Blue Mug XL", price: 11 } })
    expect(updated.status).toBe(200)
    expect(updated.body.message).toBe("product updated")

    const read = await call(server.baseUrl, "GET", "/product/p-1", { auth: server.siteA.bearer })
    expect(read.status).toBe(200)
    expect(read.body.data.data).toEqual({ title: "Blue Mug XL", price: 11 })
    // images omitted on update keep the stored ones
    expect(read.body.data.images.map((i: { url: string }) => i.url)).toEqual(["https://img.example.com/mug.jpg"])
  })

  it("answers with the record exactly as the response schema encodes it, for every kind of field", async () => {
    // The handler sends the decoded payload back without encoding it again (see CatalogHandlers).
    const data = {
      title: "Trail Running Jacket - Red, M",
      description: 'Light "packable" shell. Ünïcode ✓',
      link: "https://shop.example.com/p/j-1",
      mobile_link: "https://m.shop.example.com/p/j-1",
      availability: "backorder",
      price: 129,
      sale_price: 99.99,
      multipack: 2,
      product_type: "Sports > Running > Running Jackets, Clothing > Outerwear",
      shopping_product_category: "Sports > Running",
      brand: "Acme",
      mpn: "ACM-100001",
      gtin: "4006381333931",
      condition: "new",
      color: "Red",
      material: "Nylon",
      pattern: "Solid",
      gender: "unisex",
      age_group: "adult",
      size: "M",
      size_system: "EU",
      size_type: "regular",
      item_group_id: "g-1",
      energy_efficiency_class: "A",
      promotion_id: "SPRING-SALE",
      custom_label_0: "bestseller",
      custom_label_2: null,
      adult: false,
      is_bundle: true,
      product_weight: "0.35 kg",
      product_length: "70 cm",
      product_width: "50 cm",
      product_height: "3 cm",
      product_highlight: '"Packs into its pocket","Reflective trims"',
      product_detail: "General:Fit:Regular, Care:Wash:30 degrees"
    }
    const res = await put("j-1", { data })
    expect(res.status).toBe(200)
    const decoded = Schema.decodeUnknownSync(SetProductBody)({ data })
    const encoded = Schema.encodeSync(SetProductResponse)({
      message: "product created",
      data: { "site-id": server.siteA.site.id, "product-id": "j-1", data: decoded.data }
    })
    expect(res.body).toEqual(encoded)
    expect(res.body.data.data).toEqual(data)
    expect(res.headers.get("content-type")).toMatch(/^application\/json/)
  })

  it("rejects a field over its length bound, naming the field and the rule", async () => {
    const res = await put("p-2", { data: { brand: "x".repeat(71) } })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain("data.brand")
    expect(res.body.message).toContain("70")
  })

  it("rejects enumeration values, unknown fields, bad formats and bad image urls", async () => {
    const cases: ReadonlyArray<[unknown, string]> = [
      [{ data: { availability: "sometimes" } }, "data.availability"],
      [{ data: { colour: "red" } }, "colour"],
      [{ data: { product_weight: "heavy" } }, "data.product_weight"],
      [{ data: {}, images: [{ url: "ftp://x/y.jpg" }] }, "images.0.url"]
    ]
    for (const [body, field] of cases) {
      const res = await put("p-3", body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.message).toContain(field)
    }
    const read = await call(server.baseUrl, "GET", "/product/p-3", { auth: server.siteA.basic })
    expect(read.status).toBe(404)
  })

  it("answers malformed JSON with 400 and a JSON message", async () => {
    const res = await call(server.baseUrl, "PUT", "/product/p-4", { auth: server.siteA.basic, rawBody: '{"data": {' })
    expect(res.status).toBe(400)
    expect(typeof res.body.message).toBe("string")
  })

  it("answers an oversized body with 413", async () => {
    const res = await put("p-5", { data: { description: "x".repeat(11 * 1024 * 1024) } })
    expect(res.status).toBe(413)
    expect(res.body.message).toMatch(/limit/)
  })

  it("needs credentials (401 with WWW-Authenticate) and site scope (403 for a read-only token)", async () => {
    const anonymous = await call(server.baseUrl, "PUT", "/product/p-6", { body: { data: {} } })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get("www-authenticate")).toMatch(/Bearer/)
    expect(anonymous.headers.get("www-authenticate")).toMatch(/Basic/)
    expect(typeof anonymous.body.message).toBe("string")

    const wrong = await put("p-6", { data: {} }, `Basic ${Buffer.from("nobody:nothing").toString("base64")}`)
    expect(wrong.status).toBe(401)

    const readOnly = await put("p-6", { data: {} }, server.siteA.bearer)
    expect(readOnly.status).toBe(403)
    expect(readOnly.body.message).toMatch(/read-only/)
  })
})

describe("DELETE /product/{id}", () => {
  it("deletes the product and reports its image ids", async () => {
    await put("d-1", {
      data: { title: "Lamp" },
      images: [{ url: "https://img.example.com/a.jpg" }, { url: "https://img.example.com/b.jpg" }]
    })
    const res = await call(server.baseUrl, "DELETE", "/product/d-1", { auth: server.siteA.basic })
    expect(res.status).toBe(200)
    expect(res.body.data["product-id"]).toBe("d-1")
    expect(res.body.data["image-ids"]).toHaveLength(2)
    const read = await call(server.baseUrl, "GET", "/product/d-1", { auth: server.siteA.basic })
    expect(read.status).toBe(404)
  })

  it("answers an unknown product with the no-image shape", async () => {
    const res = await call(server.baseUrl, "DELETE", "/product/nope", { auth: server.siteA.basic })
    expect(res.status).toBe(404)
    expect(res.body.data).toEqual({ "site-id": server.siteA.site.id, "image-id": "" })
    expect(typeof res.body.message).toBe("string")
  })

  it("cannot touch another site's product", async () => {
    await put("shared-id", { data: { title: "Site A only" } })
    const res = await call(server.baseUrl, "DELETE", "/product/shared-id", { auth: server.siteB.basic })
    expect(res.status).toBe(404)
    const read = await call(server.baseUrl, "GET", "/product/shared-id", { auth: server.siteB.bearer })
    expect(read.status).toBe(404)
    const still = await call(server.baseUrl, "GET", "/product/shared-id", { auth: server.siteA.bearer })
    expect(still.body.data.data.title).toBe("Site A only")
  })
})

describe("routing and operations", () => {
  it("answers unknown routes with a JSON 404", async () => {
    const res = await call(server.baseUrl, "GET", "/no/such/route", { auth: server.siteA.basic })
    expect(res.status).toBe(404)
  })

  it("serves health, readiness, the OpenAPI document and the docs page", async () => {
    expect((await call(server.baseUrl, "GET", "/healthz")).body).toEqual({ status: "ok" })
    expect((await call(server.baseUrl, "GET", "/readyz")).body.status).toBe("ready")
    const openapi = await call(server.baseUrl, "GET", "/openapi.json")
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(["/text-search", "/product/{productId}", "/auto-suggest"])
    )
    const docs = await fetch(`${server.baseUrl}/docs`)
    expect(docs.status).toBe(200)
    expect(await docs.text()).toMatch(/swagger/i)
  })

  it("documents who may call each operation, the error shapes on the wire, and /mcp", async () => {
    const spec = (await call(server.baseUrl, "GET", "/openapi.json")).body
    expect(spec.info.title).toBe("Commerce search")
    expect(spec.servers).toEqual([{ url: "/", description: "this service" }])
    expect(spec.components.securitySchemes.basic).toMatchObject({ type: "http", scheme: "basic" })
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" })
    const either = [{ bearer: [] }, { basic: [] }]
    expect(spec.paths["/text-search"].post.security).toEqual(either)
    expect(spec.paths["/product/{productId}"].get.security).toEqual(either)
    expect(spec.paths["/product/{productId}"].put.security).toEqual([{ basic: [] }])
    expect(spec.paths["/product/{productId}"].delete.security).toEqual([{ basic: [] }])
    expect(spec.paths["/product/{productId}/predicted-attributes"].post.security).toEqual([{ basic: [] }])
    expect(spec.paths["/healthz"].get.security).toEqual([])
    expect(spec.paths["/mcp"].post.security).toEqual([...either, { accessToken: [] }])
    for (const [path, operations] of Object.entries<any>(spec.paths)) {
      for (const [method, operation] of Object.entries<any>(operations))
        expect(operation.summary, `${method} ${path}`).toBeTruthy()
    }
    // The wire carries no Effect tags; a decode error is {message, issues: [{path, message}]}.
    expect(JSON.stringify(spec.components.schemas)).not.toContain('"_tag"')
    expect(spec.components.schemas.HttpApiDecodeError.required).toEqual(["message", "issues"])
    // What the document promises is what the API answers: a real decode error has that shape.
    const invalid = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: 5 }
    })
    expect(Object.keys(invalid.body).sort()).toEqual(["issues", "message"])
  })

  it("serves the process's metrics as Prometheus text, the indexing backlog and embeddings among them", async () => {
    const metrics = async () => {
      const res = await fetch(`${server.baseUrl}/metrics`)
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/)
      const values = new Map<string, number>()
      for (const line of (await res.text()).split("\n")) {
        if (line === "" || line.startsWith("#")) continue
        const [name, value] = line.split(" ")
        values.set(name, Number(value))
      }
      return values
    }
    const before = await metrics()
    for (const name of [
      "commerce_jobs_pending",
      "commerce_text_documents_embedded_total",
      "process_resident_memory_bytes"
    ]) {
      expect(Number.isFinite(before.get(name)), name).toBe(true)
    }
    await call(server.baseUrl, "PUT", "/product/metrics-1", {
      auth: server.siteA.basic,
      body: { data: { title: "Walnut Cutting Board" } }
    })
    await eventually(
      async () =>
        expect((await metrics()).get("commerce_text_documents_embedded_total")).toBeGreaterThan(
          before.get("commerce_text_documents_embedded_total")!
        ),
      30_000
    )
  })

  it("tags every response with a request id", async () => {
    const res = await fetch(`${server.baseUrl}/healthz`, { headers: { "x-request-id": "abc-123" } })
    expect(res.headers.get("x-request-id")).toBe("abc-123")
  })
})
