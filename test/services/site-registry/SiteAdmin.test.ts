import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { hashPassword, verifyPassword } from "../../../src/services/site-registry/Password.js"
import { parseTtl } from "../../../src/services/site-registry/ReadToken.js"
import {
  addCredential,
  createSite,
  putCampaign,
  rotateTokenSecret
} from "../../../src/services/site-registry/SiteAdmin.js"

const run = Effect.runPromise

describe("passwords", () => {
  it("verify only the password they were hashed from", async () => {
    const hash = await run(hashPassword("correct horse"))
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/)
    expect(await run(verifyPassword("correct horse", hash))).toBe(true)
    expect(await run(verifyPassword("correct horsE", hash))).toBe(false)
    expect(await run(verifyPassword("correct horse", "md5$abc"))).toBe(false)
  })
})

describe("site administration", () => {
  it("creates sites with increasing ids, a default campaign and a working credential", async () => {
    const first = await run(createSite({ sites: [] }, "A"))
    const second = await run(createSite(first.file, "B"))
    expect(second.file.sites.map((s) => s.id)).toEqual([1, 2])
    expect(second.site.campaigns).toEqual([{ id: 0, name: "default", resultsCount: 100 }])
    expect(second.site.defaultCampaign).toBe(0)
    expect(second.issued.username.startsWith("s2-")).toBe(true)
    const stored = second.site.credentials[0]
    expect(stored.passwordHash).not.toContain(second.issued.password)
    expect(await run(verifyPassword(second.issued.password, stored.passwordHash))).toBe(true)
  })

  it("adds a second credential with a distinct username and keeps the first", async () => {
    const { site } = await run(createSite({ sites: [] }, "A"))
    const more = await run(addCredential(site))
    expect(more.site.credentials).toHaveLength(2)
    expect(more.site.credentials[0]).toEqual(site.credentials[0])
    expect(more.issued.username).not.toBe(site.credentials[0].username)
  })

  it("rotates the token secret and counts the rotation", async () => {
    const { site } = await run(createSite({ sites: [] }, "A"))
    const rotated = rotateTokenSecret(site)
    expect(rotated.tokenSecret).not.toBe(site.tokenSecret)
    expect(Buffer.from(rotated.tokenSecret, "base64")).toHaveLength(32)
    expect(rotated.tokenSecretVersion).toBe(2)
  })

  it("replaces a campaign with the same id and appends a new one", async () => {
    const { site } = await run(createSite({ sites: [] }, "A"))
    const replaced = putCampaign(site, { id: 0, resultsCount: 7 })
    expect(replaced.campaigns).toEqual([{ id: 0, resultsCount: 7 }])
    const added = putCampaign(replaced, { id: 3, resultsCount: 9 })
    expect(added.campaigns.map((c) => c.id)).toEqual([0, 3])
  })
})

describe("parseTtl", () => {
  it.each([
    ["3600", 3600],
    ["45s", 45],
    ["15m", 900],
    ["12h", 43200],
    ["30d", 2592000]
  ])("%s -> %i", (text, seconds) => {
    expect(parseTtl(text)).toBe(seconds)
  })
  it.each(["", "0", "-5", "3w", "1.5h"])("rejects %j", (text) => {
    expect(parseTtl(text)).toBeUndefined()
  })
})
