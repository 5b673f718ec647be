/**
 * The real api (src/App.ts) in this process on a random loopback port with its own temp data
 * dir, as test/support/TestServer.ts does, but with the production embedding thread count.
 */
import { HttpServer } from "@effect/platform"
import { Context, Effect, Exit, Layer, Logger, LogLevel, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { App } from "../../src/App.js"
import { settingsOverEnv } from "../../test/support/Settings.js"
import type { Campaign } from "../../src/domain/Site.js"
import { mintReadToken } from "../../src/services/auth/ReadToken.js"
import { basicAuthorization, createSite, putCampaign, replaceSite } from "../../src/services/site-registry/SiteAdmin.js"
import { writeSitesFile } from "../../src/services/site-registry/SitesStore.js"

/** The services of the running api, for work the bench does behind its HTTP interface. */
export type AppServices = Layer.Layer.Success<typeof App>

export interface BenchServer {
  readonly baseUrl: string
  readonly dir: string
  /** The site the credentials below belong to. */
  readonly siteId: number
  readonly basic: string
  readonly bearer: string
  /** Runs an effect against the api's own services (store, index, analyser), in this process. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, AppServices>) => Promise<A>
  readonly close: () => Promise<void>
}

export const startBenchServer = async (options: {
  readonly embedThreads: number
  readonly defaultCampaign?: Campaign
  readonly keepDir?: boolean
  /** More settings by their environment names (config/settings.env), over the environment. */
  readonly settings?: Readonly<Record<string, string | number | undefined>>
}): Promise<BenchServer> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-bench-"))
  const sitesFile = path.join(dir, "sites.json")
  const a = await Effect.runPromise(createSite({ sites: [] }, "bench-shop"))
  const b = await Effect.runPromise(createSite(a.file, "other-shop"))
  const site = options.defaultCampaign ? putCampaign(a.site, options.defaultCampaign) : a.site
  await Effect.runPromise(writeSitesFile(sitesFile, replaceSite(b.file, site)))
  const config = settingsOverEnv({
    DATA_DIR: path.join(dir, "data"),
    SITES_FILE: sitesFile,
    HOST: "127.0.0.1",
    PORT: 0,
    EMBED_THREADS: options.embedThreads,
    // The MCP part of the bench measures latency, not the rate limiter.
    MCP_RATE_LIMIT: 1_000_000,
    ...options.settings
  })
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(App.pipe(Layer.provide(config), Layer.provide(Logger.minimumLogLevel(LogLevel.Error))), scope)
  )
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const baseUrl = `http://127.0.0.1:${address.port}`
  return {
    baseUrl,
    dir,
    siteId: site.id,
    basic: basicAuthorization(a.issued),
    bearer: `Bearer ${await mintReadToken(site, 24 * 3600)}`,
    run: (effect) => Effect.runPromise(Effect.provide(effect, context)),
    close: async () => {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      if (!options.keepDir) fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}
