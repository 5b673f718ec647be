import { Effect } from "effect"
import type { Campaign } from "../domain/Site.js"
import { columnCondition } from "./Scope.js"

/** Campaign boosts as index boosts; a broken boost in the site config is a configuration error, not the caller's. */
export const campaignBoosts = (campaign: Campaign) =>
  Effect.forEach(campaign.boosts ?? [], (b, i) =>
    columnCondition(`campaign ${campaign.id} boosts.${i}`, b.column, b.values).pipe(
      Effect.map((condition) => ({ condition, weight: b.weight }))
    )
  )
