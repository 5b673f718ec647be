import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EventLog } from "../../src/services/event-log/EventLog.js"
import { eventually } from "../support/Eventually.js"
import { call } from "../support/Http.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"
import { callTool, connectMcp } from "../support/McpClient.js"

let server: InProcessApi
beforeAll(async () => {
  server = await startInProcessApi()
  for (const site of [server.siteA, server.siteB]) {
    for (const [id, title, type] of [
      ["sofa-1", "Velvet three seat sofa", "Furniture"],
      ["grill-1", "Charcoal kettle grill", "Garden"],
      ["kettle-1", "Electric kettle", "Kitchen"],
      ["kettle-2", "Stovetop whistling kettle", "Kitchen"],
      ["mug-1", "Stoneware mug", "Kitchen"]
    ]) {
      const put = await call(server.baseUrl, "PUT", `/product/${id}`, {
        auth: site.basic,
        body: { data: { title, product_type: type } }
      })
      expect(put.status).toBe(200)
    }
  }
})
afterAll(() => server?.close())

const A = () => server.siteA.basic
const B = () => server.siteB.basic
const api = (method: string, path: string, body?: unknown, auth = A()) =>
  call(server.baseUrl, method, path, { auth, ...(body === undefined ? {} : { body }) })
const found = async (query: string, auth = server.siteA.bearer) => {
  const res = await call(server.baseUrl, "POST", "/text-search", { auth, body: { query } })
  expect(res.status).toBe(200)
  return res.body.data as { products: Array<{ productId: string }>; appliedRules?: Array<string>; userData?: unknown }
}
const ids = (data: { products: Array<{ productId: string }> }) => data.products.map((p) => p.productId)

