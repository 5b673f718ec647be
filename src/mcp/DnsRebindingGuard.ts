import { NodeHttpServerRequest } from "@effect/platform-node"
import type { HttpServerRequest } from "@effect/platform"
import { Config } from "effect"

/**
 * MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS (comma-separated): the Host names (any port) and
 * browser origins /mcp accepts besides its own. See `rebindingRefusal`.
 */
export const McpAllowedSources = Config.all({
  hosts: Config.array(Config.string(), "MCP_ALLOWED_HOSTS").pipe(Config.withDefault([] as Array<string>)),
  origins: Config.array(Config.string(), "MCP_ALLOWED_ORIGINS").pipe(Config.withDefault([] as Array<string>))
})
export type McpAllowedSources = Config.Config.Success<typeof McpAllowedSources>

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"])

/** The name part of a Host header value ("shop.example.com:8080" → "shop.example.com", "[::1]:80" → "::1"). */
const hostName = (host: string): string => {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host)
  if (bracketed !== null) return bracketed[1].toLowerCase()
  return host.replace(/:\d+$/, "").replace(/\.$/, "").toLowerCase()
}

const isLoopbackAddress = (address: string | undefined): boolean =>
  address !== undefined && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."))

/**
 * Why a request to /mcp is refused as a possible DNS rebinding (the transport spec's MUST on
 * Origin), or undefined. A web page can make a victim's browser send requests to a service on
 * the victim's own machine under the page's host name; so:
 * - a request that arrived over loopback must name a loopback host (localhost, 127.0.0.1,
 *   [::1]) or one listed in MCP_ALLOWED_HOSTS (a reverse proxy on the same machine passing the
 *   public name must list it);
 * - any request's Host must be listed when MCP_ALLOWED_HOSTS is set;
 * - a browser's Origin must be the service's own (same host as the Host header) or listed in
 *   MCP_ALLOWED_ORIGINS. Clients that are not browsers send no Origin.
 */
export const rebindingRefusal = (
  request: HttpServerRequest.HttpServerRequest,
  allowed: McpAllowedSources
): string | undefined => {
  const host = request.headers.host ?? ""
  const name = hostName(host)
  const listed = allowed.hosts.some((h) => hostName(h) === name)
  const overLoopback = isLoopbackAddress(NodeHttpServerRequest.toIncomingMessage(request).socket.localAddress)
  if (overLoopback && !LOOPBACK_NAMES.has(name) && !listed) {
    return (
      `forbidden: host "${host}" is not this service's (a local connection must name localhost, or a ` +
      `host in MCP_ALLOWED_HOSTS)`
    )
  }
  if (allowed.hosts.length > 0 && !listed && !(overLoopback && LOOPBACK_NAMES.has(name))) {
    return `forbidden: host "${host}" is not in MCP_ALLOWED_HOSTS`
  }
  const origin = request.headers.origin
  if (origin === undefined || allowed.origins.includes(origin)) return undefined
  let originHost: string
  try {
    originHost = new URL(origin).host
  } catch {
    return `forbidden: origin "${origin}" is not a URL`
  }
  return originHost.toLowerCase() === host.toLowerCase()
    ? undefined
    : `forbidden: origin "${origin}" is not this service's (allow it with MCP_ALLOWED_ORIGINS)`
}
