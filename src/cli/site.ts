import * as fs from "node:fs/promises"
import { parseArgs } from "node:util"
import { Console, Data, Effect, Layer, Option } from "effect"
import type { Site, SitesFile } from "../domain/Site.js"
import { putCampaign as putCampaignEntry, siteCampaigns } from "../search/SiteCampaigns.js"
import { EmbeddedSiteRegistry } from "../services/site-registry/EmbeddedSiteRegistry.js"
import { MerchandisingStoreLive } from "../topology/Topology.js"
import { mintReadToken, parseTtl } from "../services/site-registry/ReadToken.js"
import {
  addCredential,
  createSite,
  describeAccess,
  replaceSite,
  rotateTokenSecret
} from "../services/site-registry/SiteAdmin.js"
import { registryEntry, REGISTRY_TOKEN_TTL_SECONDS } from "../mcp/RegistryEntry.js"
import {
  readSitesFile,
  type SitesFileError,
  SitesFilePath,
  writeSitesFile
} from "../services/site-registry/SitesStore.js"

const USAGE = `Usage: npm run site -- <command> [options]
  list                                        sites, usernames, campaigns
  add --name <name>                           new site: prints its Basic credentials and a read-only token
  add-credential --site <id>                  another username:password for the site
  rotate-secret --site <id>                   new token secret: every earlier read-only token stops working
  mint-token --site <id> [--ttl 30d|12h|3600] prints a read-only token (default 30d)
  set-campaign --site <id> --file <json>      adds or replaces the campaign with the file's id (in the catalog
                                              store under DATA_DIR, or Redis with REDIS_URL, as PUT /campaigns/{id})
  registry-entry --site <id> --url <https://shop.example.com> [--ttl 365d]
                                              an MCP registry server.json for /mcp, read-only token pre-filled
Edits $SITES_FILE (default ./config/sites.json); a running server picks changes up by itself.`

class CliError extends Data.TaggedError("CliError")<{ readonly message: string }> {}

const fail = (message: string) => Effect.fail(new CliError({ message }))
const sitesFile = Effect.runSync(SitesFilePath)
const DEFAULT_TTL_SECONDS = 30 * 24 * 3600

const existingFile = readSitesFile(sitesFile).pipe(
  Effect.flatMap(
    Option.match({
      onNone: () => fail(`no sites file at ${sitesFile}; create a site with "add --name <name>" first`),
      onSome: Effect.succeed
    })
  )
)

const findSite = (file: SitesFile, idText: string | undefined): Effect.Effect<Site, CliError> => {
  if (idText === undefined) return fail("--site <id> is required")
  if (!/^[1-9]\d*$/.test(idText)) return fail(`--site must be a positive integer, got "${idText}"`)
  const site = file.sites.find((s) => s.id === Number(idText))
  return site ? Effect.succeed(site) : fail(`no site ${idText} in ${sitesFile}`)
}

const mint = (site: Site, ttlSeconds: number) => Effect.promise(() => mintReadToken(site, ttlSeconds))

/** Writes `site` back into the registry it was read from. */
const save = (file: SitesFile, site: Site) => writeSitesFile(sitesFile, replaceSite(file, site))

type Options = { name?: string; site?: string; ttl?: string; file?: string; url?: string }

