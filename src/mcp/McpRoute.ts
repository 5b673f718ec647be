import { HttpLayerRouter, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Config, Effect, Either } from "effect"
import { Auth } from "../services/auth/Auth.js"
import { consumeFailingOpen, retryAfterSeconds } from "../services/rate-limiter/Admission.js"
import { RateLimiter } from "../services/rate-limiter/RateLimiter.js"
import { makeMcpServer, type McpServices } from "./McpServerFactory.js"
import { mcpChallenge, presentedCredentials, PublicUrl } from "./ProtectedResource.js"
import { McpAllowedSources, rebindingRefusal } from "./DnsRebindingGuard.js"

/** MCP requests allowed per site credential (MCP_RATE_LIMIT) per window (MCP_RATE_WINDOW_MS). */
export const McpRateLimit = Config.all({
  mcpRateLimit: Config.integer("MCP_RATE_LIMIT").pipe(Config.withDefault(600)),
  mcpRateWindowMs: Config.integer("MCP_RATE_WINDOW_MS").pipe(Config.withDefault(60_000))
}).pipe(
  Config.validate({
    message: "MCP_RATE_LIMIT and MCP_RATE_WINDOW_MS must be positive",
    validation: ({ mcpRateLimit, mcpRateWindowMs }) => mcpRateLimit > 0 && mcpRateWindowMs > 0
  })
)

const rpcError = (
  status: number,
  code: number,
  message: string,
  options: {
    readonly headers?: Record<string, string>
    readonly id?: string | number | null
    readonly data?: unknown
  } = {}
) =>
  HttpServerResponse.unsafeJson(
    {
      jsonrpc: "2.0",
      id: options.id ?? null,
      error: { code, message, ...(options.data === undefined ? {} : { data: options.data }) }
    },
    { status, headers: options.headers ?? {} }
  )

/** The id of a single JSON-RPC request in the body, so even an HTTP-level refusal answers it; null otherwise. */
const messageId = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(Effect.either(request.json), (body) => {
    if (Either.isLeft(body) || typeof body.right !== "object" || body.right === null || Array.isArray(body.right))
      return null
    const id = (body.right as { readonly id?: unknown }).id
    return typeof id === "string" || typeof id === "number" ? id : null
  })

/**
 * POST /mcp: MCP over Streamable HTTP, stateless — every request gets a fresh server and
 * transport, so any api replica can answer any request. Auth and the per-credential rate
 * limit run before the JSON-RPC message is looked at. Credentials come in the Authorization
 * header or, for hosts that can only be given a URL, as a read-only token in `access_token`.
 */
export const McpRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const auth = yield* Auth
    const limiter = yield* RateLimiter
    const config = yield* McpRateLimit
    const allowedSources = yield* McpAllowedSources
    const publicUrl = yield* PublicUrl
    // Tools run the same service code as the REST handlers, with the services of this process.
    const runtime = yield* Effect.runtime<McpServices>()

    const handle = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const refusal = rebindingRefusal(request, allowedSources)
        if (refusal !== undefined) return rpcError(403, -32000, refusal, { id: yield* messageId(request) })
        const credentials = presentedCredentials(request)
        if (credentials._tag === "ambiguous") {
          return rpcError(
            400,
            -32600,
            "invalid request: send the credentials once, in the Authorization header or as access_token, not both",
            { id: yield* messageId(request) }
          )
        }
        const authenticated = yield* Effect.either(auth.authenticate(credentials.authorization))
        if (Either.isLeft(authenticated)) {
          return rpcError(401, -32001, `unauthorized: ${authenticated.left.message}`, {
            id: yield* messageId(request),
            headers: { "www-authenticate": mcpChallenge(request, publicUrl) }
          })
        }
        const principal = authenticated.right

        const decision = yield* consumeFailingOpen(
          limiter,
          `mcp:${principal.siteId}:${principal.subject}`,
          config.mcpRateLimit,
          config.mcpRateWindowMs
        )
        if (decision !== null && !decision.allowed) {
          const seconds = retryAfterSeconds(decision)
          // Agents read the JSON-RPC error, not HTTP headers: the wait is in `data` too.
          return rpcError(
            429,
            -32029,
            `rate limit exceeded: ${config.mcpRateLimit} requests per ${config.mcpRateWindowMs / 1000} s; ` +
              `retry after ${seconds} s`,
            {
              headers: { "retry-after": String(seconds) },
              id: yield* messageId(request),
              data: { retryAfterSeconds: seconds }
            }
          )
        }

        const body = yield* Effect.either(request.json)
        if (Either.isLeft(body)) return rpcError(400, -32700, "parse error: the body must be a JSON-RPC message")

        const server = makeMcpServer(principal, runtime)
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true
        })
        const response = yield* Effect.acquireUseRelease(
          Effect.promise(() => server.connect(transport)),
          () =>
            Effect.promise(async () => {
              const web = new Request("http://mcp.local/mcp", {
                method: "POST",
                headers: request.headers as Record<string, string>,
                body: JSON.stringify(body.right)
              })
              const res = await transport.handleRequest(web, { parsedBody: body.right })
              return { status: res.status, text: await res.text(), contentType: res.headers.get("content-type") }
            }),
          () => Effect.promise(() => server.close())
        )
        return response.text.length === 0
          ? HttpServerResponse.empty({ status: response.status })
          : HttpServerResponse.text(response.text, {
              status: response.status,
              contentType: response.contentType ?? "application/json"
            })
      })

    yield* router.add("POST", "/mcp", handle)
    // Stateless: no server-initiated stream to open and no session to delete.
    const notAllowed = Effect.succeed(
      rpcError(405, -32000, "method not allowed: this MCP endpoint is stateless; use POST", {
        headers: { allow: "POST" }
      })
    )
    yield* router.add("GET", "/mcp", notAllowed)
    yield* router.add("DELETE", "/mcp", notAllowed)
  })
)
