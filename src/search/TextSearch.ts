import { randomUUID } from "node:crypto"
import { Effect, Fiber } from "effect"
import { timed } from "../platform/ServerTiming.js"
import { campaignResultsCount, DEFAULT_POPULARITY_BOOST, normalizeQuery } from "../domain/Site.js"
import { sortColumns, VARIANT_GROUP_COLUMN } from "../model/Columns.js"
import {
  CatalogIndex,
  type IndexError,
  type MatchScope,
  type SearchHit,
  type SearchQuery,
  type SearchResult
} from "../services/catalog-index/CatalogIndex.js"
import { conditionHolds } from "../services/catalog-index/ColumnValues.js"
import { recordSearch } from "../learning/SearchRecording.js"
import { shopperRanking } from "../learning/ShopperRanking.js"
import { TextEmbedder } from "../services/text-embedder/TextEmbedder.js"
import { campaignBoosts, campaignWordMatching } from "./Campaigns.js"
import { exactFacets, facetRequest, facetValueCondition } from "./DynamicFilters.js"
import { loadEntities } from "./Products.js"
import { bestRefinement, refinementStream } from "./Refinement.js"
import { buildFilter, type DynamicIn } from "./Scope.js"
import { withLanguageWords } from "../text/TextAnalysis.js"
import { highlighted } from "./Highlight.js"
import { byTitleHead, HEAD_WINDOW } from "./TitleHeadRanking.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { appliedSynonyms, explainListing } from "./Explanation.js"
import { fireRules, ruleBoosts, withPromotions } from "./QueryRules.js"
import { siteMerchandising } from "./SiteMerchandising.js"
import { withSynonyms } from "./Synonyms.js"
import { siteCampaign } from "./SiteCampaigns.js"

export interface TextSearchInput {
  readonly requestId?: string | undefined
  /** Empty or absent: the request browses its scope (filters, campaign), e.g. a category page. */
  readonly query?: string | undefined
  readonly resultsCount?: number | undefined
  /** Entries of the listing skipped before the page starts (pinned products count). */
  readonly offset?: number | undefined
  readonly sort?:
    | ReadonlyArray<{ readonly column: keyof typeof sortColumns; readonly order: "asc" | "desc" }>
    | undefined
  /** The query is being typed: its last word may be a prefix. */
  readonly asYouType?: boolean | undefined
  /** Highlights also carry a description snippet. */
  readonly snippet?: boolean | undefined
  /** One product per item group; absent: the campaign's choice (on unless it says otherwise). */
  readonly collapseVariants?: boolean | undefined
  readonly campaign?: number | undefined
  readonly staticFilters?: Parameters<typeof buildFilter>[0]["staticFilters"]
  readonly dynamicFilters?: ReadonlyArray<DynamicIn> | undefined
  /** Each product explains its place (see Explanation.ts). */
  readonly explain?: boolean | undefined
  /** false: not recorded for search analytics. */
  readonly analytics?: boolean | undefined
}

/**
 * POST /text-search: lexical and semantic retrieval fused by the index, inside the scope of
 * the campaign and the request's filters, in relevance or a requested order, a page from
 * `offset`; exact facet counts over the whole result set; campaign pins and redirects; a
 * stream proposing the single best refinement.
 */
