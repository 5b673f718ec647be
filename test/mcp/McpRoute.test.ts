import * as http from "node:http"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loggableUrl } from "../../src/mcp/ProtectedResource.js"
import { AGENT_PAGE } from "../../src/mcp/tools/SearchTools.js"
import { fixtureProducts } from "../support/FixtureCatalog.js"
import { callTool, connectMcp } from "../support/McpClient.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

let server: InProcessApi
let reader: Client

beforeAll(async () => {
  server = await startInProcessApi()
  for (const p of fixtureProducts) {
    await call(server.baseUrl, "PUT", `/product/${p.id}`, {
      auth: server.siteA.basic,
      body: { data: p.data, images: p.images ?? [] }
    })
  }
  await eventually(async () => {
    const res = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "leather belt" }
    })
    expect(res.body.data.products.map((p: any) => p.productId)).toContain("belt-1")
  }, 60_000)
  reader = await connectMcp(server.baseUrl, server.siteA.bearer)
})
afterAll(async () => {
  await reader?.close()
  await server.close()
})

const rpcCode = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (e) {
    if (e instanceof McpError) return { code: e.code, message: e.message }
    throw e
  }
  throw new Error("expected a JSON-RPC error")
}

describe("tools/list", () => {
  it("publishes every tool with object input and output schemas", async () => {
    const { tools } = await reader.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      "append_memory",
      "cross_selling",
      "describe_column",
      "get_item",
      "get_item_group",
      "get_items",
      "list_conversations",
      "list_relevant_columns",
      "list_rules",
      "list_synonyms",
      "list_trending",
      "recall_memory",
      "replay_memory",
      "search_analytics",
      "similar_products",
      "summarize_conversation",
      "text_search",
      "visual_search"
    ])
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object")
      expect(tool.outputSchema?.type, tool.name).toBe("object")
      expect(tool.description!.length).toBeGreaterThan(20)
    }
    const search = tools.find((t) => t.name === "text_search")!
    // Every field is optional: without a query the tool browses (a category page).
    expect(search.inputSchema.required ?? []).toEqual([])
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["query", "offset", "resultsCount"])
    )
  })

  it("publishes the memory tools' limits and what each parameter means", async () => {
    const { tools } = await reader.listTools()
    const input = (name: string) => tools.find((t) => t.name === name)!.inputSchema as any
    const append = input("append_memory").properties
    expect(append.conversationId).toMatchObject({ minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9._:-]+$" })
    expect(append.items).toMatchObject({ minItems: 1, maxItems: 100 })
    expect(append.items.items.properties.content).toMatchObject({ maxLength: 32_000 })
    expect(input("recall_memory").properties.count).toMatchObject({ minimum: 1, maximum: 1000 })
    expect(input("replay_memory").properties.offset).toMatchObject({ minimum: 0 })
    for (const name of [
      "append_memory",
      "recall_memory",
      "replay_memory",
      "list_conversations",
      "summarize_conversation"
    ]) {
      for (const [field, schema] of Object.entries(input(name).properties))
        expect((schema as any).description, `${name}.${field}`).toBeTruthy()
    }
  })

  it("publishes each search field's meaning and limits, no generated constraint text or repeated schemas", async () => {
    const { tools } = await reader.listTools()
    const listing = JSON.stringify(tools)
    expect(listing).not.toMatch(/"title":"(?:[A-Za-z]+\(|unknown)/)
    expect(listing).not.toMatch(/"description":"an? (?:string|array|number)/)
    const search = tools.find((t) => t.name === "text_search")!.inputSchema as any
    // The request schema is inlined once, not repeated under $defs.
    expect(Object.keys(search.$defs ?? {})).not.toContain("TextSearchRequest")
    expect(search.properties.resultsCount).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 1000,
      description: expect.stringMatching(/How many/)
    })
    expect(search.properties.offset).toMatchObject({ type: "integer", minimum: 0 })
    for (const field of ["query", "offset", "sort", "staticFilters", "dynamicFilters", "collapseVariants"]) {
      expect(search.properties[field].description, field).toMatch(/^[A-Z]/)
    }
  })

  it("marks every tool read-only except append_memory, which only adds (hosts need not confirm reads)", async () => {
    const { tools } = await reader.listTools()
    for (const tool of tools) {
      if (tool.name === "append_memory") {
        expect(tool.annotations).toEqual({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false
        })
      } else expect(tool.annotations, tool.name).toEqual({ readOnlyHint: true, openWorldHint: false })
    }
  })
})

