import { HttpServer } from "@effect/platform"
import { Context, Effect, Exit, Layer, Logger, LogLevel, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { App } from "../../src/App.js"
import { settings } from "./Settings.js"
import type { Campaign, Site } from "../../src/domain/Site.js"
import { mintReadToken } from "../../src/services/auth/ReadToken.js"
import { basicAuthorization, createSite, putCampaign, replaceSite } from "../../src/services/site-registry/SiteAdmin.js"
import { writeSitesFile } from "../../src/services/site-registry/SitesStore.js"

export interface TestSite {
  readonly site: Site
  /** Authorization header values. */
  readonly basic: string
  readonly bearer: string
}

export interface TestServer {
  readonly baseUrl: string
  readonly dir: string
  readonly sitesFile: string
  readonly siteA: TestSite
  readonly siteB: TestSite
  readonly close: () => Promise<void>
}

/** Writes a registry with two sites (for isolation tests); extra campaigns go to site A. */
export const writeTestSites = async (sitesFile: string, campaigns: ReadonlyArray<Campaign> = []) => {
  const a = await Effect.runPromise(createSite({ sites: [] }, "site-a"))
  const b = await Effect.runPromise(createSite(a.file, "site-b"))
  let siteA = a.site
  for (const c of campaigns) siteA = putCampaign(siteA, c)
  const file = replaceSite(b.file, siteA)
  await Effect.runPromise(writeSitesFile(sitesFile, file))
  const describe = async (site: Site, issued: { username: string; password: string }): Promise<TestSite> => ({
    site,
    basic: basicAuthorization(issued),
    bearer: `Bearer ${await mintReadToken(site, 3600)}`
  })
  return { siteA: await describe(siteA, a.issued), siteB: await describe(b.site, b.issued) }
}

/** The real api process's layers, listening on a random loopback port, with its own data dir. */
export const startTestServer = async (
  options: { readonly campaigns?: ReadonlyArray<Campaign>; readonly dir?: string; readonly config?: Readonly<Record<string, string | number | boolean | undefined>> } = {}
): Promise<TestServer> => {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "commerce-test-"))
  const sitesFile = path.join(dir, "sites.json")
  const sites = await writeTestSites(sitesFile, options.campaigns)
  const config = settings({ DATA_DIR: path.join(dir, "data"), SITES_FILE: sitesFile, HOST: "127.0.0.1", PORT: 0, EMBED_THREADS: 1, ...options.config })
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(App.pipe(Layer.provide(config), Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))), scope)
  )
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}`
  await waitUntilReady(baseUrl)
  return {
    baseUrl,
    dir,
    sitesFile,
    ...sites,
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

export const waitUntilReady = async (baseUrl: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const ok = await fetch(`${baseUrl}/readyz`).then((r) => r.ok, () => false)
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server at ${baseUrl} not ready after ${timeoutMs} ms`)
}

/** JSON request helper: returns status, headers and parsed body. */
export const call = async (baseUrl: string, method: string, urlPath: string, options: { auth?: string; body?: unknown; rawBody?: string } = {}) => {
  const headers: Record<string, string> = {}
  if (options.auth) headers["authorization"] = options.auth
  let body: string | undefined
  if (options.rawBody !== undefined) body = options.rawBody
  else if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined) headers["content-type"] = "application/json"
  const res = await fetch(baseUrl + urlPath, { method, headers, body })
  const text = await res.text()
  let json: any = undefined
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined
  } catch {
    json = text
  }
  return { status: res.status, headers: res.headers, body: json }
}

/** Polls until `check` passes (indexing is asynchronous by design). */
export const eventually = async <A>(check: () => Promise<A>, timeoutMs = 20_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      return await check()
    } catch (e) {
      last = e
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  throw last
}
