import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { batchEntries, getEntry, listEntries, putEntry, removeEntry } from "../../search/MerchandisingEntries.js"
import { getCampaign, putCampaign, removeCampaign, siteCampaigns } from "../../search/SiteCampaigns.js"
import { requireScope } from "../../services/auth/Auth.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"

/** Every merchandising endpoint needs site credentials: `run` gets the request's site. */
const forSite = <A, E, R>(run: (siteId: number) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const principal = yield* CurrentPrincipal
    yield* requireScope(principal, "site")
    return yield* restErrors(run(principal.siteId))
  })

export const MerchandisingHandlers = HttpApiBuilder.group(CommerceApi, "merchandising", (handlers) =>
  handlers
    .handle("putSynonym", ({ path, payload }) => forSite((site) => putEntry(site, "synonym", path.id, payload)))
    .handle("getSynonym", ({ path }) => forSite((site) => getEntry(site, "synonym", path.id)))
    .handle("deleteSynonym", ({ path }) => forSite((site) => removeEntry(site, "synonym", path.id)))
    .handle("listSynonyms", ({ urlParams }) => forSite((site) => listEntries(site, "synonym", urlParams)))
    .handle("batchSynonyms", ({ payload }) =>
      forSite((site) => batchEntries(site, "synonym", payload.synonyms, payload.replaceExisting ?? false))
    )
    .handle("putRule", ({ path, payload }) => forSite((site) => putEntry(site, "rule", path.id, payload)))
    .handle("getRule", ({ path }) => forSite((site) => getEntry(site, "rule", path.id)))
    .handle("deleteRule", ({ path }) => forSite((site) => removeEntry(site, "rule", path.id)))
    .handle("listRules", ({ urlParams }) => forSite((site) => listEntries(site, "rule", urlParams)))
    .handle("listCampaigns", () =>
      forSite((site) =>
        Effect.map(siteCampaigns(site), ({ campaigns, defaultCampaign }) => ({ items: campaigns, defaultCampaign }))
      )
    )
    .handle("getCampaign", ({ path }) => forSite((site) => getCampaign(site, path.id)))
    .handle("putCampaign", ({ path, payload }) => forSite((site) => putCampaign(site, path.id, payload)))
    .handle("deleteCampaign", ({ path }) => forSite((site) => removeCampaign(site, path.id)))
    .handle("batchRules", ({ payload }) =>
      forSite((site) => batchEntries(site, "rule", payload.rules, payload.replaceExisting ?? false))
    )
)