const commands: Record<string, (o: Options) => Effect.Effect<void, CliError | SitesFileError>> = {
  list: () =>
    Effect.gen(function* () {
      const { sites } = yield* existingFile
      const lines: Array<string> = []
      for (const s of sites) {
        // The campaigns in effect: the catalog store's once written there, else the file's.
        const { campaigns } = yield* siteCampaigns(s.id).pipe(
          Effect.provide(Layer.mergeAll(MerchandisingStoreLive, EmbeddedSiteRegistry.fromSites(sites))),
          Effect.mapError((e) => new CliError({ message: String(e.message) }))
        )
        lines.push(
          [
            `${s.id}\t${s.name}`,
            `users: ${s.credentials.map((c) => c.username).join(", ") || "-"}`,
            `token secret v${s.tokenSecretVersion ?? 1}`,
            `campaigns: ${campaigns.map((c) => c.id).join(", ")} (default ${s.defaultCampaign})`
          ].join("\t")
        )
      }
      yield* Console.log(lines.join("\n") || "no sites")
    }),
  add: ({ name }) =>
    Effect.gen(function* () {
      if (!name?.trim()) return yield* fail("--name <name> is required")
      const current = Option.getOrElse(yield* readSitesFile(sitesFile), () => ({ sites: [] }))
      const created = yield* createSite(current, name.trim())
      yield* writeSitesFile(sitesFile, created.file)
      const token = yield* mint(created.site, DEFAULT_TTL_SECONDS)
      yield* Console.log(describeAccess(created.site, { issued: created.issued, token }))
    }),
  "add-credential": ({ site: id }) =>
    Effect.gen(function* () {
      const file = yield* existingFile
      const { issued, site } = yield* addCredential(yield* findSite(file, id))
      yield* save(file, site)
      yield* Console.log(describeAccess(site, { issued }))
    }),
  "rotate-secret": ({ site: id }) =>
    Effect.gen(function* () {
      const file = yield* existingFile
      const site = rotateTokenSecret(yield* findSite(file, id))
      yield* save(file, site)
      yield* Console.log(
        `Token secret rotated (version ${site.tokenSecretVersion}); earlier read-only tokens are rejected.`
      )
      yield* Console.log(describeAccess(site, { token: yield* mint(site, DEFAULT_TTL_SECONDS) }))
    }),
  "mint-token": ({ site: id, ttl }) =>
    Effect.gen(function* () {
      const site = yield* findSite(yield* existingFile, id)
      const seconds = ttl === undefined ? DEFAULT_TTL_SECONDS : parseTtl(ttl)
      if (seconds === undefined) return yield* fail(`--ttl must look like 30d, 12h, 15m or 3600, got "${ttl}"`)
      // Only the token, so scripts can capture it: TOKEN=$(npm run -s site -- mint-token --site 1)
      yield* Console.log(yield* mint(site, seconds))
    }),
  "set-campaign": ({ file: campaignFile, site: id }) =>
    Effect.gen(function* () {
      const file = yield* existingFile
      const site = yield* findSite(file, id)
      if (!campaignFile) return yield* fail("--file <campaign.json> is required")
      const text = yield* Effect.tryPromise({
        try: () => fs.readFile(campaignFile, "utf8"),
        catch: (e) => new CliError({ message: `cannot read ${campaignFile}: ${(e as Error).message}` })
      })
      const body = yield* Effect.try({
        try: () => JSON.parse(text) as unknown,
        catch: (e) => new CliError({ message: `invalid campaign in ${campaignFile}: ${(e as Error).message}` })
      })
      if (
        typeof body !== "object" ||
        body === null ||
        Array.isArray(body) ||
        typeof (body as { id?: unknown }).id !== "number"
      )
        return yield* fail(`invalid campaign in ${campaignFile}: a JSON object with its numeric "id"`)
      const campaign = body as Record<string, unknown> & { readonly id: number }
      // The same code as PUT /campaigns/{id}, on this deployment's store (DATA_DIR or REDIS_URL).
      yield* putCampaignEntry(site.id, campaign.id, campaign).pipe(
        Effect.mapError((e) => new CliError({ message: `invalid campaign in ${campaignFile}:\n${e.message}` })),
        Effect.provide(Layer.mergeAll(MerchandisingStoreLive, EmbeddedSiteRegistry.fromSites(file.sites))),
        Effect.mapError((e) => (e instanceof CliError ? e : new CliError({ message: String(e) })))
      )
      yield* Console.log(`Campaign ${campaign.id} saved for site ${site.id}.`)
    }),
  "registry-entry": ({ site: id, ttl, url }) =>
    Effect.gen(function* () {
      const site = yield* findSite(yield* existingFile, id)
      if (url === undefined)
        return yield* fail("--url <https://shop.example.com> (where the shop serves this service) is required")
      const seconds = ttl === undefined ? REGISTRY_TOKEN_TTL_SECONDS : parseTtl(ttl)
      if (seconds === undefined) return yield* fail(`--ttl must look like 365d, 12h, 15m or 3600, got "${ttl}"`)
      const entry = registryEntry(site, url, yield* mint(site, seconds))
      if (entry === undefined) return yield* fail(`--url must be an https URL naming the shop's domain, got "${url}"`)
      yield* Console.log(JSON.stringify(entry, null, 2))
    })
}

const program = Effect.gen(function* () {
  const { positionals, values } = yield* Effect.try({
    try: () =>
      parseArgs({
        allowPositionals: true,
        options: {
          name: { type: "string" },
          site: { type: "string" },
          ttl: { type: "string" },
          file: { type: "string" },
          url: { type: "string" }
        }
      }),
    catch: (e) => new CliError({ message: (e as Error).message })
  })
  const command = commands[positionals[0] ?? ""]
  if (!command || positionals.length > 1) return yield* fail(`unknown command "${positionals.join(" ")}"\n${USAGE}`)
  yield* command(values)
})

Effect.runPromise(
  program.pipe(
    Effect.catchAll((e) =>
      Console.error(`error: ${e.message}`).pipe(Effect.zipRight(Effect.sync(() => (process.exitCode = 1))))
    )
  )
)