describe("search and catalog tools", () => {
  it("text_search returns the same ranking as POST /text-search, as structured content and text", async () => {
    const rest = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "cordless drill" }
    })
    const result = await reader.callTool({ name: "text_search", arguments: { query: "cordless drill" } })
    const structured = result.structuredContent as any
    expect(structured.data.products.map((p: any) => p.productId)).toEqual(
      rest.body.data.products.map((p: any) => p.productId)
    )

    expect(JSON.parse((result.content as any)[0].text)).toEqual(structured)
  })

  it("pages 10 products for an agent unless it asks for more (REST: the campaign's 100)", async () => {
    // Site B, so the fixture catalog of site A stays as the other tests expect it.
    for (let i = 1; i <= AGENT_PAGE + 2; i++) {
      const put = await call(server.baseUrl, "PUT", `/product/gnome-${i}`, {
        auth: server.siteB.basic,
        body: { data: { title: `Garden gnome ${i}`, price: i } }
      })
      expect(put.status, JSON.stringify(put.body)).toBe(200)
    }
    const browse = await eventually(async () => {
      const res = await call(server.baseUrl, "POST", "/text-search", {
        auth: server.siteB.bearer,
        body: { sort: [{ column: "price", order: "asc" }] }
      })
      expect(res.body.data.products.length, JSON.stringify(res.body).slice(0, 300)).toBe(AGENT_PAGE + 2)
      return res
    }, 30_000)
    const agent = await connectMcp(server.baseUrl, server.siteB.bearer)
    try {
      const page = await callTool(agent, "text_search", { sort: [{ column: "price", order: "asc" }] })
      expect(page.data.products.map((p: any) => p.productId)).toEqual(
        browse.body.data.products.slice(0, AGENT_PAGE).map((p: any) => p.productId)
      )
      expect(page.data.total).toBe(AGENT_PAGE + 2)
      expect((await callTool(agent, "text_search", { resultsCount: 12 })).data.products).toHaveLength(12)
    } finally {
      await agent.close()
    }
  })

  it("answers compactly when asked: the same products in a fraction of the context", async () => {
    const full = await callTool(reader, "text_search", { query: "cordless drill", resultsCount: 5 })
    const compact = await callTool(reader, "text_search", {
      query: "cordless drill",
      resultsCount: 5,
      detail: "compact"
    })
    expect(compact.products.map((p: any) => p.productId)).toEqual(full.data.products.map((p: any) => p.productId))
    expect(compact.total).toBe(full.data.total)
    const first = full.data.products[0]
    expect(compact.products[0]).toMatchObject({
      productId: first.productId,
      title: first.title,
      brand: first.brand,
      url: first.deeplink
    })
    expect(
      Object.keys(compact.products[0]).every((k) =>
        ["productId", "title", "brand", "price", "url", "image", "category", "groupId"].includes(k)
      )
    ).toBe(true)
    for (const facet of compact.facets ?? []) expect(facet.values.length).toBeLessThanOrEqual(10)
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(full).length / 2)
    const similar = await callTool(reader, "similar_products", { productId: "drill-1", detail: "compact" })
    expect(similar.sourceProduct.productId).toBe("drill-1")
    expect(Array.isArray(similar.products)).toBe(true)
    // A detail the tool does not know is refused like any other invalid argument.
    expect(
      (await rpcCode(reader.callTool({ name: "text_search", arguments: { query: "drill", detail: "tiny" } }))).code
    ).toBe(-32602)
  })

  it("similar_products and cross_selling wrap the REST behaviour", async () => {
    const similar = await callTool(reader, "similar_products", { productId: "drill-1" })
    expect(similar.data.sourceProduct.productId).toBe("drill-1")
    expect(similar.data.products.map((p: any) => p.productId)).toContain("drill-2")
    const cross = await callTool(reader, "cross_selling", { productId: "shirt-red-m" })
    expect(cross.data.products.map((p: any) => p.productId)).not.toContain("shirt-blue-m")
  })

  it("visual_search runs the REST visual search, and reports a bad image as a tool error", async () => {
    const image = (
      await sharp({ create: { width: 64, height: 64, channels: 3, background: "#d01010" } })
        .jpeg()
        .toBuffer()
    ).toString("base64")
    const found = await callTool(reader, "visual_search", { query: { image } })
    expect(Array.isArray(found.data.products)).toBe(true)
    expect(found.stream.items[0].parts[0].inlineData.mimeType).toBe("image/jpeg")
    const bad = await reader.callTool({
      name: "visual_search",
      arguments: { query: { image: Buffer.from("not an image").toString("base64") } }
    })
    expect(bad.isError).toBe(true)
    expect((bad.content as any)[0].text).toContain("query.image")
  })

  it("get_item, get_items and get_item_group return full stored records", async () => {
    const item = await callTool(reader, "get_item", { productId: "drill-1" })
    expect(item.data).toEqual(fixtureProducts[0].data)
    expect(item.images[0].url).toBe("https://img.example.com/drill-1.jpg")
    const batch = await callTool(reader, "get_items", { productIds: ["belt-1", "nope", "saw-1"] })
    expect(batch.items.map((i: any) => i.productId)).toEqual(["belt-1", "saw-1"])
    expect(batch.missing).toEqual(["nope"])
    const group = await callTool(reader, "get_item_group", { itemGroupId: "shirt-1" })
    expect(group.items.map((i: any) => i.productId).sort()).toEqual(["shirt-blue-m", "shirt-red-m"])
  })

  it("list_relevant_columns and describe_column describe the site's actual data", async () => {
    const listed = await callTool(reader, "list_relevant_columns", {})
    expect(listed.totalProducts).toBe(fixtureProducts.length)
    const names = listed.columns.map((c: any) => c.column)
    expect(names).toEqual(expect.arrayContaining(["category", "brand", "price", "color"]))
    expect(names).not.toContain("energy_efficiency_class")
    const brand = await callTool(reader, "describe_column", { column: "brand" })
    expect(brand.values).toContainEqual({ value: "Bosch", count: 3 })
    const price = await callTool(reader, "describe_column", { column: "price" })
    expect(price.range).toEqual({ min: 19.99, max: 149 })
    const category = await callTool(reader, "describe_column", { column: "category" })
    const tools = category.tree.find((n: any) => Buffer.from(n.path, "base64url").toString() === "Tools")
    expect(tools).toMatchObject({ label: "Tools", depth: 1, count: 5 })
  })

  it("answers invalid arguments with -32602 naming the field, and unknown tools as errors", async () => {
    const bad = await rpcCode(
      reader.callTool({ name: "text_search", arguments: { query: "drill", resultsCount: "many" } })
    )
    expect(bad.code).toBe(-32602)
    expect(bad.message).toContain("resultsCount")
    const unknownColumn = await rpcCode(reader.callTool({ name: "describe_column", arguments: { column: "flavour" } }))
    expect(unknownColumn.code).toBe(-32602)
    expect(unknownColumn.message).toContain("column")
    const tooMany = await rpcCode(
      reader.callTool({ name: "get_items", arguments: { productIds: Array.from({ length: 101 }, (_, i) => `p${i}`) } })
    )
    expect(tooMany.code).toBe(-32602)
    const unknown = await rpcCode(reader.callTool({ name: "teleport", arguments: {} }))
    expect(unknown.code).toBe(-32602)
    expect(unknown.message).toContain("unknown tool")
  })

  it("reports a failing tool as an isError result with a message", async () => {
    const result = await reader.callTool({ name: "get_item", arguments: { productId: "missing-product" } })
    expect(result.isError).toBe(true)
    expect((result.content as any)[0].text).toContain("missing-product")
  })

  it("keeps sites apart", async () => {
    const other = await connectMcp(server.baseUrl, server.siteB.bearer)
    try {
      const result = await other.callTool({ name: "get_item", arguments: { productId: "drill-1" } })
      expect(result.isError).toBe(true)
      const search = await callTool(other, "text_search", { query: "cordless drill" })
      expect(search.data.products).toEqual([])
    } finally {
      await other.close()
    }
  })
})

