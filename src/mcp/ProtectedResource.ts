import { HttpLayerRouter, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Config, Effect, Option } from "effect"

/**
 * PUBLIC_URL: the address clients reach the service at ("https://shop.example.com"), for the
 * URLs the service announces about itself (protected resource metadata, WWW-Authenticate).
 * Unset: taken from each request's Host (and X-Forwarded-Proto).
 */
export const PublicUrl = Config.option(Config.string("PUBLIC_URL")).pipe(
  Config.map(Option.map((url) => url.replace(/\/+$/, ""))),
  Config.validate({
    message: "PUBLIC_URL must be an absolute http(s) URL without a query",
    validation: Option.match({ onNone: () => true, onSome: (url) => /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(url) })
  })
)

/** Where RFC 9728 metadata about /mcp lives: the well-known prefix inserted before the resource's path. */
export const METADATA_PATH = "/.well-known/oauth-protected-resource"
const MCP_METADATA_PATH = `${METADATA_PATH}/mcp`

/** The query parameter a host that cannot set headers passes the read-only token in (RFC 6750 §2.3). */
export const ACCESS_TOKEN_PARAMETER = "access_token"

const baseUrl = (request: HttpServerRequest.HttpServerRequest, publicUrl: Option.Option<string>): string =>
  Option.getOrElse(publicUrl, () => {
    const forwarded = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim().toLowerCase()
    return `${forwarded === "https" ? "https" : "http"}://${request.headers.host ?? "localhost"}`
  })

/**
 * The challenge of a 401 from /mcp: both accepted schemes (spec, Authentication rule 5), the
 * Bearer one pointing at the resource metadata (MCP authorization, RFC 9728 §5.1).
 */
export const mcpChallenge = (request: HttpServerRequest.HttpServerRequest, publicUrl: Option.Option<string>): string =>
  `Bearer realm="commerce-search", resource_metadata="${baseUrl(request, publicUrl)}${MCP_METADATA_PATH}", ` +
  `Basic realm="commerce-search"`

/**
 * The credentials of an /mcp request: the Authorization header, or a read-only token in the
 * `access_token` query parameter for hosts that can only be given a URL (a registry entry, a
 * conformance runner). Only Bearer tokens travel in a URL: they are read-only and meant to be
 * published; site credentials can change the catalog and stay in the header. Both at once is
 * ambiguous and refused (RFC 6750 §2: one method per request).
 */
export const presentedCredentials = (
  request: HttpServerRequest.HttpServerRequest
): { readonly _tag: "credentials"; readonly authorization: string | undefined } | { readonly _tag: "ambiguous" } => {
  const header = request.headers.authorization
  const query = request.url.indexOf("?")
  const token = query < 0 ? null : new URLSearchParams(request.url.slice(query + 1)).get(ACCESS_TOKEN_PARAMETER)
  if (token === null) return { _tag: "credentials", authorization: header }
  if (header !== undefined) return { _tag: "ambiguous" }
  return { _tag: "credentials", authorization: `Bearer ${token}` }
}

/** A URL as logs show it: an access token in the query is replaced, never written down. */
export const loggableUrl = (url: string): string =>
  url.replace(new RegExp(`([?&]${ACCESS_TOKEN_PARAMETER}=)[^&#]*`, "g"), "$1[redacted]")

/**
 * GET /.well-known/oauth-protected-resource[/mcp]: OAuth 2.0 Protected Resource Metadata
 * (RFC 9728) for /mcp, as the MCP authorization specification asks of a resource server. The
 * service issues its own read-only tokens (`npm run site -- mint-token`) and runs no
 * authorization server, so none is listed: a host learns that a Bearer token goes in the
 * header or the `access_token` query parameter, and where the documentation is.
 */
export const ProtectedResourceRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const publicUrl = yield* PublicUrl
    const metadata = (request: HttpServerRequest.HttpServerRequest) => {
      const base = baseUrl(request, publicUrl)
      return HttpServerResponse.unsafeJson(
        {
          resource: `${base}/mcp`,
          resource_name: "commerce-search MCP endpoint",
          bearer_methods_supported: ["header", "query"],
          resource_documentation: `${base}/docs`
        },
        { headers: { "cache-control": "public, max-age=3600" } }
      )
    }
    yield* router.add("GET", METADATA_PATH, (request) => Effect.succeed(metadata(request)))
    yield* router.add("GET", MCP_METADATA_PATH, (request) => Effect.succeed(metadata(request)))
  })
)
