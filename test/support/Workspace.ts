import { Effect, type Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Campaign, Site } from "../../src/domain/Site.js"
import { mintReadToken } from "../../src/services/site-registry/ReadToken.js"
import { basicAuthorization, createSite, putCampaign, replaceSite } from "../../src/services/site-registry/SiteAdmin.js"
import { writeSitesFile } from "../../src/services/site-registry/SitesStore.js"
import { settings, settingsOverEnv, type SettingValues } from "./Settings.js"

export interface WorkspaceSite {
  readonly site: Site
  /** Authorization header values: Basic (full access) and a read-only Bearer token. */
  readonly basic: string
  readonly bearer: string
}

/** A throw-away home for the service: a data dir and a sites file with two sites, A and B. */
export interface Workspace {
  readonly dir: string
  readonly dataDir: string
  readonly sitesFile: string
  readonly siteA: WorkspaceSite
  /** A second site, so isolation between sites can be checked. */
  readonly siteB: WorkspaceSite
  /** DATA_DIR and SITES_FILE, for an api or worker started as a separate process. */
  readonly env: Readonly<Record<"DATA_DIR" | "SITES_FILE", string>>
  /**
   * The settings of in-process service layers on this workspace (loopback, a random port, one
   * embedding thread), by their environment names; `overEnv` lets the environment fill the rest
   * (benchmarks and evaluations, tuned like the service) instead of the defaults (tests).
   */
  readonly config: (overrides?: SettingValues, options?: { readonly overEnv?: boolean }) => Layer.Layer<never>
  /** Deletes the directory and everything in it. */
  readonly dispose: () => void
}

export interface WorkspaceOptions {
  /** Prefix of the temp directory's name, to tell workspaces apart in /tmp. */
  readonly prefix?: string
  /** Campaigns for site A (an id already there, e.g. 0 for the default, is replaced). */
  readonly campaigns?: ReadonlyArray<Campaign>
}

// Long enough for a bench run; nothing here tests expiry.
const tokenTtlSeconds = 24 * 3600

/** Writes a sites file with two sites, A and B, and returns their credentials. */
export const writeSites = async (sitesFile: string, campaigns: ReadonlyArray<Campaign> = []) => {
  const a = await Effect.runPromise(createSite({ sites: [] }, "site-a"))
  const b = await Effect.runPromise(createSite(a.file, "site-b"))
  const siteA = campaigns.reduce(putCampaign, a.site)
  await Effect.runPromise(writeSitesFile(sitesFile, replaceSite(b.file, siteA)))
  const describe = async (site: Site, issued: { username: string; password: string }): Promise<WorkspaceSite> => ({
    site,
    basic: basicAuthorization(issued),
    bearer: `Bearer ${await mintReadToken(site, tokenTtlSeconds)}`
  })
  return { siteA: await describe(siteA, a.issued), siteB: await describe(b.site, b.issued) }
}

export const makeWorkspace = async (options: WorkspaceOptions = {}): Promise<Workspace> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), options.prefix ?? "commerce-test-"))
  const dataDir = path.join(dir, "data")
  const sitesFile = path.join(dir, "sites.json")
  const sites = await writeSites(sitesFile, options.campaigns)
  return {
    dir,
    dataDir,
    sitesFile,
    ...sites,
    env: { DATA_DIR: dataDir, SITES_FILE: sitesFile },
    config: (overrides = {}, options = {}) =>
      (options.overEnv ? settingsOverEnv : settings)({
        DATA_DIR: dataDir,
        SITES_FILE: sitesFile,
        HOST: "127.0.0.1",
        PORT: 0,
        EMBED_THREADS: 1,
        ...overrides
      }),
    dispose: () => fs.rmSync(dir, { recursive: true, force: true })
  }
}