describe("synonyms over REST", () => {
  it("PUT, GET, list, search with it, DELETE: each step answers as documented", async () => {
    expect(ids(await found("snugglepod"))).not.toContain("sofa-1")
    const put = await api("PUT", "/synonyms/snugglepod-sofa", { type: "synonym", synonyms: ["snugglepod", "sofa"] })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ id: "snugglepod-sofa", created: true })
    expect(Date.parse(put.body.updatedAt)).not.toBeNaN()
    expect(ids(await found("snugglepod"))[0]).toBe("sofa-1")

    const got = await api("GET", "/synonyms/snugglepod-sofa")
    expect(got.status).toBe(200)
    expect(got.body).toEqual({
      id: "snugglepod-sofa",
      updatedAt: put.body.updatedAt,
      type: "synonym",
      synonyms: ["snugglepod", "sofa"]
    })
    // A GET's answer sent back (less its timestamp) is a valid PUT body; it replaces.
    const { updatedAt: _, ...again } = got.body
    const replaced = await api("PUT", "/synonyms/snugglepod-sofa", again)
    expect(replaced.body.created).toBe(false)

    await api("PUT", "/synonyms/bbq", { type: "oneWaySynonym", input: "bbq", synonyms: ["grill"] })
    const listed = await api("GET", "/synonyms")
    expect(listed.body).toMatchObject({ total: 2, page: 0, pageSize: 100 })
    expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual(["bbq", "snugglepod-sofa"])
    const byWord = await api("GET", "/synonyms?query=Grill")
    expect(byWord.body.items.map((s: { id: string }) => s.id)).toEqual(["bbq"])
    const paged = await api("GET", "/synonyms?page=1&pageSize=1")
    expect(paged.body).toMatchObject({ total: 2, page: 1, pageSize: 1 })
    expect(paged.body.items.map((s: { id: string }) => s.id)).toEqual(["snugglepod-sofa"])

    expect((await api("DELETE", "/synonyms/snugglepod-sofa")).body).toEqual({ id: "snugglepod-sofa", deleted: true })
    expect(ids(await found("snugglepod"))).not.toContain("sofa-1")
    const gone = await api("GET", "/synonyms/snugglepod-sofa")
    expect(gone.status).toBe(404)
    expect(gone.body.message).toContain("snugglepod-sofa")
    expect((await api("DELETE", "/synonyms/snugglepod-sofa")).status).toBe(404)
  })

  it("a batch merges by id, or replaces the site's synonyms; all or nothing", async () => {
    const merged = await api("POST", "/synonyms/batch", {
      synonyms: [
        { id: "s1", type: "synonym", synonyms: ["snugglepod", "sofa"] },
        { id: "s2", type: "altCorrection", word: "ketle", corrections: ["kettle"] }
      ]
    })
    expect(merged.status).toBe(200)
    expect(merged.body).toMatchObject({ written: 2, replacedExisting: false })
    expect((await api("GET", "/synonyms")).body.total).toBeGreaterThanOrEqual(2)
    const bad = await api("POST", "/synonyms/batch", {
      synonyms: [
        { id: "s3", type: "synonym", synonyms: ["a1", "b1"] },
        { id: "s4", type: "synonym", synonyms: ["only one"] }
      ]
    })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain("synonyms")
    expect((await api("GET", "/synonyms/s3")).status).toBe(404)
    const replaced = await api("POST", "/synonyms/batch", {
      synonyms: [{ id: "only", type: "synonym", synonyms: ["snugglepod", "sofa"] }],
      replaceExisting: true
    })
    expect(replaced.body).toMatchObject({ written: 1, replacedExisting: true })
    expect((await api("GET", "/synonyms")).body.items.map((s: { id: string }) => s.id)).toEqual(["only"])
    await api("POST", "/synonyms/batch", { synonyms: [], replaceExisting: true })
  })

  it("bad input is a 400 naming the field and the rule; nothing is stored", async () => {
    const cases: Array<[string, unknown, string]> = [
      ["/synonyms/x", { type: "synonym", synonyms: ["one"] }, "at least 2"],
      ["/synonyms/x", { type: "oneWaySynonym", synonyms: ["a"] }, "input"],
      ["/synonyms/x", { type: "altCorrection", word: "two words", corrections: ["a"] }, "single word"],
      ["/synonyms/x", { type: "synonym", synonyms: ["a b c d e f", "x"] }, "at most 5 words"],
      ["/synonyms/x", { type: "synonym", synonyms: ["!!", "x"] }, "letter or digit"],
      ["/synonyms/x", { type: "antonym", synonyms: ["a", "b"] }, "type"],
      ["/synonyms/x", { type: "synonym", synonyms: ["a", "b"], extra: 1 }, "extra"],
      ["/synonyms/x", { id: "y", type: "synonym", synonyms: ["a", "b"] }, "path's id"],
      ["/synonyms/bad%20id", { type: "synonym", synonyms: ["a", "b"] }, "id"]
    ]
    for (const [path, body, rule] of cases) {
      const res = await api("PUT", path, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.message, JSON.stringify(body)).toContain(rule)
    }
    expect((await api("GET", "/synonyms/x")).status).toBe(404)
    expect((await api("GET", "/synonyms?pageSize=0")).status).toBe(400)
  })

  it("sites are isolated; a read-only token may not manage synonyms", async () => {
    await api("PUT", "/synonyms/iso", { type: "synonym", synonyms: ["snugglepod", "sofa"] })
    expect((await api("GET", "/synonyms/iso", undefined, B())).status).toBe(404)
    expect(ids(await found("snugglepod", server.siteB.bearer))).not.toContain("sofa-1")
    expect(ids(await found("snugglepod"))[0]).toBe("sofa-1")
    const token = await api("GET", "/synonyms", undefined, server.siteA.bearer)
    expect(token.status).toBe(403)
    expect(
      (await api("PUT", "/synonyms/t", { type: "synonym", synonyms: ["a", "b"] }, server.siteA.bearer)).status
    ).toBe(403)
    expect((await call(server.baseUrl, "GET", "/synonyms")).status).toBe(401)
    await api("DELETE", "/synonyms/iso")
  })
})

