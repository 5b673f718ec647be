import * as fs from "node:fs"
import * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../src/http/JsonDepth.js"
import { eventually } from "../support/Eventually.js"
import { call } from "../support/Http.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

// Hostile and malformed requests against the real api over HTTP: each gets a 4xx JSON
// `message` naming the field and rule, and the server keeps serving.
let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi()
}, 120_000)
afterAll(() => server?.close())

/** A request sent byte for byte as given: no path normalisation, no added headers beyond these. */
const rawRequest = (
  method: string,
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = { "content-type": "application/json" }
) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = Object.fromEntries(
      Object.entries({ authorization: server.siteA.basic, ...headers }).filter(([, value]) => value !== "")
    )
    const request = http.request(`${server.baseUrl}/`, { method, path, headers: sent }, (response) => {
      let text = ""
      response
        .setEncoding("utf8")
        .on("data", (chunk) => (text += chunk))
        .on("end", () => resolve({ status: response.statusCode ?? 0, body: text }))
    })
    request.on("error", reject)
    request.end(body)
  })

const nested = (levels: number, open = "[", close = "]") => open.repeat(levels) + close.repeat(levels)

/** Every JSON endpoint, with a body whose one field holds `value` (raw JSON text). */
const jsonEndpoints: ReadonlyArray<readonly [method: string, path: string, body: (value: string) => string]> = [
  ["PUT", "/product/deep-1", (v) => `{"data":{"title":"Drill","brand":${v}}}`],
  ["POST", "/text-search", (v) => `{"query":"drill","staticFilters":${v}}`],
  ["POST", "/auto-suggest", (v) => `{"query":"dri","extra":${v}}`],
  ["POST", "/similar-products", (v) => `{"productId":"x","dynamicFilters":${v}}`],
  ["POST", "/visual-search", (v) => `{"imageUrl":"https://example.com/a.jpg","staticFilters":${v}}`],
  ["POST", "/mcp", (v) => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${v}}`]
]

describe("deeply nested JSON", () => {
  it("is measured by one pass that skips strings", () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false)
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true)
    expect(nestsDeeperThan(`{"a":"${"[".repeat(1_000)}\\"{{{"}`, 2)).toBe(false)
    expect(nestsDeeperThan(`[${'{"a":'.repeat(3)}1}}}]`, 3)).toBe(true)
  })

  for (const [method, path, body] of jsonEndpoints) {
    it(`gets 400 naming the rule on ${method} ${path}, for arrays and objects; the server keeps serving`, async () => {
      for (const value of [nested(100_000), nested(3_000, '{"a":', "}").replace(/\{"a":\}/, '{"a":1}')]) {
        const answer = await call(server.baseUrl, method, path, { auth: server.siteA.basic, rawBody: body(value) })
        expect(answer.status).toBe(400)
        expect(answer.body.message).toMatch(/body: JSON must not nest arrays and objects deeper than 64 levels/)
      }
      // Nesting within the limit is decoded as usual: the field's own rule answers.
      const shallow = await call(server.baseUrl, method, path, { auth: server.siteA.basic, rawBody: body(nested(10)) })
      expect(shallow.status).toBeGreaterThanOrEqual(200)
      expect(shallow.status).not.toBe(401)
      expect(shallow.status).toBeLessThan(500)
      expect(shallow.body.message ?? "").not.toMatch(/nest/)
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
    }, 60_000)
  }
})

describe("image URLs", () => {
  it("refuses the localhost domain with 400 however it is written, and a host name with an empty label", async () => {
    for (const host of ["localhost.", "LOCALHOST.", "a.localhost", "a.localhost."]) {
      const answer = await call(server.baseUrl, "POST", "/visual-search", {
        auth: server.siteA.basic,
        body: { query: { url: `http://${host}:9/a.jpg` } }
      })
      expect(answer.status, host).toBe(400)
      expect(answer.body.message).toBe(
        `query.url: private, loopback and link-local addresses are not allowed (${host.toLowerCase()} is loopback)`
      )
    }
    const empty = await call(server.baseUrl, "POST", "/visual-search", {
      auth: server.siteA.basic,
      body: { query: { url: "http://localhost../a.jpg" } }
    })
    expect(empty.status).toBe(400)
    expect(empty.body.message).toBe("query.url: not a valid host name (localhost..)")
  }, 60_000)
})

describe("product ids", () => {
  it("answer the id's own rule: up to 200 characters, not . or .., any other character percent-encoded", async () => {
    const at = (id: string) =>
      call(server.baseUrl, "GET", `/product/${encodeURIComponent(id)}`, { auth: server.siteA.basic })
    for (const [id, status] of [
      ["a".repeat(200), 404],
      ["é".repeat(200), 404],
      ["a b?#%", 404]
    ] as const) {
      expect((await at(id)).status, id).toBe(status)
    }
    const long = await at("a".repeat(201))
    expect(long.status).toBe(400)
    expect(long.body.message).toMatch(/productId: .*at most 200 characters/)
    for (const path of ["/product/..", "/product/%2E%2E", "/product/."]) {
      // Sent as written (fetch would resolve the dot segment away).
      const answer = await rawRequest("PUT", path, JSON.stringify({ data: { title: "x" } }))
      expect(answer.status, path).toBe(400)
      expect(JSON.parse(answer.body).message).toBe(`productId: must not be "." or ".."`)
    }
  }, 60_000)
})

describe("malformed multipart", () => {
  const send = (path: string, method: string, contentType: string, body: string) =>
    fetch(server.baseUrl + path, {
      method,
      headers: { authorization: server.siteA.basic, "content-type": contentType },
      body
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

  it("gets 400 naming the problem on both session endpoints, and the server keeps serving", async () => {
    for (const [method, path] of [
      ["POST", "/search/session"],
      ["PUT", "/search/session/no-such-id/upload-image"]
    ]) {
      const noBoundary = await send(path, method, "multipart/form-data", "hello")
      expect(noBoundary.status, path).toBe(400)
      expect(noBoundary.body.message).toBe(
        "content-type: a multipart body needs its boundary parameter (multipart/form-data; boundary=...)"
      )
      const mismatched = await send(
        path,
        method,
        "multipart/form-data; boundary=XYZ",
        "hello there, no boundary in sight"
      )
      expect(mismatched.status, path).toBe(400)
      expect(mismatched.body.message).toBe("body: not a readable multipart/form-data body (Parse)")
    }
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
  }, 60_000)

  it("answers a body that ends before its closing boundary with 400, on both session endpoints", async () => {
    const truncated =
      '--XYZ\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n' +
      "Content-Type: image/jpeg\r\n\r\nabcdef"
    for (const [method, path] of [
      ["POST", "/search/session"],
      ["PUT", "/search/session/no-such-id/upload-image"]
    ]) {
      const res = await send(path, method, "multipart/form-data; boundary=XYZ", truncated)
      expect(res, path).toEqual({
        status: 400,
        body: { message: "body: the multipart body ended before its closing boundary" }
      })
    }
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
    // Nothing is left open: each truncated upload's temporary file is closed (the server runs in this process).
    const openTempFiles = () =>
      fs.readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).endsWith("(deleted)")
        } catch {
          return false
        }
      }).length
    const before = openTempFiles()
    await Promise.all(
      Array.from({ length: 20 }, () => send("/search/session", "POST", "multipart/form-data; boundary=XYZ", truncated))
    )
    await eventually(async () => expect(openTempFiles()).toBeLessThanOrEqual(before), 30_000)
  }, 60_000)
})

