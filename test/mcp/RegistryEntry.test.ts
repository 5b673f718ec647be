import { describe, expect, it } from "vitest"
import type { Site } from "../../src/domain/Site.js"
import { registryEntry } from "../../src/mcp/RegistryEntry.js"

const site = { id: 3, name: "Garden Shop" } as Site

describe("MCP registry entry", () => {
  it("names the shop's domain reversed and points both remotes at its /mcp with the read-only token", () => {
    const entry = registryEntry(site, "https://shop.example.com/", "eyJ.token.sig")!
    expect(entry.name).toBe("com.example.shop/catalog")
    expect(entry.description.length).toBeLessThanOrEqual(100)
    expect(entry.remotes[0]).toEqual({
      type: "streamable-http",
      url: "https://shop.example.com/mcp",
      headers: [expect.objectContaining({ name: "Authorization", value: "Bearer eyJ.token.sig", isRequired: true })]
    })
    expect(entry.remotes[1]).toEqual({
      type: "streamable-http",
      url: "https://shop.example.com/mcp?access_token=eyJ.token.sig"
    })
  })

  it("keeps a path prefix the shop serves the service under", () => {
    expect(registryEntry(site, "https://example.com/search", "t")!.remotes[0].url).toBe(
      "https://example.com/search/mcp"
    )
  })

  it("refuses URLs the registry cannot verify or hosts cannot trust", () => {
    for (const url of ["http://shop.example.com", "https://10.0.0.1", "https://localhost", "not a url"]) {
      expect(registryEntry(site, url, "t"), url).toBeUndefined()
    }
  })
})
