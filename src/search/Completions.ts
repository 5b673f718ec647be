import { Effect } from "effect"
import { normalizeQuery } from "../domain/Site.js"
import { Suggester } from "../services/suggester/Suggester.js"
import { siteCampaign } from "./SiteCampaigns.js"

const COMPLETIONS = 10

/** POST /auto-suggest: completions from the site's vocabulary and past queries; a campaign redirect gives the url. */
export const autoSuggest = (siteId: number, query: string) =>
  Effect.gen(function* () {
    const suggester = yield* Suggester
    const campaign = yield* siteCampaign(siteId, undefined)
    const redirects = new Map((campaign.redirects ?? []).map((r) => [normalizeQuery(r.query), r.url]))
    const found = yield* suggester.suggest(siteId, query, COMPLETIONS)
    return {
      data: {
        query,
        completions: found.map((s) => ({
          suggestion: s.suggestion,
          url: redirects.get(normalizeQuery(s.suggestion)) ?? null
        }))
      }
    }
  })
