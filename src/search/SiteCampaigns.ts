import { Effect, Schema } from "effect"
import { BadRequest, NotFound } from "../domain/Errors.js"
import { describeParseError } from "../domain/IssueMessage.js"
import { Campaign } from "../domain/Site.js"
import { MerchandisingStore } from "../services/merchandising/MerchandisingStore.js"
import { SiteRegistry } from "../services/site-registry/SiteRegistry.js"
import { getEntry, removeEntry, writeEntry } from "./MerchandisingEntries.js"
import { siteMerchandising } from "./SiteMerchandising.js"

/*
 * A site's campaigns live in the catalog store once they are first written through the API (or
 * the CLI, which uses the same code): that first write copies the sites file's campaigns in, and
 * from then on the store's are the site's, in every process. Until then the file's apply. The
 * sites file stays the source of credentials, tokens and which campaign is the default.
 */

const siteOf = (siteId: number) =>
  Effect.flatMap(SiteRegistry, (registry) => registry.get(siteId)).pipe(
    Effect.mapError((e) => new BadRequest({ message: e.message }))
  )

/** The site's campaigns in effect, by id, and its default. */
export const siteCampaigns = (siteId: number) =>
  Effect.gen(function* () {
    const site = yield* siteOf(siteId)
    const { campaigns } = yield* siteMerchandising(siteId)
    const all = campaigns.size > 0 ? [...campaigns.values()] : site.campaigns
    return { campaigns: [...all].sort((a, b) => a.id - b.id), defaultCampaign: site.defaultCampaign }
  })

/** The campaign a request names (undefined: the site's default); an unknown one is a 400. */
export const siteCampaign = (siteId: number, campaignId?: number) =>
  Effect.gen(function* () {
    const { campaigns } = yield* siteMerchandising(siteId)
    if (campaigns.size === 0) return yield* Effect.flatMap(SiteRegistry, (r) => r.campaign(siteId, campaignId))
    const site = yield* siteOf(siteId)
    const id = campaignId ?? site.defaultCampaign
    const campaign = campaigns.get(id)
    if (campaign !== undefined) return campaign
    return yield* new BadRequest({
      message: `unknown campaign ${id}; this site has ${[...campaigns.keys()].sort((a, b) => a - b).join(", ")}`
    })
  })

/** Before the first API write of a site's campaigns, the sites file's become the store's. */
const seeded = (siteId: number) =>
  Effect.gen(function* () {
    const site = yield* siteOf(siteId)
    const store = yield* MerchandisingStore
    const now = Date.now()
    yield* store.seed(
      siteId,
      "campaign",
      site.campaigns.map((value) => ({ id: String(value.id), value, updatedAt: now }))
    )
    return site
  })

const decodeCampaign = (input: unknown) =>
  Schema.decodeUnknown(Campaign, { errors: "all", onExcessProperty: "error" })(input).pipe(
    Effect.mapError((error) => new BadRequest({ message: describeParseError(error) }))
  )

/** The body of PUT /campaigns/{id}: a campaign whose `id`, if given, is the path's. */
export const putCampaign = (siteId: number, id: number, body: Record<string, unknown>) =>
  Effect.gen(function* () {
    if (body.id !== undefined && body.id !== id)
      return yield* new BadRequest({
        message: `id: ${JSON.stringify(body.id)} must be the path's id ${id} (or left out)`
      })
    const campaign = yield* decodeCampaign({ ...body, id })
    yield* seeded(siteId)
    return yield* writeEntry(siteId, "campaign", String(id), campaign)
  })

export const getCampaign = (siteId: number, id: number) =>
  Effect.gen(function* () {
    const { campaigns } = yield* siteCampaigns(siteId)
    const campaign = campaigns.find((c) => c.id === id)
    if (campaign === undefined) return yield* new NotFound({ message: `no campaign ${id} on this site` })
    const stored = yield* getEntry(siteId, "campaign", String(id)).pipe(Effect.option)
    return stored._tag === "Some" ? stored.value : campaign
  })

export const removeCampaign = (siteId: number, id: number) =>
  Effect.gen(function* () {
    const site = yield* seeded(siteId)
    if (id === site.defaultCampaign)
      return yield* new BadRequest({
        message: `campaign ${id} is the site's default campaign (the sites file's defaultCampaign); it cannot be deleted`
      })
    return yield* removeEntry(siteId, "campaign", String(id))
  })
