import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Exit, Runtime } from "effect"
import type { Principal } from "../services/auth/Auth.js"
import type { Tool, ToolServices } from "./Tool.js"
import { catalogTools } from "./tools/CatalogTools.js"
import { memoryTools } from "./tools/MemoryTools.js"
import { searchTools } from "./tools/SearchTools.js"
import { insightTools } from "./tools/InsightTools.js"
import { merchandisingTools } from "./tools/MerchandisingTools.js"

/** JSON-RPC code for a call the credentials do not authorize (implementation-defined server error range). */
export const FORBIDDEN = -32003

const allTools = [...searchTools, ...catalogTools, ...insightTools, ...merchandisingTools, ...memoryTools]

/** Every service some tool needs: the MCP route asks its layer for them. */
export type McpServices = ToolServices<(typeof allTools)[number]>

export const tools: ReadonlyArray<Tool<McpServices>> = allTools
const byName = new Map(tools.map((t) => [t.name, t]))

// Computed once: the published schemas never change at run time.
const listing = tools.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: t.inputSchema,
  outputSchema: t.outputSchema,
  annotations:
    t.effect === "reads"
      ? { readOnlyHint: true, openWorldHint: false }
      : { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }
}))

/** What an agent reads at initialize: how the tools fit together. */
export const INSTRUCTIONS = [
  "Product search, recommendations and catalog of one shop, plus durable conversation memory.",
  "Find products with text_search (a query, or none to browse with filters; offset and resultsCount page " +
    "through) or visual_search (an image URL or base64).",
  'Pass detail: "compact" to search and recommendation tools for short results ' +
    "(id, title, brand, price, url, image, category); get_item reads a full record.",
  "list_relevant_columns and describe_column tell which filters and sorts the catalog supports; " +
    "get_item, get_items and get_item_group read records.",
  "similar_products and cross_selling recommend from a product id.",
  "Memory tools (append_memory, recall_memory, replay_memory, list_conversations, summarize_conversation) " +
    "need site (Basic) credentials; pass an idempotencyKey with each append so a retry is stored once.",
  "A 429 error carries data.retryAfterSeconds."
].join(" ")

/**
 * The SDK sends a thrown error's `code` and `message` as the JSON-RPC error (McpError would prefix
 * the message twice).
 */
const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code })

/**
 * A fresh MCP server for one stateless request: tools/list publishes every tool (memory tools
 * say they need Basic credentials), tools/call decodes the arguments with the tool's schema and
 * runs the same Effect service code as the REST endpoints, with the caller's site.
 */
export const makeMcpServer = (principal: Principal, runtime: Runtime.Runtime<McpServices>) => {
  const server = new Server(
    { name: "commerce-search", version: "0.1.0" },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS }
  )
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listing }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name)
    if (tool === undefined) throw rpcError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}`)
    if (tool.scope === "site" && principal.scope !== "site") {
      throw rpcError(
        FORBIDDEN,
        `forbidden: ${tool.name} needs site (Basic) credentials; a read-only token does not authorize it`
      )
    }
    const exit = await Runtime.runPromiseExit(runtime)(tool.call(principal, request.params.arguments ?? {}))
    if (Exit.isSuccess(exit)) {
      const structuredContent = exit.value as Record<string, unknown>
      return { content: [{ type: "text" as const, text: JSON.stringify(structuredContent) }], structuredContent }
    }
    const failure = Cause.failureOption(exit.cause)
    if (failure._tag === "Some") {
      const error = failure.value
      if (error.invalidParams)
        throw rpcError(ErrorCode.InvalidParams, `invalid arguments for ${tool.name}: ${error.message}`)
      return { content: [{ type: "text" as const, text: error.message }], isError: true }
    }
    await Runtime.runPromise(runtime)(Effect.logError("MCP tool crashed", exit.cause))
    return { content: [{ type: "text" as const, text: `internal error in ${tool.name}` }], isError: true }
  })
  return server
}
