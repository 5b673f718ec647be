import { Effect } from "effect"
import type { Boost, Campaign } from "../domain/Site.js"
import { DEFAULT_WORD_MATCHING, type WordMatching } from "../text/TextAnalysis.js"
import { columnCondition } from "./Scope.js"

/** Boosts (a campaign's, a rule's) as index boosts; `field` names them in an error. */
export const indexBoosts = (field: string, boosts: ReadonlyArray<typeof Boost.Type>) =>
  Effect.forEach(boosts, (b, i) =>
    columnCondition(`${field}.${i}`, b.column, b.values).pipe(
      Effect.map((condition) => ({ condition, weight: b.weight }))
    )
  )

/** Campaign boosts as index boosts; a broken boost in the site config is a configuration error, not the caller's. */
export const campaignBoosts = (campaign: Campaign) =>
  indexBoosts(`campaign ${campaign.id} boosts`, campaign.boosts ?? [])

/** How a search's words match other words under the campaign; `live` when the query is being typed. */
export const campaignWordMatching = (campaign: Campaign, live: boolean): WordMatching => ({
  typoTolerance: campaign.typoTolerance ?? DEFAULT_WORD_MATCHING.typoTolerance,
  minWordSizeFor1Typo: campaign.minWordSizeFor1Typo ?? DEFAULT_WORD_MATCHING.minWordSizeFor1Typo,
  minWordSizeFor2Typos: campaign.minWordSizeFor2Typos ?? DEFAULT_WORD_MATCHING.minWordSizeFor2Typos,
  live
})
