import { conditionHolds } from "../ColumnValues.js"
import type { Gathered, MatchQuery } from "./Gather.js"
import type { Holding, SiteTerms } from "./SiteTerms.js"

/**
 * A query's scope as memory decides it: its filter by the rule every backend's filters follow
 * (conditionHolds), its excluded ids and its only ids.
 */
export const scopeOf = (query: MatchQuery): ((holding: Holding) => boolean) => {
  const excluded = new Set(query.excludeIds ?? [])
  const only = query.onlyIds === undefined ? null : new Set(query.onlyIds)
  const { must, mustNot } = query.filter
  return (holding) => {
    if (excluded.has(holding.productId) || (only !== null && !only.has(holding.productId))) return false
    for (const condition of must) if (!conditionHolds(condition, holding.columns[condition.column])) return false
    for (const condition of mustNot) if (conditionHolds(condition, holding.columns[condition.column])) return false
    return true
  }
}

/**
 * Every member of a query's result set, from memory: a browse's scope, or a text/vector
 * query's lexical matches (holding enough of the words or their ungated variants, beyond
 * Qdrant's lists too) and its scored matches (`scored`: the dense hits, and the gated and
 * partial matches the text model accepted). So totals, groups and facets of any set take no
 * request: Qdrant's lists only find and rank the candidates.
 */
export const resultSetOf = (
  site: SiteTerms,
  query: MatchQuery,
  gathered: Gathered | null,
  scored: Iterable<string>
): Array<Holding> => {
  const accept = scopeOf(query)
  if (gathered === null) return site.accepted(accept)
  return site.covering(gathered.coverage ?? { groups: [], required: 1 }, accept, scored)
}
