import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

export interface LatencyRow {
  readonly name: string
  readonly count: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

const timeCalls = async (name: string, count: number, call: (i: number) => Promise<unknown>): Promise<LatencyRow> => {
  const samples: Array<number> = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await call(i)
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return { name, count, p50: percentile(samples, 50), p95: percentile(samples, 95), p99: percentile(samples, 99) }
}

const connect = async (baseUrl: string, authorization: string) => {
  const client = new Client({ name: "bench", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { authorization } } })
  )
  return client
}

const checked = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args })
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`)
  return result
}

/**
 * MCP figures through the SDK client over HTTP: get_item, text_search and recall_memory
 * latency, and append_memory throughput (items/s, one client, sequential batches).
 */
export const runMcpBench = async (options: {
  readonly baseUrl: string
  readonly basic: string
  readonly productIds: ReadonlyArray<string>
  readonly queries: ReadonlyArray<string>
  readonly calls: number
}) => {
  const client = await connect(options.baseUrl, options.basic)
  try {
    const pick = <A>(xs: ReadonlyArray<A>, i: number) => xs[(i * 7919) % xs.length]
    // Warm-up: connection, query embeddings of a few queries.
    for (let i = 0; i < 20; i++) await checked(client, "get_item", { productId: pick(options.productIds, i) })
    const rows: Array<LatencyRow> = []
    rows.push(
      await timeCalls("mcp get_item", options.calls, (i) =>
        checked(client, "get_item", { productId: pick(options.productIds, i) })
      )
    )
    rows.push(
      await timeCalls("mcp text_search", options.calls, (i) =>
        checked(client, "text_search", { query: pick(options.queries, i), resultsCount: 24 })
      )
    )

    const batch = 25
    const batches = Math.max(10, Math.floor(options.calls / 2))
    const started = performance.now()
    for (let i = 0; i < batches; i++) {
      await checked(client, "append_memory", {
        conversationId: `bench-${i % 20}`,
        items: Array.from({ length: batch }, (_, j) => ({
          role: j % 2 === 0 ? "user" : "assistant",
          content: `bench message ${i}-${j} about ${pick(options.queries, i + j)}`
        })),
        idempotencyKey: `bench-${i}`
      })
    }
    const appendSeconds = (performance.now() - started) / 1000
    rows.push(
      await timeCalls("mcp recall_memory (20 items)", options.calls, (i) =>
        checked(client, "recall_memory", { conversationId: `bench-${i % 20}`, count: 20 })
      )
    )
    return { rows, appendItemsPerSecond: (batches * batch) / appendSeconds, appendBatch: batch }
  } finally {
    await client.close()
  }
}