describe("oversized bodies", () => {
  it("answers a chunked body over the limit with 413 as it arrives, and keeps serving", async () => {
    const limit = 10 * 1024 * 1024
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      // No Content-Length: the size is only known as the chunks arrive.
      const request = http.request(
        `${server.baseUrl}/text-search`,
        {
          method: "POST",
          headers: {
            authorization: server.siteA.bearer,
            "content-type": "application/json",
            "transfer-encoding": "chunked"
          }
        },
        (response) => {
          let text = ""
          response
            .setEncoding("utf8")
            .on("data", (chunk) => (text += chunk))
            .on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }))
        }
      )
      request.on("error", reject)
      request.write('{"query":"')
      const chunk = "a".repeat(1024 * 1024)
      for (let i = 0; i < 11; i++) request.write(chunk)
      request.end('"}')
    })
    expect(answer).toEqual({ status: 413, body: { message: `request body is over the limit of ${limit} bytes` } })
    expect(
      (await call(server.baseUrl, "POST", "/text-search", { auth: server.siteA.bearer, body: { query: "drill" } }))
        .status
    ).toBe(200)
  }, 60_000)
})

describe("unicode and NUL", () => {
  it("keeps any well-formed Unicode, in ids and text alike", async () => {
    const id = "café-日本-🍵"
    const put = await call(server.baseUrl, "PUT", `/product/${encodeURIComponent(id)}`, {
      auth: server.siteA.basic,
      body: { data: { title: "Grüner Tee 緑茶 🍵", brand: "Ōkubo" } }
    })
    expect(put.status).toBe(200)
    const got = await call(server.baseUrl, "GET", `/product/${encodeURIComponent(id)}`, { auth: server.siteA.basic })
    expect(got.body.data).toMatchObject({ "product-id": id, data: { title: "Grüner Tee 緑茶 🍵", brand: "Ōkubo" } })
  })

  it("keeps U+FFFD sent as UTF-8 or escaped (scraped feeds hold it), in a PUT and in a bulk line", async () => {
    const title = "Cr\uFFFDme br\uFFFDl\uFFFDe torch"
    const put = await rawRequest("PUT", "/product/fffd-1", Buffer.from(JSON.stringify({ data: { title } }), "utf8"), {
      "content-type": "application/json",
      authorization: server.siteA.basic
    })
    expect(put.status, put.body).toBe(200)
    const escaped = await rawRequest("PUT", "/product/fffd-2", '{"data":{"title":"a \\ufffd b"}}', {
      "content-type": "application/json",
      authorization: server.siteA.basic
    })
    expect(escaped.status, escaped.body).toBe(200)
    const bulk = await rawRequest(
      "POST",
      "/products/bulk",
      Buffer.concat([
        Buffer.from(`${JSON.stringify({ id: "fffd-3", data: { title } })}\n`, "utf8"),
        Buffer.from('{"id":"fffd-4","data":{"title":"a'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('b"}}\n')
      ]),
      { "content-type": "application/x-ndjson", authorization: server.siteA.basic }
    )
    expect(
      bulk.body
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
    ).toMatchObject([
      { line: 1, status: 200 },
      { line: 2, status: 400, message: "data.title: must be UTF-8 (the body holds bytes that are not UTF-8 here)" }
    ])
    for (const id of ["fffd-1", "fffd-3"]) {
      const got = await call(server.baseUrl, "GET", `/product/${id}`, { auth: server.siteA.basic })
      expect(got.body.data.data.title, id).toBe(title)
    }
    expect((await call(server.baseUrl, "GET", "/product/fffd-4", { auth: server.siteA.basic })).status).toBe(404)
  })

  it("refuses NUL, lone surrogates and non-UTF-8 bytes with 400 naming the field, storing nothing", async () => {
    const cases: ReadonlyArray<readonly [string, string, string, string | Buffer, string]> = [
      [
        "PUT",
        "/product/nul-1",
        "Basic",
        '{"data":{"title":"a\\u0000b"}}',
        "data.title: must not contain the NUL character (U+0000)"
      ],
      [
        "PUT",
        "/product/nul-2",
        "Basic",
        '{"data":{"title":"ok","brand":"x\\ud800y"}}',
        "data.brand: must be valid Unicode (it holds a lone surrogate)"
      ],
      [
        "PUT",
        "/product/nul-3",
        "Basic",
        Buffer.concat([Buffer.from('{"data":{"title":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}}')]),
        "data.title: must be UTF-8 (the body holds bytes that are not UTF-8 here)"
      ],
      [
        "POST",
        "/text-search",
        "Bearer",
        '{"query":"dr\\u0000ill"}',
        "query: must not contain the NUL character (U+0000)"
      ],
      [
        "POST",
        "/auto-suggest",
        "Bearer",
        '{"query":"\\udc00"}',
        "query: must be valid Unicode (it holds a lone surrogate)"
      ],
      [
        "POST",
        "/text-search",
        "Bearer",
        '{"query":"x","dynamicFilters":[{"column":"co\\u0000lor","values":["red"]}]}',
        "dynamicFilters.0.column: must not contain the NUL character (U+0000)"
      ],
      [
        "POST",
        "/mcp",
        "Basic",
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"append_memory",' +
          '"arguments":{"conversationId":"c1","items":[{"role":"user","content":"hi\\u0000"}]}}}',
        "params.arguments.items.0.content: must not contain the NUL character (U+0000)"
      ]
    ]
    for (const [method, path, scheme, body, message] of cases) {
      const res = await rawRequest(method, path, body, {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: scheme === "Basic" ? server.siteA.basic : server.siteA.bearer
      })
      expect({ status: res.status, body: JSON.parse(res.body) }, `${method} ${path}`).toEqual({
        status: 400,
        body: { message }
      })
    }
    for (const id of ["nul-1", "nul-2", "nul-3"]) {
      expect((await call(server.baseUrl, "GET", `/product/${id}`, { auth: server.siteA.basic })).status, id).toBe(404)
    }
  })

  it("answers ids with NUL or escapes that are not UTF-8 with 400, not as a missing route", async () => {
    const nul = await call(server.baseUrl, "PUT", "/product/a%00b", {
      auth: server.siteA.basic,
      body: { data: { title: "x" } }
    })
    expect(nul).toMatchObject({ status: 400, body: { message: "productId: must not contain control characters" } })
    const latin1 = await call(server.baseUrl, "PUT", "/product/caf%E9", {
      auth: server.siteA.basic,
      body: { data: { title: "x" } }
    })
    expect(latin1).toMatchObject({
      status: 400,
      body: { message: "path: /product/caf%E9 holds percent-escapes that are not UTF-8" }
    })
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
  })
})

describe("authentication errors", () => {
  it("are the documented shape on every API, with the challenge header", async () => {
    for (const [method, path, type, body] of [
      ["POST", "/text-search", "application/json", "{}"],
      ["POST", "/search/session", "multipart/form-data; boundary=XYZ", "--XYZ--\r\n"]
    ]) {
      const res = await fetch(server.baseUrl + path, { method, headers: { "content-type": type }, body })
      expect(res.status, path).toBe(401)
      expect(res.headers.get("www-authenticate"), path).toMatch(/Bearer.*Basic/)
      expect(await res.json(), path).toEqual({ message: "missing Authorization header" })
    }
  })
})

describe("content types and schema errors", () => {
  const post = (path: string, contentType: string | undefined, body: string) =>
    fetch(server.baseUrl + path, {
      method: "POST",
      headers: {
        authorization: server.siteA.basic,
        ...(contentType === undefined ? {} : { "content-type": contentType })
      },
      body
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))

  it("answers a body that is not JSON on a JSON route with 415, without quoting it", async () => {
    const form = await post("/text-search", "application/x-www-form-urlencoded", "query=drill")
    expect(form).toEqual({
      status: 415,
      body: { message: "content-type: must be application/json, not application/x-www-form-urlencoded" }
    })
    // fetch labels a string body text/plain; a client that sends no type at all is refused alike.
    const plain = await post("/text-search", "text/plain", JSON.stringify({ query: "drill", note: "y".repeat(300) }))
    expect(plain).toEqual({ status: 415, body: { message: "content-type: must be application/json, not text/plain" } })
    const untyped = await rawRequest("POST", "/text-search", "{}", { "content-type": "" })
    expect(untyped.status).toBe(415)
    expect(JSON.parse(untyped.body).message).toBe("content-type: must be application/json, not missing")
    expect(
      (await post("/text-search", "application/json; charset=utf-8", JSON.stringify({ query: "drill" }))).status
    ).toBe(200)
    // JSON under another name is JSON (the platform read such a body twice and never answered).
    expect((await post("/text-search", "application/vnd.api+json", JSON.stringify({ query: "drill" }))).status).toBe(
      200
    )
    expect((await post("/text-search", "application/problem+json", JSON.stringify({ query: 5 }))).body.message).toBe(
      "query: must be a string, not 5"
    )
  })

  it("words a type mismatch as the JSON kind the field takes, without Effect's error tags", async () => {
    const answer = await call(server.baseUrl, "PUT", "/product/p1", {
      auth: server.siteA.basic,
      body: { data: { title: "x" }, images: "nope" }
    })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({
      message: `images: must be an array, not "nope"`,
      issues: [{ path: ["images"], message: `must be an array, not "nope"` }]
    })
    const unknown = await call(server.baseUrl, "GET", "/product/no-such-product", { auth: server.siteA.basic })
    expect(unknown.status).toBe(404)
    expect(Object.keys(unknown.body)).not.toContain("_tag")
  })
})

describe("the category root", () => {
  const root = Buffer.from("root").toString("base64url")
  const search = (body: unknown) => call(server.baseUrl, "POST", "/text-search", { auth: server.siteA.basic, body })

  it("filters nothing out when included, is refused when excluded, and substitutes as the whole catalog", async () => {
    const put = (id: string, title: string, category: string) =>
      call(server.baseUrl, "PUT", `/product/${id}`, {
        auth: server.siteA.basic,
        body: { data: { title, product_type: category } }
      })
    expect((await put("root-lamp", "Brass Desk Lamp", "Home > Lighting")).status).toBe(200)
    expect((await put("root-drill", "Cordless Drill", "Tools > Power Tools")).status).toBe(200)
    const all = () => search({ staticFilters: { included: [{ column: "category", values: [root] }] } })
    await eventually(async () => {
      const ids = (await all()).body.data.products.map((p: any) => p.productId)
      expect(ids).toEqual(expect.arrayContaining(["root-lamp", "root-drill"]))
    })
    const dynamic = await search({ dynamicFilters: [{ column: "category", values: [root] }] })
    expect(dynamic.body.data.products.map((p: any) => p.productId)).toEqual(
      expect.arrayContaining(["root-lamp", "root-drill"])
    )
    const excluded = await search({ staticFilters: { excluded: [{ column: "category", values: [root] }] } })
    expect(excluded.status).toBe(400)
    expect(excluded.body.message).toBe(
      "staticFilters.excluded.0.values: the root holds every product: excluding it would exclude them all"
    )
    // Similar products with the root as the substitute category reach other departments (once
    // both are embedded: they are listed by their words before their vectors land).
    await eventually(async () => {
      const similar = await call(server.baseUrl, "POST", "/similar-products", {
        auth: server.siteA.basic,
        body: { productId: "root-lamp", substitutions: { category: [root] } }
      })
      expect(similar.status).toBe(200)
      expect(similar.body.data.products.map((p: any) => p.productId)).toContain("root-drill")
    })
  }, 60_000)
})
