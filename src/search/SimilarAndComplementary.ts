import { Effect } from "effect"
import { colorNames, effectivePrice, VARIANT_GROUP_COLUMN } from "../model/Columns.js"
import { embeddingText, productCategories } from "../model/ProductDocument.js"
import { categoryAncestors, formatCategoryPath, parseCategoryPath, ROOT_PATH } from "../domain/CategoryPath.js"
import { recommendationCount, type Campaign } from "../domain/Site.js"
import { CatalogIndex, type SearchHit, type SearchQuery } from "../services/catalog-index/CatalogIndex.js"
import type { Condition, Filter } from "../model/Filter.js"
import type { StoredProduct } from "../model/StoredProduct.js"
import { boughtTogether } from "../learning/BoughtTogether.js"
import { TextEmbedder } from "../services/text-embedder/TextEmbedder.js"
import { campaignBoosts } from "./Campaigns.js"
import { sampledFacets } from "./DynamicFilters.js"
import { requireProduct } from "../services/catalog-store/CatalogStore.js"
import { loadEntities } from "./Products.js"
import { toResultEntity } from "./ResultEntities.js"
import { buildFilter, type DynamicIn } from "./Scope.js"
import { siteCampaign } from "./SiteCampaigns.js"

export interface RecommendationInput {
  readonly requestId?: string | undefined
  readonly productId: string
  readonly resultsCount?: number | undefined
  readonly campaigns?: ReadonlyArray<number> | undefined
  readonly staticFilters?: Parameters<typeof buildFilter>[0]["staticFilters"]
  readonly dynamicFilters?: ReadonlyArray<DynamicIn> | undefined
}

export interface SimilarInput extends RecommendationInput {
  /** Text-form category paths (decoded at the edge) and a price level to prefer. */
  readonly substitutions?:
    | { readonly category?: ReadonlyArray<string> | undefined; readonly price?: number | undefined }
    | undefined
}

/** With several campaigns the first one sets count, scope and boosts (the rest are accepted for compatibility). */
const resolveCampaign = (siteId: number, campaigns: ReadonlyArray<number> | undefined) =>
  siteCampaign(siteId, campaigns?.[0])

/**
 * The source product's vectors: its text vector (from the index when indexed, else computed
 * now) and, once its photos are analysed, its first image's vector.
 */
const sourceVectors = (source: StoredProduct) =>
  Effect.gen(function* () {
    const index = yield* CatalogIndex
    const [doc] = yield* index.retrieve(source.siteId, [source.productId])
    const image = doc?.vectors.image?.[0]
    if (doc?.vectors.text) return { text: doc.vectors.text, image }
    const embedder = yield* TextEmbedder
    const [vector] = yield* embedder.embed([embeddingText(source.data)])
    return { text: vector, image }
  })

const leafPaths = (source: StoredProduct) => {
  const { shopping, types } = productCategories(source.data)
  return [...new Set([...shopping, ...types].filter((p) => p.length > 0).map(formatCategoryPath))]
}

/** The source's item group, as a condition its variants hold. */
const ownGroup = (source: StoredProduct): Array<Condition> =>
  source.data.item_group_id ? [{ column: VARIANT_GROUP_COLUMN, anyOf: [source.data.item_group_id] }] : []

/** One product per item group unless the campaign lists every variant. */
const grouping = (campaign: Campaign) => ((campaign.collapseVariants ?? true) ? { groupBy: VARIANT_GROUP_COLUMN } : {})

const scope = (campaign: Campaign, input: RecommendationInput, extra: Filter) =>
  Effect.gen(function* () {
    const built = yield* buildFilter({
      campaign: campaign.staticFilters,
      staticFilters: input.staticFilters,
      dynamicFilters: input.dynamicFilters
    })
    const filter: Filter = {
      must: [...built.filter.must, ...extra.must],
      mustNot: [...built.filter.mustNot, ...extra.mustNot]
    }
    return { filter, dynamic: built.dynamic }
  })