describe("query rules over REST", () => {
  const kettleWeek = {
    conditions: [{ pattern: "kettle", anchoring: "contains" }],
    consequence: {
      promote: [{ productId: "mug-1", position: 0 }],
      hide: [{ productId: "kettle-2" }],
      userData: { banner: "Kettle week" }
    },
    enabled: true
  }

  it("PUT a rule: searches carry its effects, ids and userData; disabling and DELETE end them", async () => {
    const put = await api("PUT", "/rules/kettle-week", kettleWeek)
    expect(put.status).toBe(200)
    expect(put.body.created).toBe(true)
    const data = await found("kettle")
    expect(ids(data)[0]).toBe("mug-1")
    expect(ids(data)).not.toContain("kettle-2")
    expect(data.appliedRules).toEqual(["kettle-week"])
    expect(data.userData).toEqual([{ banner: "Kettle week" }])
    // Browsing and other queries are untouched.
    expect((await found("stoneware mug")).appliedRules).toBeUndefined()

    const got = await api("GET", "/rules/kettle-week")
    expect(got.body).toMatchObject({ id: "kettle-week", ...kettleWeek })
    expect((await api("GET", "/rules?query=mug-1")).body.items.map((r: { id: string }) => r.id)).toEqual([
      "kettle-week"
    ])

    await api("PUT", "/rules/kettle-week", { ...kettleWeek, enabled: false })
    expect((await found("kettle")).appliedRules).toBeUndefined()
    expect(ids(await found("kettle"))).toContain("kettle-2")
    await api("PUT", "/rules/kettle-week", kettleWeek)
    expect((await api("DELETE", "/rules/kettle-week")).status).toBe(200)
    expect((await found("kettle")).appliedRules).toBeUndefined()
  })

  it("the search events the server records name the rules that fired", async () => {
    await api("PUT", "/rules/banner", {
      conditions: [{ pattern: "mug", anchoring: "is" }],
      consequence: { userData: { x: 1 } }
    })
    const res = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "mug", requestId: "rule-recorded" }
    })
    expect(res.body.data.appliedRules).toEqual(["banner"])
    const recorded = async () => {
      const events = await server.run(Effect.flatMap(EventLog, (log) => log.read(server.siteA.site.id, 0, 10_000)))
      return events.map((e) => e.event).find((e) => e.requestId === "rule-recorded")
    }
    await eventually(async () => expect((await recorded())?.rules).toEqual(["banner"]))
    await api("DELETE", "/rules/banner")
  })

  it("bad rules are a 400 naming the field; unknown columns are caught when the rule is written", async () => {
    const cases: Array<[unknown, string]> = [
      [{ consequence: {} }, "at least one consequence"],
      [{ conditions: [{ pattern: "kettle" }], consequence: { userData: {} } }, "pattern and anchoring go together"],
      [{ conditions: [{ pattern: "kettle", anchoring: "near" }], consequence: { userData: {} } }, "anchoring"],
      [{ consequence: { promote: [{ productId: "a", position: -1 }] } }, "position"],
      [{ consequence: { redirect: { url: "not a url" } } }, "absolute URL"],
      [
        { consequence: { userData: {} }, validity: [{ from: "2026-12-24T00:00:00Z", until: "2026-12-01T00:00:00Z" }] },
        "until must be after from"
      ],
      [{ consequence: { userData: {} }, validity: [{ from: "tomorrow", until: "2026-12-01T00:00:00Z" }] }, "ISO 8601"],
      [{ consequence: { boosts: [{ column: "no_such", values: ["x"], weight: 1 }] } }, "consequence.boosts.0.column"],
      [
        { consequence: { filters: { included: [{ column: "no_such", values: ["x"] }] } } },
        "consequence.filters.included.0.column"
      ],
      [{ consequence: { userData: { big: "x".repeat(9_000) } } }, "8 KB"]
    ]
    for (const [body, rule] of cases) {
      const res = await api("PUT", "/rules/bad", body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.message, JSON.stringify(body)).toContain(rule)
    }
    expect((await api("GET", "/rules/bad")).status).toBe(404)
    const batch = await api("POST", "/rules/batch", {
      rules: [
        { id: "ok", consequence: { userData: {} } },
        { id: "bad", consequence: { boosts: [{ column: "no_such", values: ["x"], weight: 1 }] } }
      ]
    })
    expect(batch.status).toBe(400)
    expect(batch.body.message).toContain("rules.1.consequence.boosts.0.column")
    expect((await api("GET", "/rules/ok")).status).toBe(404)
  })

  it("sites are isolated", async () => {
    await api("PUT", "/rules/kettle-week", kettleWeek)
    expect((await api("GET", "/rules/kettle-week", undefined, B())).status).toBe(404)
    expect((await found("kettle", server.siteB.bearer)).appliedRules).toBeUndefined()
    expect((await api("GET", "/rules", undefined, B())).body.total).toBe(0)
    await api("DELETE", "/rules/kettle-week")
  })
})