describe("DNS rebinding protection", () => {
  /** tools/list with these Host and Origin headers, sent as written. */
  const listWith = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: {} })
      const request = http.request(
        `${server.baseUrl}/mcp`,
        {
          method: "POST",
          headers: {
            authorization: server.siteA.bearer,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers
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
      request.end(body)
    })

  it("refuses a local connection naming a foreign host, and a browser origin that is not the service's", async () => {
    const rebound = await listWith({ host: "evil.example.com", origin: "http://evil.example.com" })
    expect(rebound.status).toBe(403)
    expect(rebound.body).toMatchObject({
      id: 9,
      error: { code: -32000, message: expect.stringMatching(/host "evil\.example\.com" is not this service's/) }
    })
    const crossSite = await listWith({ origin: "http://evil.example.com" })
    expect(crossSite.status).toBe(403)
    expect(crossSite.body.error.message).toMatch(/origin "http:\/\/evil\.example\.com" is not this service's/)
  })

  it("serves loopback names and the service's own origin", async () => {
    const port = new URL(server.baseUrl).port
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      expect((await listWith({ host })).status, host).toBe(200)
    }
    expect((await listWith({ origin: `http://${new URL(server.baseUrl).host}` })).status).toBe(200)
  })
})

describe("authentication", () => {
  it("answers missing or invalid credentials with HTTP 401 and WWW-Authenticate", async () => {
    const body = { jsonrpc: "2.0", id: "req-7", method: "tools/list", params: {} }
    for (const authorization of [undefined, "Bearer not-a-token", `Basic ${Buffer.from("x:y").toString("base64")}`]) {
      const res = await fetch(`${server.baseUrl}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(authorization ? { authorization } : {})
        },
        body: JSON.stringify(body)
      })
      expect(res.status).toBe(401)
      expect(res.headers.get("www-authenticate")).toMatch(/Bearer.*Basic/)
      // The refusal answers the request's own id, so a client can match it.
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: "req-7", error: { code: -32001 } })
    }
  })

  it("points a 401 at the protected resource metadata, which says how a token may be presented", async () => {
    const res = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    })
    const challenge = res.headers.get("www-authenticate") ?? ""
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
    expect(metadataUrl).toBe(`${server.baseUrl}/.well-known/oauth-protected-resource/mcp`)
    expect(challenge).toMatch(/^Bearer realm="commerce-search", .*Basic realm="commerce-search"$/)
    for (const url of [metadataUrl!, `${server.baseUrl}/.well-known/oauth-protected-resource`]) {
      const metadata = await fetch(url)
      expect(metadata.status).toBe(200)
      expect(await metadata.json()).toMatchObject({
        resource: `${server.baseUrl}/mcp`,
        bearer_methods_supported: ["header", "query"]
      })
    }
  })

  it("lets a host that can only be given a URL in with the read-only token as access_token", async () => {
    const token = server.siteA.bearer.replace(/^Bearer /, "")
    const client = new Client({ name: "url-only-host", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp?access_token=${token}`)))
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(10)
      const found = await callTool(client, "text_search", { query: "leather belt" })
      expect(found.data.products.map((p: any) => p.productId)).toContain("belt-1")
      // Still only the read-only token's scope.
      expect(
        (
          await rpcCode(
            client.callTool({
              name: "append_memory",
              arguments: { conversationId: "c1", items: [{ role: "user", content: "hi" }] }
            })
          )
        ).code
      ).toBe(-32003)
    } finally {
      await client.close()
    }
  })

  it("takes only read-only tokens from the URL, and credentials once", async () => {
    const post = (query: string, headers: Record<string, string> = {}) =>
      fetch(`${server.baseUrl}/mcp${query}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list", params: {} })
      })
    // Site credentials are never a URL's: the parameter is read as a Bearer token and fails.
    const basicInUrl = await post(`?access_token=${server.siteA.basic.replace(/^Basic /, "")}`)
    expect(basicInUrl.status).toBe(401)
    const token = server.siteA.bearer.replace(/^Bearer /, "")
    const both = await post(`?access_token=${token}`, { authorization: server.siteA.bearer })
    expect(both.status).toBe(400)
    expect(await both.json()).toMatchObject({
      id: 5,
      error: { code: -32600, message: expect.stringMatching(/not both/) }
    })
  })

  it("never writes an access token into a logged URL", () => {
    expect(loggableUrl("/mcp?access_token=eyJ.secret.sig")).toBe("/mcp?access_token=[redacted]")
    expect(loggableUrl("/mcp?x=1&access_token=eyJ.secret.sig&y=2")).toBe("/mcp?x=1&access_token=[redacted]&y=2")
    expect(loggableUrl("/text-search?q=access")).toBe("/text-search?q=access")
  })

  it("tells the agent at initialize how the tools fit together", () => {
    const instructions = reader.getInstructions() ?? ""
    expect(instructions).toMatch(/text_search/)
    expect(instructions).toMatch(/idempotencyKey/)
  })

  it("refuses memory tools to a read-only token", async () => {
    const refused = await rpcCode(
      reader.callTool({
        name: "append_memory",
        arguments: { conversationId: "c1", items: [{ role: "user", content: "hi" }] }
      })
    )
    expect(refused.code).toBe(-32003)
    expect(refused.message).toMatch(/forbidden/)
  })
})
