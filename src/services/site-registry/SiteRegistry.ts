import { Context, type Effect } from "effect"
import type { BadRequest, NotFound } from "../../domain/Errors.js"
import type { Campaign, Site } from "../../domain/Site.js"

export interface SiteRegistryShape {
  readonly get: (siteId: number) => Effect.Effect<Site, NotFound>
  readonly all: Effect.Effect<ReadonlyArray<Site>>
  /** `campaignId` undefined means the site's default campaign. */
  readonly campaign: (siteId: number, campaignId?: number) => Effect.Effect<Campaign, BadRequest>
  /** Grows with every reload, so caches derived from the registry know when to drop. */
  readonly generation: Effect.Effect<number>
}

export class SiteRegistry extends Context.Tag("SiteRegistry")<SiteRegistry, SiteRegistryShape>() {}