const run = (query: SearchQuery, dynamic: ReadonlyArray<Condition>, perCategory?: number) =>
  Effect.gen(function* () {
    const index = yield* CatalogIndex
    const wide = yield* index.search({ ...query, limit: Math.max(200, query.limit * 4) })
    const ids = perCategory
      ? diversify(wide.hits.slice(0, query.limit * 4), perCategory, query.limit)
      : wide.hits.map((h) => h.productId)
    const { limit: _limit, ...facetQuery } = query
    const facets = yield* sampledFacets(facetQuery, dynamic, Effect.succeed(wide.hits))
    return {
      products: yield* loadEntities(query.siteId, ids.slice(0, query.limit)),
      interactions: { dynamicFilters: facets }
    }
  })

/** At most `perCategory` products of one leaf category, so complements span several kinds. */
const diversify = (hits: ReadonlyArray<SearchHit>, perCategory: number, limit: number): Array<string> => {
  const taken = new Map<string, number>()
  const out: Array<string> = []
  for (const hit of hits) {
    const categories = (hit.columns.category as ReadonlyArray<string> | null | undefined) ?? []
    // The deepest path is the product's leaf.
    const leaf = categories.reduce((a, b) => (b.length > a.length ? b : a), "")
    const n = taken.get(leaf) ?? 0
    if (n >= perCategory) continue
    taken.set(leaf, n + 1)
    out.push(hit.productId)
    if (out.length >= limit) break
  }
  return out
}

/**
 * Similar products: the same kind of product, close in text embedding and attributes. The
 * source's leaf categories (or the substituted ones, which then become a hard scope) are
 * boosted, brand and colour matches count a little, and the price level is preferred.
 */
export const similarProducts = (siteId: number, input: SimilarInput) =>
  Effect.gen(function* () {
    const source = yield* requireProduct(siteId, input.productId)
    const campaign = yield* resolveCampaign(siteId, input.campaigns)
    const limit = recommendationCount(campaign, input.resultsCount)
    const substituted = input.substitutions?.category
    // The root as a substitute puts the whole catalog in reach: no category to stay in or prefer.
    const wholeCatalog = substituted?.includes(ROOT_PATH) ?? false
    const categories =
      substituted && substituted.length > 0 ? substituted.filter((path) => path !== ROOT_PATH) : leafPaths(source)
    const { filter, dynamic } = yield* scope(campaign, input, {
      must: substituted && substituted.length > 0 && !wholeCatalog ? [{ column: "category", anyOf: substituted }] : [],
      // The source's own variants (another colour of the same shirt) are not "similar products".
      mustNot: ownGroup(source)
    })
    const price = input.substitutions?.price ?? effectivePrice(source.data)
    const parents = categories.flatMap((c) => categoryAncestors(parseCategoryPath(c)).slice(0, -1))
    const boosts = [
      ...(yield* campaignBoosts(campaign)),
      ...(categories.length > 0 ? [{ condition: { column: "category", anyOf: categories }, weight: 0.6 }] : []),
      ...(parents.length > 0 ? [{ condition: { column: "category", anyOf: parents }, weight: 0.2 }] : []),
      ...(source.data.brand ? [{ condition: { column: "brand", anyOf: [source.data.brand] }, weight: 0.1 }] : []),
      ...(colorNames(source.data.color).length > 0
        ? [{ condition: { column: "color", anyOf: colorNames(source.data.color) }, weight: 0.1 }]
        : [])
    ]
    // Dense neighbours plus attribute boosts; the title's words would drag in every product
    // sharing a common word ("with", "set") and cost a scan of much of the catalog.
    const vectors = yield* sourceVectors(source)
    const result = yield* run(
      {
        siteId,
        textVector: vectors.text,
        imageVector: vectors.image,
        filter,
        limit,
        boosts,
        excludeIds: [source.productId],
        ...grouping(campaign),
        // Looks count, but what the product is (text) counts more: a red mug is not similar to a red shoe.
        weights: { lexical: 0, text: 1, image: 0.5 },
        minSimilarity: -1,
        ...(price != null && price > 0
          ? { near: { column: "price", value: price, weight: input.substitutions?.price !== undefined ? 0.6 : 0.2 } }
          : {})
      },
      dynamic
    )
    // The wire shape carries category paths only; the price preference shows in the ranking.
    const substitutions =
      substituted && substituted.length > 0
        ? [
            {
              column: "category",
              value: {
                value: substituted,
                label: substituted.map((s) => parseCategoryPath(s).at(-1) ?? "root").join(", ")
              }
            }
          ]
        : []
    return {
      ...(input.requestId !== undefined ? { requestId: input.requestId } : {}),
      data: { sourceProduct: toResultEntity(source), products: result.products },
      interactions: result.interactions,
      substitutions
    }
  })

