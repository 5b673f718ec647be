import * as fs from "node:fs"
import { type ConfigError, Console, Effect, Layer, Option, Queue, Ref } from "effect"
import { BadRequest, NotFound } from "../../domain/Errors.js"
import type { Site, SitesFile } from "../../domain/Site.js"
import { mintReadToken } from "./ReadToken.js"
import { createSite, describeAccess } from "./SiteAdmin.js"
import { SiteRegistry, type SiteRegistryShape } from "./SiteRegistry.js"
import { readSitesFile, type SitesFileError, SitesFilePath, writeSitesFile } from "./SitesStore.js"

interface Snapshot {
  readonly generation: number
  readonly sites: ReadonlyArray<Site>
  readonly byId: ReadonlyMap<number, Site>
}

const snapshot = (sites: ReadonlyArray<Site>, generation: number): Snapshot => ({
  generation,
  sites,
  byId: new Map(sites.map((s) => [s.id, s]))
})

const serve = (state: Ref.Ref<Snapshot>): SiteRegistryShape => ({
  get: (siteId) =>
    Ref.get(state).pipe(
      Effect.flatMap(({ byId }) => {
        const site = byId.get(siteId)
        return site ? Effect.succeed(site) : Effect.fail(new NotFound({ message: `unknown site ${siteId}` }))
      })
    ),
  all: Ref.get(state).pipe(Effect.map((s) => s.sites)),
  campaign: (siteId, campaignId) =>
    Ref.get(state).pipe(
      Effect.flatMap(({ byId }) => {
        const site = byId.get(siteId)
        if (!site) return Effect.fail(new BadRequest({ message: `unknown site ${siteId}` }))
        const id = campaignId ?? site.defaultCampaign
        const campaign = site.campaigns.find((c) => c.id === id)
        return campaign
          ? Effect.succeed(campaign)
          : Effect.fail(
              new BadRequest({
                message: `unknown campaign ${id}; this site has ${site.campaigns.map((c) => c.id).join(", ")}`
              })
            )
      })
    ),
  generation: Ref.get(state).pipe(Effect.map((s) => s.generation))
})

const DEMO_TOKEN_TTL_SECONDS = 30 * 24 * 3600

/** A server must be usable on first start, so an empty registry gets a demo site whose access is printed once. */
const bootstrap = (file: string): Effect.Effect<SitesFile, SitesFileError> =>
  Effect.gen(function* () {
    const existing = yield* readSitesFile(file)
    if (Option.isSome(existing) && existing.value.sites.length > 0) return existing.value
    const created = yield* createSite(
      Option.getOrElse(existing, () => ({ sites: [] })),
      "Demo shop"
    )
    yield* writeSitesFile(file, created.file)
    const token = yield* Effect.promise(() => mintReadToken(created.site, DEMO_TOKEN_TTL_SECONDS))
    const rule = "=".repeat(72)
    yield* Console.log(
      [
        rule,
        `No sites were configured: created a demo site in ${file}`,
        describeAccess(created.site, { issued: created.issued, token }),
        `  (token valid 30 days; "npm run site" issues more credentials and tokens)`,
        rule
      ].join("\n")
    )
    return created.file
  })

/**
 * fs.watchFile polls stat(): it survives the temp-file-and-rename writes (which would
 * detach an fs.watch on the old inode) and coalesces bursts of writes into one poll.
 */
const POLL_INTERVAL_MS = 500

/** The sites in this process's memory, loaded from the sites file and reloaded when it changes. */
export const EmbeddedSiteRegistry: {
  readonly layer: Layer.Layer<SiteRegistry, SitesFileError | ConfigError.ConfigError>
  readonly fromSites: (sites: ReadonlyArray<Site>) => Layer.Layer<SiteRegistry>
} = {
  /** Reads SITES_FILE, creating it on first start, and follows later edits (e.g. by the CLI). */
  layer: Layer.scoped(
    SiteRegistry,
    Effect.gen(function* () {
      const sitesFile = yield* SitesFilePath
      // Watch before the first read, so an edit landing in between is not missed.
      const changes = yield* Queue.sliding<void>(1)
      const onChange = () => Queue.unsafeOffer(changes, undefined)
      yield* Effect.acquireRelease(
        Effect.sync(() => fs.watchFile(sitesFile, { interval: POLL_INTERVAL_MS, persistent: false }, onChange)),
        () => Effect.sync(() => fs.unwatchFile(sitesFile, onChange))
      )
      const state = yield* Ref.make(snapshot((yield* bootstrap(sitesFile)).sites, 0))
      const reload = readSitesFile(sitesFile).pipe(
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.logWarning(`${sitesFile} is gone; keeping the sites loaded before`),
            onSome: ({ sites }) =>
              Effect.flatMap(Ref.get(state), (current) =>
                // Metadata-only changes (our own bootstrap write, touch, chmod) must not flush auth caches.
                JSON.stringify(sites) === JSON.stringify(current.sites)
                  ? Effect.void
                  : Ref.set(state, snapshot(sites, current.generation + 1)).pipe(
                      Effect.zipRight(Effect.logInfo(`reloaded ${sites.length} site(s) from ${sitesFile}`))
                    )
              )
          })
        ),
        // A half-edited or invalid file must not lock every shop out: keep serving the last good one.
        Effect.catchAll((e) => Effect.logWarning(`${e.message}; keeping the previous version`))
      )
      yield* Queue.take(changes).pipe(Effect.zipRight(reload), Effect.forever, Effect.forkScoped)
      return serve(state)
    })
  ),

  /** A fixed registry, for tests of services that only need sites to exist. */
  fromSites: (sites: ReadonlyArray<Site>): Layer.Layer<SiteRegistry> =>
    Layer.effect(SiteRegistry, Ref.make(snapshot(sites, 0)).pipe(Effect.map(serve)))
}
