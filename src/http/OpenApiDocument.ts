/**
 * What /openapi.json says beyond what the endpoint schemas generate: who may call each
 * operation (so Swagger UI's Authorize works with either scheme), the documented error shapes
 * (the wire drops Effect's `_tag`, and a decode error is `{message, issues}`), and the
 * endpoints served outside the HttpApi (/mcp and the protected resource metadata).
 */

/** Operations only site (Basic) credentials may call: set with OpenApi.Override on the endpoint. */
export const siteCredentialsOnly = { security: [{ basic: [] }] }

const readOrSite = [{ bearer: [] }, { basic: [] }]

const securitySchemes = {
  basic: {
    type: "http",
    scheme: "basic",
    description:
      "Site credentials (`npm run site -- add-credential`): every operation of the site, including catalog changes."
  },
  bearer: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A read-only token (`npm run site -- mint-token`): search, recommendations and reads; meant to be published."
  },
  accessToken: {
    type: "apiKey",
    in: "query",
    name: "access_token",
    description: "The read-only token in the URL, for MCP hosts that cannot set headers (/mcp only)."
  }
}

const message = { type: "string", description: "what went wrong, naming the field and rule where there is one" }

/** A decode error as finalize() in ResponsePolicy writes it. */
const DecodeError = {
  type: "object",
  required: ["message", "issues"],
  properties: {
    message,
    issues: {
      type: "array",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: {
          path: {
            type: "array",
            items: { anyOf: [{ type: "string" }, { type: "integer" }] },
            description: "where in the body"
          },
          message: { type: "string", description: "the rule the value broke" }
        }
      }
    }
  },
  description: "The body or parameters broke the schema."
}

const jsonRpcError = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["jsonrpc", "id", "error"],
        properties: {
          jsonrpc: { type: "string", enum: ["2.0"] },
          id: { anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] },
          error: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "integer" }, message: { type: "string" }, data: {} }
          }
        }
      }
    }
  }
})

const mcpPath = {
  post: {
    tags: ["mcp"],
    operationId: "mcp.message",
    summary: "Model Context Protocol (Streamable HTTP, stateless)",
    description:
      "One JSON-RPC 2.0 message per request (initialize, tools/list, tools/call, ping ...), answered as JSON. " +
      "Read-only tokens reach the search and catalog tools; memory tools need site credentials. " +
      "See docs/api.md, section POST /mcp.",
    security: [...readOrSite, { accessToken: [] }],
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["jsonrpc", "method"],
            properties: {
              jsonrpc: { type: "string", enum: ["2.0"] },
              id: { anyOf: [{ type: "string" }, { type: "integer" }] },
              method: { type: "string", examples: ["tools/list"] },
              params: { type: "object" }
            }
          }
        }
      }
    },
    responses: {
      "200": {
        description: "The JSON-RPC response (a result, or an error such as -32602 invalid arguments, -32003 forbidden)",
        content: { "application/json": { schema: { type: "object" } } }
      },
      "202": { description: "A notification was accepted" },
      "400": jsonRpcError("Not a JSON-RPC message, or credentials given twice"),
      "401": jsonRpcError("Missing or invalid credentials (-32001); WWW-Authenticate names the resource metadata"),
      "403": jsonRpcError("Host or Origin refused (DNS rebinding protection)"),
      "429": jsonRpcError(
        "Rate limit exceeded (-32029); Retry-After and error.data.retryAfterSeconds say when to retry"
      )
    }
  }
}

const protectedResourcePath = {
  get: {
    tags: ["ops"],
    operationId: "ops.protectedResource",
    summary: "OAuth protected resource metadata of /mcp (RFC 9728)",
    security: [],
    responses: {
      "200": {
        description: "Where /mcp is and how a bearer token may be presented",
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["resource", "bearer_methods_supported"],
              properties: {
                resource: { type: "string", format: "uri" },
                resource_name: { type: "string" },
                bearer_methods_supported: { type: "array", items: { type: "string", enum: ["header", "query"] } },
                resource_documentation: { type: "string", format: "uri" }
              }
            }
          }
        }
      }
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the generated document is walked and rewritten key by key
type Json = Record<string, any>

/** Drops `_tag` from every object schema that declares it: error bodies on the wire carry no tag. */
const withoutTags = (schema: Json): Json => {
  if (schema.properties?._tag !== undefined) {
    const { _tag: _, ...properties } = schema.properties
    schema.properties = properties
    if (Array.isArray(schema.required)) schema.required = schema.required.filter((r: string) => r !== "_tag")
  }
  return schema
}

/** The OpenApi.Transform of CommerceApi. */
export const completeDocument = (spec: Json): Json => {
  spec.components.securitySchemes = securitySchemes
  for (const operations of Object.values(spec.paths as Record<string, Json>)) {
    for (const operation of Object.values(operations)) {
      // Operations behind the Authentication middleware answer 401; they take either scheme
      // unless the endpoint said otherwise (siteCredentialsOnly).
      const generatedEmpty = Array.isArray(operation.security) && operation.security.length === 0
      if (generatedEmpty && operation.responses?.["401"] !== undefined) operation.security = readOrSite
    }
  }
  const schemas = spec.components.schemas as Json
  for (const schema of Object.values(schemas)) withoutTags(schema)
  schemas.HttpApiDecodeError = DecodeError
  delete schemas.Issue
  delete schemas.PropertyKey
  spec.paths["/mcp"] = mcpPath
  spec.paths["/.well-known/oauth-protected-resource"] = protectedResourcePath
  spec.tags.push({
    name: "mcp",
    description: "The agents' endpoint: MCP tools over the same services as the REST API, plus conversation memory."
  })
  return spec
}