export const textSearch = (siteId: number, input: TextSearchInput) =>
  Effect.gen(function* () {
    const embedder = yield* TextEmbedder
    const index = yield* CatalogIndex
    const store = yield* CatalogStore

    const campaign = yield* siteCampaign(siteId, input.campaign)
    const limit = campaignResultsCount(campaign, input.resultsCount)
    const typed = input.query?.trim() ?? ""
    const merchandising = yield* siteMerchandising(siteId)
    const rules = fireRules(merchandising.rules, {
      text: typed,
      campaign: campaign.id,
      staticFilters: input.staticFilters,
      dynamicFilters: input.dynamicFilters,
      now: Date.now()
    })
    const { filter, dynamic } = yield* buildFilter({
      campaign: campaign.staticFilters,
      staticFilters: input.staticFilters,
      dynamicFilters: input.dynamicFilters,
      rules: rules.filters
    })
    // The words searched are the rules' edit of the words typed; campaign pins and redirects
    // name the query as typed.
    const text = rules.text
    const normalized = normalizeQuery(typed)
    const browsing = normalizeQuery(text).length === 0
    const offset = input.offset ?? 0
    const groupBy = (input.collapseVariants ?? campaign.collapseVariants ?? true) ? VARIANT_GROUP_COLUMN : undefined
    const sort = input.sort?.map((key) => ({ column: sortColumns[key.column], order: key.order }))
    // A browse has no words to embed: the index lists the scope (boosts, then product id).
    // The index matches the words while the text model embeds them (see CatalogIndex.prepare):
    // the embedding is asked for first, the words are matched once it waits on its thread.
    const matching = withSynonyms(
      withLanguageWords(campaignWordMatching(campaign, input.asYouType ?? false), text, embedder.isWord),
      merchandising.synonyms,
      text
    )
    const textVector = browsing
      ? undefined
      : yield* Effect.gen(function* () {
          const words = yield* Effect.fork(
            index.prepare({ siteId, text, words: matching, filter }).pipe(timed("words"))
          )
          const vector = yield* embedder.embedQuery(text).pipe(timed("embed"))
          yield* Fiber.join(words)
          return vector
        })
    const boosts = [...(yield* campaignBoosts(campaign)), ...(yield* ruleBoosts(rules))]
    const lift = campaign.popularityBoost ?? DEFAULT_POPULARITY_BOOST
    const ranked = yield* shopperRanking(siteId, sort, sort === undefined ? lift : 0)
    // Campaign pins (for their query as typed) take the first places of a relevance listing,
    // then the rules' promotions theirs (inside the shopper's scope); a sorted listing keeps its order.
    const pins =
      normalized.length === 0 || sort !== undefined
        ? []
        : (campaign.pins?.find((p) => normalizeQuery(p.query) === normalized)?.productIds ?? [])
    const promotions =
      sort !== undefined
        ? []
        : [...pins.map((productId, position) => ({ productId, position })), ...rules.promote].filter(
            (p) => !rules.hide.includes(p.productId)
          )
    const inScopeIds =
      promotions.length === 0
        ? new Set<string>()
        : new Set(
            yield* inScope(
              { siteId, filter },
              promotions.map((p) => p.productId)
            )
          )
    const promoted = promotions.filter((p) => inScopeIds.has(p.productId)).map((p) => ({ by: "campaign pin", ...p }))
    const pinned = [...new Set(promoted.map((p) => p.productId))]
    const scope: MatchScope = {
      siteId,
      ...(browsing ? {} : { text, words: matching, textVector }),
      filter,
      ...(groupBy ? { groupBy } : {})
    }
    const query: Omit<SearchQuery, "limit"> = {
      ...scope,
      boosts,
      ...ranked,
      ...(sort ? { sort } : {}),
      ...(rules.hide.length > 0 ? { excludeIds: rules.hide } : {})
    }

    // The page: with pins, the ranking from its start (pins take the first places); else from `offset`.
    // The index counts the facets of the result set with it (one matching for both).
    const headed = !browsing && sort === undefined && pinned.length === 0
    // A relevance listing keeps the whole ranking its page was cut from (`listing`).
    const listing: Effect.Effect<SearchResult & { readonly listing?: ReadonlyArray<SearchHit> }, IndexError> = headed
      ? index
          .search({ ...query, limit: Math.max(HEAD_WINDOW, PREVIEW_DEPTH, offset + limit), facets: facetRequest })
          .pipe(Effect.flatMap((ranked) => byTitleHead(store, siteId, text, ranked, offset, limit)))
      : pinned.length === 0
        ? index.search({ ...query, offset, limit, facets: facetRequest })
        : index.search({ ...query, limit: offset + limit + pinned.length, facets: facetRequest })
    const ranking = yield* Effect.cached(listing.pipe(timed("index")))
    const [result, facets] = yield* Effect.all(
      [
        ranking,
        exactFacets(
          scope,
          dynamic,
          Effect.map(ranking, (ranked) => ranked.facets!)
        )
      ],
      { concurrency: 2 }
    )
    const rankedIds = result.hits.map((h) => h.productId)
    const ids =
      pinned.length === 0
        ? rankedIds
        : withPromotions(rankedIds, promoted, offset + limit + pinned.length).slice(offset, offset + limit)
    const entities = yield* loadEntities(siteId, ids).pipe(timed("entities"))
    const shown = browsing ? entities : yield* highlighted(store, siteId, entities, text, matching, input.snippet)
    const products = input.explain
      ? explainListing(
          shown,
          result.listing ?? result.hits,
          query,
          promoted.filter((p) => ids.includes(p.productId)),
          offset
        )
      : shown

    // Pinned products that do not match the words are listed too, so they count.
    const pinnedMatching = pinned.length === 0 ? [] : yield* index.matchIds({ ...scope, onlyIds: pinned })
    const total = result.total + pinned.length - pinnedMatching.length

    const redirectUrl = rules.redirect ?? campaign.redirects?.find((r) => normalizeQuery(r.query) === normalized)?.url
    const interactions = { dynamicFilters: facets, ...(redirectUrl ? { redirect: { url: redirectUrl } } : {}) }

    const refinement = bestRefinement(facets, result.total)
    let stream: ReturnType<typeof refinementStream> | undefined
    if (refinement !== null) {
      // The preview: the listing's best products holding the refinement, in the listing's order.
      // A relevance listing is ranked PREVIEW_DEPTH deep, which mostly holds enough of them; a
      // first page otherwise; failing both the index is asked.
      const condition = facetValueCondition(refinement.facet.column, refinement.value.value)
      const listed = result.listing ?? (offset === 0 && pinned.length === 0 ? result.hits : [])
      const onPage = listed.filter((hit) => conditionHolds(condition, hit.columns[condition.column]))
      const preview =
        onPage.length >= PREVIEW_SIZE
          ? onPage.slice(0, PREVIEW_SIZE)
          : (yield* index
              .search({ ...query, filter: { ...filter, must: [...filter.must, condition] }, limit: PREVIEW_SIZE })
              .pipe(timed("preview"))).hits
      stream = refinementStream(
        refinement,
        result.total,
        yield* loadEntities(
          siteId,
          preview.map((hit) => hit.productId)
        )
      )
    }

    // Every search answers with a requestId (the shopper's, or one made here): clicks name it.
    const requestId = input.requestId ?? randomUUID()
    if (typed.length > 0 && input.analytics !== false)
      yield* recordSearch(siteId, requestId, typed, result.total, rules.ids)
    return {
      requestId,
      data: {
        products,
        total,
        interactions,
        ...(rules.ids.length > 0 ? { appliedRules: rules.ids } : {}),
        ...(input.explain
          ? { explanation: { searched: text, synonyms: appliedSynonyms(text, matching.synonyms) } }
          : {}),
        ...(rules.userData.length > 0 ? { userData: rules.userData } : {})
      },
      interactions,
      ...(stream ? { stream } : {})
    }
  })

const PREVIEW_SIZE = 3
/** How deep a relevance listing is ranked: the refinement's preview comes from it (see above). */
const PREVIEW_DEPTH = 60

/** `ids` (in their order) that the filter accepts. */
const inScope = (scope: Pick<MatchScope, "siteId" | "filter">, ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const index = yield* CatalogIndex
    const matching = new Set(yield* index.matchIds({ ...scope, onlyIds: ids }))
    return ids.filter((id) => matching.has(id))
  })
