import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callTool, connectMcp } from "../support/McpClient.js"
import { startServerProcess } from "../support/ServerProcess.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"
import { makeWorkspace } from "../support/Workspace.js"

let server: InProcessApi
let agent: Client

beforeAll(async () => {
  server = await startInProcessApi()
  agent = await connectMcp(server.baseUrl, server.siteA.basic)
})
afterAll(async () => {
  await agent?.close()
  await server.close()
})

describe("conversation memory tools", () => {
  it("appends, recalls, replays, lists and summarizes", async () => {
    const appended = await callTool(agent, "append_memory", {
      conversationId: "conv-1",
      items: [
        { role: "user", content: "I need a cordless drill for wood, under 150 euros" },
        {
          role: "assistant",
          content: "Here are three drills.",
          metadata: { productIds: ["drill-1", "drill-2"], filters: [{ column: "price", values: ["0-150"] }] }
        },
        { role: "user", content: "Which one has two batteries?" }
      ]
    })
    expect(appended.positions).toEqual([0, 1, 2])
    expect(appended.length).toBe(3)

    const recalled = await callTool(agent, "recall_memory", { conversationId: "conv-1", count: 2 })
    expect(recalled.items.map((i: any) => i.position)).toEqual([1, 2])
    expect(recalled.items[0].metadata.productIds).toEqual(["drill-1", "drill-2"])
    expect(typeof recalled.items[0].appendedAt).toBe("string")

    const replayed = await callTool(agent, "replay_memory", { conversationId: "conv-1", offset: 1, limit: 5 })
    expect(replayed.items.map((i: any) => i.content)).toEqual([
      "Here are three drills.",
      "Which one has two batteries?"
    ])

    const listed = await callTool(agent, "list_conversations", {})
    const conv = listed.conversations.find((c: any) => c.conversationId === "conv-1")
    expect(conv.length).toBe(3)
    expect(Date.parse(conv.lastAppendedAt)).toBeGreaterThanOrEqual(Date.parse(conv.createdAt))

    const summary = await callTool(agent, "summarize_conversation", { conversationId: "conv-1" })
    expect(summary.products).toEqual(expect.arrayContaining(["drill-1", "drill-2"]))
    expect(summary.lastUser).toContain("two batteries")
    expect(summary.lookingFor.join(" ")).toContain("cordless drill")
    expect(summary.filters).toContainEqual({ column: "price", values: ["0-150"] })
  })

  it("stores a batch retried with the same idempotency key once", async () => {
    const args = {
      conversationId: "conv-retry",
      items: [{ role: "user", content: "hello" }],
      idempotencyKey: "batch-1"
    }
    const first = await callTool(agent, "append_memory", args)
    const retry = await callTool(agent, "append_memory", args)
    expect(retry.positions).toEqual(first.positions)
    expect(retry.duplicate).toBe(true)
    const all = await callTool(agent, "replay_memory", { conversationId: "conv-retry", offset: 0, limit: 10 })
    expect(all.items).toHaveLength(1)
  })

  it("keeps one total order under 50 concurrent appends", async () => {
    const clients = await Promise.all(Array.from({ length: 5 }, () => connectMcp(server.baseUrl, server.siteA.basic)))
    try {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          callTool(clients[i % 5], "append_memory", {
            conversationId: "conv-race",
            items: [{ role: "user", content: `message ${i}` }],
            idempotencyKey: `k-${i}`
          })
        )
      )
      const positions = results.flatMap((r) => r.positions).sort((a, b) => a - b)
      expect(positions).toEqual(Array.from({ length: 50 }, (_, i) => i))
      const all = await callTool(agent, "replay_memory", { conversationId: "conv-race", offset: 0, limit: 100 })
      expect(all.items.map((i: any) => i.position)).toEqual(positions)
      expect(new Set(all.items.map((i: any) => i.content)).size).toBe(50)
    } finally {
      await Promise.all(clients.map((c) => c.close()))
    }
  })

  it("names the field of a broken limit with -32602", async () => {
    const error = await agent
      .callTool({
        name: "append_memory",
        arguments: { conversationId: "conv-x", items: [{ role: "user", content: "x".repeat(32_001) }] }
      })
      .then(
        () => null,
        (e) => e
      )
    expect(error?.code).toBe(-32602)
    expect(error.message).toMatch(/items(\.0|\[0\])\.content/)
    const tooMany = await agent
      .callTool({ name: "recall_memory", arguments: { conversationId: "conv-1", count: 5000 } })
      .then(
        () => null,
        (e) => e
      )
    expect(tooMany?.code).toBe(-32602)
    expect(tooMany.message).toContain("count")
  })

  it("never shows one site's conversations to another", async () => {
    const other = await connectMcp(server.baseUrl, server.siteB.basic)
    try {
      const listed = await callTool(other, "list_conversations", {})
      expect(listed.conversations.map((c: any) => c.conversationId)).not.toContain("conv-1")
      const recalled = await callTool(other, "recall_memory", { conversationId: "conv-1", count: 10 })
      expect(recalled.items).toEqual([])
    } finally {
      await other.close()
    }
  })
})

describe("rate limit", () => {
  it("answers excess requests with 429, Retry-After and a JSON-RPC error", async () => {
    const limited = await startInProcessApi({ config: { MCP_RATE_LIMIT: 3, MCP_RATE_WINDOW_MS: 60_000 } })
    try {
      const send = () =>
        fetch(`${limited.baseUrl}/mcp`, {
          method: "POST",
          headers: {
            authorization: limited.siteA.bearer,
            "content-type": "application/json",
            accept: "application/json, text/event-stream"
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
        })
      for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200)
      const refused = await send()
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      const body = (await refused.json()) as {
        jsonrpc: string
        id: unknown
        error: { code: number; message: string; data: { retryAfterSeconds: number } }
      }
      expect(body.jsonrpc).toBe("2.0")
      expect(body.id).toBe(1)
      expect(body.error.message).toMatch(/rate limit/)
      // Machine-readable for agents, equal to the header.
      expect(body.error.data.retryAfterSeconds).toBe(Number(refused.headers.get("retry-after")))
      // another credential of another site has its own budget
      const otherSite = await fetch(`${limited.baseUrl}/mcp`, {
        method: "POST",
        headers: {
          authorization: limited.siteB.bearer,
          "content-type": "application/json",
          accept: "application/json, text/event-stream"
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
      })
      expect(otherSite.status).toBe(200)
    } finally {
      await limited.close()
    }
  })
})

describe("durability", () => {
  it("keeps acknowledged appends across SIGKILL and restart", async () => {
    const { siteA, env } = await makeWorkspace({ prefix: "commerce-memory-" })
    const first = await startServerProcess(env)
    const client = await connectMcp(first.baseUrl, siteA.basic)
    for (let i = 0; i < 20; i++) {
      await callTool(client, "append_memory", {
        conversationId: "durable",
        items: [{ role: "user", content: `item ${i}` }]
      })
    }
    first.child.kill("SIGKILL")
    await first.exited
    const second = await startServerProcess(env)
    try {
      const again = await connectMcp(second.baseUrl, siteA.basic)
      const all = await callTool(again, "replay_memory", { conversationId: "durable", offset: 0, limit: 100 })
      expect(all.items.map((i: any) => i.content)).toEqual(Array.from({ length: 20 }, (_, i) => `item ${i}`))
      await again.close()
    } finally {
      second.child.kill("SIGTERM")
      await second.exited
    }
  }, 180_000)
})