/**
 * Cross-selling: complements. Products shoppers bought with the source (learning/BoughtTogether.ts)
 * come first, once enough orders show it; the content rule fills the rest, or all of the list
 * while there is no such evidence. Both keep to the request's scope, a matching campaign pair's
 * included, and never offer the source's own item group (its variants).
 * The content rule: never from the source's leaf category either. A campaign's crossSell pairs
 * (source category → complement categories) scope the result when one matches; otherwise
 * candidates come from the rest of the catalog, preferring the source's top-level department,
 * its brand and its style (text-embedding closeness), and products in stock, with at most two
 * products per leaf category so the list spans several kinds of complement.
 */
export const crossSelling = (siteId: number, input: RecommendationInput) =>
  Effect.gen(function* () {
    const source = yield* requireProduct(siteId, input.productId)
    const campaign = yield* resolveCampaign(siteId, input.campaigns)
    const limit = recommendationCount(campaign, input.resultsCount)
    const leaves = leafPaths(source)
    const pairs = (campaign.crossSell ?? []).filter((p) =>
      leaves.some((leaf) => leaf === p.from || leaf.startsWith(`${p.from} > `))
    )
    const targets = pairs.flatMap((p) => p.to.map((t) => formatCategoryPath(parseCategoryPath(t))))
    const { filter: scoped, dynamic } = yield* scope(campaign, input, {
      must: targets.length > 0 ? [{ column: "category", anyOf: targets }] : [],
      mustNot: ownGroup(source)
    })
    // Bought together may share the source's leaf category (a candle with another candle); the content rule may not.
    const evidence = yield* boughtTogether(siteId, source.productId, limit)
    const found =
      evidence.length === 0
        ? []
        : (yield* Effect.flatMap(CatalogIndex, (index) =>
            index.search({
              siteId,
              filter: scoped,
              limit: evidence.length,
              onlyIds: evidence,
              excludeIds: [source.productId]
            })
          )).hits
    const inScope = new Set(found.map((hit) => hit.productId))
    const first = evidence.filter((id) => inScope.has(id)).slice(0, limit)
    const filter: Filter = {
      must: scoped.must,
      mustNot: [...scoped.mustNot, ...(leaves.length > 0 ? [{ column: "category", anyOf: leaves }] : [])]
    }
    const departments = leaves.map((l) => parseCategoryPath(l)[0]).filter((d): d is string => d !== undefined)
    const boosts = [
      ...(yield* campaignBoosts(campaign)),
      ...(departments.length > 0 ? [{ condition: { column: "category", anyOf: departments }, weight: 0.3 }] : []),
      ...(source.data.brand ? [{ condition: { column: "brand", anyOf: [source.data.brand] }, weight: 0.15 }] : []),
      // A complement is bought with the product, now: one in stock ranks above a comparable one that is not.
      { condition: { column: "availability", anyOf: ["in_stock"] }, weight: 0.5 }
    ]
    const vectors = yield* sourceVectors(source)
    const result = yield* run(
      {
        siteId,
        textVector: vectors.text,
        // Visual style (a small weight): complements that look like they belong together.
        imageVector: vectors.image,
        filter,
        limit: limit - first.length,
        boosts,
        excludeIds: [source.productId, ...first],
        ...grouping(campaign),
        weights: { lexical: 0, text: 1, image: 0.2 },
        minSimilarity: -1
      },
      dynamic,
      2
    )
    const products =
      first.length === 0 ? result.products : [...(yield* loadEntities(siteId, first)), ...result.products]
    return {
      ...(input.requestId !== undefined ? { requestId: input.requestId } : {}),
      data: { sourceProduct: toResultEntity(source), products },
      interactions: result.interactions
    }
  })
