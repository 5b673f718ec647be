import { isIP } from "node:net"
import type { Site } from "../domain/Site.js"
import { ACCESS_TOKEN_PARAMETER } from "./ProtectedResource.js"

/** Published entries outlive a session: a year, renewed by publishing again (or rotate the secret to revoke). */
export const REGISTRY_TOKEN_TTL_SECONDS = 365 * 24 * 3600

const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

/**
 * A shop's MCP registry entry (server.json, the registry's 2025-12-11 schema) for the /mcp of
 * this service under the shop's own domain, a read-only token pre-filled (spec, Authentication
 * item 6). The name is the domain reversed ("shop.example.com" → "com.example.shop/catalog"),
 * the namespace the registry verifies by a DNS TXT record on that domain. Two remotes: the
 * token in the Authorization header, and the same token in the URL for hosts that can only be
 * given a URL. The token is read-only and meant to be public; undefined when the URL is not an
 * https URL of a domain name.
 */
export const registryEntry = (site: Site, shopUrl: string, token: string) => {
  let url: URL
  try {
    url = new URL(shopUrl)
  } catch {
    return undefined
  }
  // The registry verifies a domain by DNS: not an address, not a single-label name.
  if (url.protocol !== "https:" || isIP(url.hostname.replace(/^\[|\]$/g, "")) !== 0 || !url.hostname.includes("."))
    return undefined
  const endpoint = `${url.origin}${url.pathname.replace(/\/+$/, "")}/mcp`
  const namespace = url.hostname.toLowerCase().split(".").reverse().join(".")
  return {
    $schema: SCHEMA,
    name: `${namespace}/catalog`,
    title: `${site.name} catalog`,
    description: `Search, recommendations and product records of ${site.name} (read-only).`.slice(0, 100),
    version: "1.0.0",
    websiteUrl: url.origin,
    remotes: [
      {
        type: "streamable-http",
        url: endpoint,
        headers: [
          {
            name: "Authorization",
            description: "The shop's read-only token: search and recommendation tools only.",
            value: `Bearer ${token}`,
            isRequired: true,
            isSecret: false
          }
        ]
      },
      { type: "streamable-http", url: `${endpoint}?${ACCESS_TOKEN_PARAMETER}=${token}` }
    ]
  }
}
