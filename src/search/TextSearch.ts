import { Effect } from "effect"
import { timed } from "../platform/ServerTiming.js"
import { normalizeQuery, campaignResultsCount } from "../domain/Site.js"
import { CatalogIndex, type SearchQuery } from "../services/catalog-index/CatalogIndex.js"
import { conditionHolds } from "../services/catalog-index/ColumnValues.js"
import { Suggester } from "../services/suggester/Suggester.js"
import { SiteRegistry } from "../services/site-registry/SiteRegistry.js"
import { TextEmbedder } from "../services/text-embedder/TextEmbedder.js"
import { campaignBoosts } from "./Campaigns.js"
import { computeFacets, FACET_SAMPLE, facetValueCondition } from "./Facets.js"
import { loadEntities } from "./Products.js"
import { bestRefinement, refinementStream } from "./Refinement.js"
import { buildFilter, type DynamicIn } from "./Scope.js"

export interface TextSearchInput {
  readonly requestId?: string | undefined
  /** Empty or absent: the request browses its scope (filters, campaign), e.g. a category page. */
  readonly query?: string | undefined
  readonly resultsCount?: number | undefined
  /** Products of the result list skipped before the page starts (pinned products count). */
  readonly offset?: number | undefined
  readonly campaign?: number | undefined
  readonly staticFilters?: Parameters<typeof buildFilter>[0]["staticFilters"]
  readonly dynamicFilters?: ReadonlyArray<DynamicIn> | undefined
}

/**
 * POST /text-search: lexical and semantic retrieval fused by the index, inside the scope of
 * the campaign and the request's filters; facets from the matching set; campaign pins and
 * redirects; a stream proposing the single best refinement.
 */
export const textSearch = (siteId: number, input: TextSearchInput) =>
  Effect.gen(function*() {
    const registry = yield* SiteRegistry
    const embedder = yield* TextEmbedder
    const index = yield* CatalogIndex
    const suggester = yield* Suggester

    const campaign = yield* registry.campaign(siteId, input.campaign)
    const limit = campaignResultsCount(campaign, input.resultsCount)
    const { filter, dynamic } = yield* buildFilter({
      campaign: campaign.staticFilters,
      staticFilters: input.staticFilters,
      dynamicFilters: input.dynamicFilters
    })
    const text = input.query?.trim() ?? ""
    const normalized = normalizeQuery(text)
    const browsing = normalized.length === 0
    const offset = input.offset ?? 0
    // A browse has no words to embed: the index lists the scope (boosts, then product id).
    const textVector = browsing ? undefined : yield* embedder.embedQuery(text).pipe(timed("embed"))
    const boosts = yield* campaignBoosts(campaign)
    const pinned = browsing ? [] : campaign.pins?.find((p) => normalizeQuery(p.query) === normalized)?.productIds ?? []
    const query: Omit<SearchQuery, "limit"> = { siteId, ...(browsing ? {} : { text, textVector }), filter, boosts }

    // One ranking serves the page and the facet sample. A facet column with a selection of its
    // own is counted over a search without that selection: those searches run beside it.
    const ranking = yield* Effect.cached(index.search({ ...query, limit: Math.max(offset + limit, FACET_SAMPLE) }).pipe(timed("index")))
    const [result, facets] = yield* Effect.all(
      [ranking, computeFacets(query, dynamic, Effect.map(ranking, (ranked) => ranked.hits))],
      { concurrency: 2 }
    )
    const rankedIds = result.hits.map((h) => h.productId)
    // Pins lead the list but still have to be inside the shopper's scope.
    const pinnedInScope = pinned.length === 0 ? [] : yield* inScope(query, pinned)
    const ids = [...pinnedInScope, ...rankedIds.filter((id) => !pinnedInScope.includes(id))].slice(offset, offset + limit)
    const products = yield* loadEntities(siteId, ids).pipe(timed("entities"))

    const redirectUrl = campaign.redirects?.find((r) => normalizeQuery(r.query) === normalized)?.url
    const interactions = { dynamicFilters: facets, ...(redirectUrl ? { redirect: { url: redirectUrl } } : {}) }

    const refinement = bestRefinement(facets, Math.min(result.total, FACET_SAMPLE))
    let stream: ReturnType<typeof refinementStream> | undefined
    if (refinement !== null) {
      const condition = facetValueCondition(refinement.facet.column, refinement.value.value)
      // The refinement was found in the ranked sample, so its preview is the sample's best
      // products holding it, in the order the shopper sees them.
      const preview = result.hits.filter((hit) => conditionHolds(condition, hit.columns[condition.column])).slice(0, PREVIEW_SIZE)
      stream = refinementStream(refinement, result.total, yield* loadEntities(siteId, preview.map((hit) => hit.productId)))
    }

    if (!browsing) yield* suggester.recordQuery(siteId, text, result.total).pipe(timed("suggest"))
    // Pinned products that do not match the words are listed too, so they count.
    const pinnedMatching = pinnedInScope.length === 0 ? [] : yield* index.matchIds({ ...query, onlyIds: pinnedInScope })
    const pinnedExtra = pinnedInScope.length - pinnedMatching.length
    return {
      ...(input.requestId !== undefined ? { requestId: input.requestId } : {}),
      data: { products, total: result.total + pinnedExtra, interactions },
      interactions,
      ...(stream ? { stream } : {})
    }
  })

const PREVIEW_SIZE = 3

/** `ids` (in their order) that match the query's filter. */
const inScope = (query: Omit<SearchQuery, "limit">, ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const index = yield* CatalogIndex
    const matching = new Set(yield* index.matchIds({ siteId: query.siteId, filter: query.filter, onlyIds: ids }))
    return ids.filter((id) => matching.has(id))
  })
