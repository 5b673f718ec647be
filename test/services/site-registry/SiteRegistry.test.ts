import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Effect, Either, Layer, Logger, ManagedRuntime, Option } from "effect"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { settings } from "../../support/Settings.js"
import { Auth } from "../../../src/services/auth/Auth.js"
import { EmbeddedAuth } from "../../../src/services/auth/EmbeddedAuth.js"
import { mintReadToken } from "../../../src/services/site-registry/ReadToken.js"
import {
  addCredential,
  basicAuthorization,
  createSite,
  replaceSite,
  rotateTokenSecret
} from "../../../src/services/site-registry/SiteAdmin.js"
import { readSitesFile, writeSitesFile } from "../../../src/services/site-registry/SitesStore.js"
import { EmbeddedSiteRegistry } from "../../../src/services/site-registry/EmbeddedSiteRegistry.js"
import { SiteRegistry } from "../../../src/services/site-registry/SiteRegistry.js"
import { eventually } from "../../support/Eventually.js"

let dir: string
let sitesFile: string
let warnings: Array<string>
let runtime: ManagedRuntime.ManagedRuntime<Auth | SiteRegistry, unknown> | undefined

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "sites-"))
  sitesFile = path.join(dir, "config", "sites.json")
  warnings = []
})
afterEach(async () => {
  await runtime?.dispose()
  runtime = undefined
  vi.restoreAllMocks()
  await fs.rm(dir, { recursive: true, force: true })
})

const start = () => {
  const capture = Logger.make(({ logLevel, message }) => {
    if (logLevel._tag === "Warning") warnings.push(String(message))
  })
  runtime = ManagedRuntime.make(
    EmbeddedAuth.layer.pipe(
      Layer.provideMerge(EmbeddedSiteRegistry.layer),
      Layer.provide(settings({ DATA_DIR: dir, SITES_FILE: sitesFile })),
      Layer.provide(Logger.replace(Logger.defaultLogger, capture))
    )
  )
  return runtime
}
const run = <A, E>(effect: Effect.Effect<A, E, Auth | SiteRegistry>) => (runtime ?? start()).runPromise(effect)
const authenticate = (header: string) => run(Effect.flatMap(Auth, (a) => a.authenticate(header)).pipe(Effect.either))
const stored = async () => Option.getOrThrow(await Effect.runPromise(readSitesFile(sitesFile)))
const save = (file: Parameters<typeof writeSitesFile>[1]) => Effect.runPromise(writeSitesFile(sitesFile, file))

const generation = () => run(Effect.flatMap(SiteRegistry, (r) => r.generation))
/** Waits for the file watcher, which polls, to have reloaded the file. */
const reloaded = (before: number) => eventually(async () => expect(await generation()).toBeGreaterThan(before), 5000)

describe("first start", () => {
  it("creates a private sites file with a demo site and prints access that works", async () => {
    const printed: Array<string> = []
    vi.spyOn(console, "log").mockImplementation((...args) => void printed.push(args.join(" ")))
    const sites = await run(Effect.flatMap(SiteRegistry, (r) => r.all))
    expect(sites.map((s) => [s.id, s.defaultCampaign, s.campaigns])).toEqual([
      [1, 0, [{ id: 0, name: "default", resultsCount: 100 }]]
    ])
    expect((await fs.stat(sitesFile)).mode & 0o777).toBe(0o600)
    const output = printed.join("\n")
    const [, username, password] = /^\s+([^\s:]+):(\S+)$/m.exec(output)!
    const basic = /Authorization: (Basic \S+)/.exec(output)![1]
    const bearer = /Authorization: (Bearer \S+)/.exec(output)![1]
    expect(basic).toBe(basicAuthorization({ username, password }))
    expect(Either.getOrThrow(await authenticate(basic))).toMatchObject({ siteId: 1, scope: "site", subject: username })
    expect(Either.getOrThrow(await authenticate(bearer))).toMatchObject({ siteId: 1, scope: "read" })
  })

  it("keeps an existing file as it is and prints nothing", async () => {
    const { file } = await Effect.runPromise(createSite({ sites: [] }, "Mine"))
    await save(file)
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    expect((await run(Effect.flatMap(SiteRegistry, (r) => r.all))).map((s) => s.name)).toEqual(["Mine"])
    expect(log).not.toHaveBeenCalled()
  })
})

describe("campaign lookup", () => {
  const lookup = async (campaignId?: number) => {
    const { site } = await Effect.runPromise(createSite({ sites: [] }, "A"))
    const withCampaigns = {
      ...site,
      defaultCampaign: 5,
      campaigns: [
        { id: 0, resultsCount: 10 },
        { id: 5, resultsCount: 20 }
      ]
    }
    return Effect.runPromise(
      Effect.flatMap(SiteRegistry, (r) => r.campaign(site.id, campaignId)).pipe(
        Effect.either,
        Effect.provide(EmbeddedSiteRegistry.fromSites([withCampaigns]))
      )
    )
  }

  it("gives the default campaign when none is asked for, else the one asked for", async () => {
    expect(Either.getOrThrow(await lookup())).toEqual({ id: 5, resultsCount: 20 })
    expect(Either.getOrThrow(await lookup(0))).toEqual({ id: 0, resultsCount: 10 })
  })

  it("fails with BadRequest naming an unknown campaign", async () => {
    const result = await lookup(7)
    expect(Either.isLeft(result) && result.left._tag).toBe("BadRequest")
    expect(Either.isLeft(result) && result.left.message).toMatch(/unknown campaign 7/)
  })
})

describe("reloading", () => {
  it("applies edits made on disk and keeps the last good version when the file breaks", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {})
    const before = await generation()
    const added = await Effect.runPromise(createSite(await stored(), "Second"))
    await save(added.file)
    await reloaded(before)
    expect(Either.getOrThrow(await authenticate(basicAuthorization(added.issued)))).toMatchObject({ siteId: 2 })

    await fs.writeFile(sitesFile, '{ "sites": [')
    await eventually(() => expect(warnings).not.toHaveLength(0), 5000)
    expect(warnings[0]).toMatch(/invalid .*keeping the previous version/)
    expect((await run(Effect.flatMap(SiteRegistry, (r) => r.all))).map((s) => s.id)).toEqual([1, 2])
  })

  it("drops cached Basic verifications and old tokens when credentials or secrets change", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {})
    const before = await generation()
    const original = (await stored()).sites[0]
    const extra = await Effect.runPromise(addCredential(original))
    await save(replaceSite(await stored(), extra.site))
    await reloaded(before)
    const header = basicAuthorization(extra.issued)
    const token = await mintReadToken(extra.site, 60)
    expect(Either.isRight(await authenticate(header))).toBe(true)

    const revoked = rotateTokenSecret({ ...extra.site, credentials: original.credentials })
    await save(replaceSite(await stored(), revoked))
    await reloaded(before + 1)
    expect(Either.isLeft(await authenticate(header))).toBe(true)
    expect(Either.isLeft(await authenticate(`Bearer ${token}`))).toBe(true)
    expect(Either.isRight(await authenticate(`Bearer ${await mintReadToken(revoked, 60)}`))).toBe(true)
  })
})
