import { execFile } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Effect, Either, Option } from "effect"
import { decodeJwt } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/services/auth/Auth.js"
import { EmbeddedAuth } from "../../src/services/auth/EmbeddedAuth.js"
import { EmbeddedSiteRegistry } from "../../src/services/site-registry/EmbeddedSiteRegistry.js"
import { readSitesFile } from "../../src/services/site-registry/SitesStore.js"
import { Sqlite } from "../../src/platform/Sqlite.js"
import { EmbeddedMerchandisingStore } from "../../src/services/merchandising/EmbeddedMerchandisingStore.js"
import { MerchandisingStore } from "../../src/services/merchandising/MerchandisingStore.js"
import { settings } from "../support/Settings.js"

let dir: string
let sitesFile: string
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "site-cli-"))
  sitesFile = path.join(dir, "sites.json")
})
afterAll(() => fs.rm(dir, { recursive: true, force: true }))

const tsx = path.resolve("node_modules/.bin/tsx")
const cli = (...args: Array<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      tsx,
      ["src/cli/site.ts", ...args],
      { env: { ...process.env, SITES_FILE: sitesFile, DATA_DIR: path.join(dir, "data"), REDIS_URL: "" } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr })
    )
  })

/** Authenticates against what the CLI left on disk, as a freshly started server would. */
const authenticate = async (header: string) => {
  const file = Option.getOrThrow(await Effect.runPromise(readSitesFile(sitesFile)))
  return Effect.runPromise(
    Effect.flatMap(Auth, (a) => a.authenticate(header)).pipe(
      Effect.either,
      Effect.provide(EmbeddedAuth.layer),
      Effect.provide(EmbeddedSiteRegistry.fromSites(file.sites))
    )
  )
}
const header = (output: string, scheme: "Basic" | "Bearer") =>
  new RegExp(`Authorization: (${scheme} \\S+)`).exec(output)![1]

describe("npm run site", () => {
  let basic: string
  let bearer: string

  it("add prints a new site's id, Basic credentials and a read-only token that authenticate", async () => {
    const first = await cli("add", "--name", "Shop One")
    expect(first.code).toBe(0)
    const second = await cli("add", "--name", "Shop Two")
    expect(second.stdout).toMatch(/^Site 2 \(Shop Two\)/)
    basic = header(second.stdout, "Basic")
    bearer = header(second.stdout, "Bearer")
    expect(Either.getOrThrow(await authenticate(basic))).toMatchObject({ siteId: 2, scope: "site" })
    expect(Either.getOrThrow(await authenticate(bearer))).toMatchObject({ siteId: 2, scope: "read" })
    expect((await cli("list")).stdout).toMatch(/^1\tShop One.*\n2\tShop Two/)
  })

  it("add-credential adds a working username:password and keeps the old one", async () => {
    const { code, stdout } = await cli("add-credential", "--site", "2")
    expect(code).toBe(0)
    const [, pair] = /^\s+(s2-\S+:\S+)$/m.exec(stdout)!
    expect(Either.isRight(await authenticate(`Basic ${Buffer.from(pair).toString("base64")}`))).toBe(true)
    expect(Either.isRight(await authenticate(basic))).toBe(true)
  })

  it("mint-token honours --ttl and rotate-secret revokes earlier tokens", async () => {
    const minted = await cli("mint-token", "--site", "2", "--ttl", "12h")
    const token = minted.stdout.trim()
    const { exp, iat } = decodeJwt(token)
    expect(exp! - iat!).toBe(43200)

    const rotated = await cli("rotate-secret", "--site", "2")
    expect(rotated.code).toBe(0)
    expect(Either.isLeft(await authenticate(`Bearer ${token}`))).toBe(true)
    expect(Either.isLeft(await authenticate(bearer))).toBe(true)
    expect(Either.isRight(await authenticate(header(rotated.stdout, "Bearer")))).toBe(true)
  })

  it("set-campaign validates the file and then adds the campaign", async () => {
    const campaignFile = path.join(dir, "campaign.json")
    await fs.writeFile(campaignFile, JSON.stringify({ id: 4, resultsCount: 5000 }))
    const rejected = await cli("set-campaign", "--site", "1", "--file", campaignFile)
    expect(rejected.code).toBe(1)
    expect(rejected.stderr).toMatch(/resultsCount: Expected a number between 1 and 1000/)

    await fs.writeFile(
      campaignFile,
      JSON.stringify({ id: 4, resultsCount: 12, pins: [{ query: "Red Shoes", productIds: ["p"] }] })
    )
    expect((await cli("set-campaign", "--site", "1", "--file", campaignFile)).code).toBe(0)
    // Written as PUT /campaigns/4 writes it: into the catalog store, the sites file's campaigns copied in first.
    const stored = await Effect.runPromise(
      Effect.flatMap(MerchandisingStore, (store) => store.all(1, "campaign")).pipe(
        Effect.provide(EmbeddedMerchandisingStore.layer),
        Effect.provide(Sqlite.layer),
        Effect.provide(settings({ DATA_DIR: path.join(dir, "data") }))
      )
    )
    expect(stored.map((e) => e.value)).toEqual([
      { id: 0, name: "default", resultsCount: 100 },
      { id: 4, resultsCount: 12, pins: [{ query: "red shoes", productIds: ["p"] }] }
    ])
    // The sites file keeps its own.
    const site = Option.getOrThrow(await Effect.runPromise(readSitesFile(sitesFile))).sites[0]
    expect(site.campaigns.map((c) => c.id)).toEqual([0])
    expect((await cli("list")).stdout).toContain("campaigns: 0, 4 (default 0)")
  })

  it("fails on bad input with a clear message and exit code 1", async () => {
    const cases: Array<[Array<string>, RegExp]> = [
      [["frobnicate"], /unknown command "frobnicate"/],
      [["add"], /--name <name> is required/],
      [["mint-token", "--site", "9"], /no site 9/],
      [["mint-token", "--site", "1", "--ttl", "soon"], /--ttl must look like/],
      [["add-credential", "--site", "x"], /--site must be a positive integer/],
      [["list", "--color"], /Unknown option '--color'/]
    ]
    // Concurrently: each run pays tsx's start-up, and none of them writes the file.
    const results = await Promise.all(cases.map(([args]) => cli(...args)))
    results.forEach(({ code, stderr }, i) => {
      expect(code).toBe(1)
      expect(stderr).toMatch(cases[i][1])
    })
  })
})