describe("MCP: list_synonyms and list_rules", () => {
  it("an agent with site credentials reads the synonyms and rules that explain a ranking; a read-only token cannot", async () => {
    await api("PUT", "/synonyms/mcp-couch", { type: "synonym", synonyms: ["snugglepod", "sofa"] })
    await api("PUT", "/rules/mcp-kettle", {
      description: "Kettle week",
      conditions: [{ pattern: "kettle", anchoring: "contains" }],
      consequence: { promote: [{ productId: "mug-1", position: 0 }] }
    })
    const merchant = await connectMcp(server.baseUrl, server.siteA.basic)
    const agent = await connectMcp(server.baseUrl, server.siteA.bearer)
    try {
      const synonyms = await callTool(merchant, "list_synonyms", { query: "sofa" })
      expect(synonyms.items).toEqual([
        expect.objectContaining({ id: "mcp-couch", type: "synonym", synonyms: ["snugglepod", "sofa"] })
      ])
      const rules = await callTool(merchant, "list_rules", { pageSize: 10 })
      expect(rules.items.map((r: { id: string }) => r.id)).toContain("mcp-kettle")
      expect(rules.items.find((r: { id: string }) => r.id === "mcp-kettle").consequence.promote).toEqual([
        { productId: "mug-1", position: 0 }
      ])
      // An agent's search honours the rule and says so, in either detail.
      for (const detail of ["full", "compact"]) {
        const found = await callTool(agent, "text_search", { query: "kettle", detail })
        const products = detail === "full" ? found.data.products : found.products
        expect(products[0].productId).toBe("mug-1")
        expect(detail === "full" ? found.data.appliedRules : found.appliedRules).toEqual(["mcp-kettle"])
      }
      await expect(agent.callTool({ name: "list_rules", arguments: {} })).rejects.toThrow(
        /needs site \(Basic\) credentials/
      )
      await expect(merchant.callTool({ name: "list_rules", arguments: { pageSize: 0 } })).rejects.toThrow(/pageSize/)
    } finally {
      await merchant.close()
      await agent.close()
      await api("DELETE", "/synonyms/mcp-couch")
      await api("DELETE", "/rules/mcp-kettle")
    }
  })
})

describe("campaigns over REST", () => {
  it("the first write copies the sites file's campaigns in; searches under a new campaign follow it; the default stays", async () => {
    const before = await api("GET", "/campaigns")
    expect(before.status).toBe(200)
    expect(before.body.defaultCampaign).toBe(0)
    const fileIds = before.body.items.map((c: { id: number }) => c.id)
    expect(fileIds).toContain(0)
    const kitchenOnly = (await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "kettle", campaign: 5 }
    })) as { status: number; body: { message: string } }
    expect(kitchenOnly.status).toBe(400)
    expect(kitchenOnly.body.message).toContain("unknown campaign 5")

    const put = await api("PUT", "/campaigns/5", {
      name: "one result",
      resultsCount: 1,
      boosts: [{ column: "product_type", values: [], weight: 1 }]
    })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ id: "5", created: true })
    const after = await api("GET", "/campaigns")
    expect(after.body.items.map((c: { id: number }) => c.id)).toEqual([...fileIds, 5].sort((a, b) => a - b))
    const under = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "kettle", campaign: 5 }
    })
    expect(under.status).toBe(200)
    expect(under.body.data.products).toHaveLength(1)
    const got = await api("GET", "/campaigns/5")
    expect(got.body).toMatchObject({ id: 5, name: "one result", resultsCount: 1 })
    expect(Date.parse(got.body.updatedAt)).not.toBeNaN()

    // The default campaign is the sites file's choice: replaceable, never deletable.
    expect((await api("PUT", "/campaigns/0", { name: "default", resultsCount: 2 })).body.created).toBe(false)
    expect((await found("kettle")).products.length).toBeLessThanOrEqual(2)
    const noDefault = await api("DELETE", "/campaigns/0")
    expect(noDefault.status).toBe(400)
    expect(noDefault.body.message).toContain("default campaign")
    await api("PUT", "/campaigns/0", { name: "default", resultsCount: 100 })

    expect((await api("DELETE", "/campaigns/5")).status).toBe(200)
    expect((await api("GET", "/campaigns/5")).status).toBe(404)
    // Site B is untouched.
    expect((await api("GET", "/campaigns", undefined, B())).body.items.map((c: { id: number }) => c.id)).not.toContain(
      5
    )
  })

  it("campaigns are checked whole: 400 naming the field", async () => {
    const cases: Array<[string, unknown, string]> = [
      ["/campaigns/6", { resultsCount: 5000 }, "resultsCount"],
      ["/campaigns/6", { resultsCount: 10, boosts: [{ column: "nope", values: ["x"], weight: 1 }] }, "boosts.0.column"],
      ["/campaigns/6", { resultsCount: 10, minWordSizeFor1Typo: 6, minWordSizeFor2Typos: 5 }, "minWordSizeFor2Typos"],
      ["/campaigns/6", { id: 7, resultsCount: 10 }, "path's id"],
      ["/campaigns/x", { resultsCount: 10 }, "id"]
    ]
    for (const [path, body, rule] of cases) {
      const res = await api("PUT", path, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.message, JSON.stringify(body)).toContain(rule)
    }
    expect((await api("GET", "/campaigns/6")).status).toBe(404)
    expect((await api("GET", "/campaigns", undefined, server.siteA.bearer)).status).toBe(403)
  })
})
