import { Effect, Schema } from "effect"
import {
  CrossSellingRequest,
  CrossSellingResponse,
  SimilarProductsRequest,
  SimilarProductsResponse
} from "../../domain/Recommendations.js"
import { type SearchResponse, TextSearchRequest, TextSearchResponse } from "../../domain/Search.js"
import type { Principal } from "../../services/auth/Auth.js"
import { crossSelling, similarProducts } from "../../search/SimilarAndComplementary.js"
import { textSearch } from "../../search/TextSearch.js"
import { visualSearch } from "../../search/VisualSearch.js"
import { VisualSearchRequest, VisualSearchResponse } from "../../domain/Visual.js"
import { defineTool } from "../Tool.js"
import { asToolFailure, type ServiceFailure } from "../ToolFailure.js"
import {
  CompactRecommendations,
  CompactSearchResponse,
  compactRecommendations,
  compactSearch,
  Detail
} from "./CompactResults.js"

/**
 * Products per page when an agent does not say: the REST default is the campaign's page (100 in
 * the default campaign), which in full detail is tens of kilobytes of an agent's context.
 */
export const AGENT_PAGE = 10

/** A REST request body plus the MCP-only `detail` choice. */
const withDetail = <F extends Schema.Struct.Fields>(request: Schema.Struct<F>) =>
  Schema.Struct({ ...request.fields, detail: Schema.optional(Detail) })

/**
 * A search as an agent runs it: the agent's page size unless it asks, and the compact form
 * when it chooses it.
 */
const agentSearch =
  <I extends { readonly resultsCount?: number | undefined }, E extends ServiceFailure, R>(
    search: (siteId: number, input: I) => Effect.Effect<SearchResponse, E, R>
  ) =>
  (principal: Principal, { detail, ...input }: I & { readonly detail?: "full" | "compact" | undefined }) =>
    asToolFailure(
      Effect.map(
        search(principal.siteId, { ...input, resultsCount: input.resultsCount ?? AGENT_PAGE } as unknown as I),
        (r) => (detail === "compact" ? compactSearch(r) : r)
      )
    )

// The same service code as the REST endpoints: the tools differ only in transport.
export const searchTools = [
  defineTool({
    name: "text_search",
    title: "Text search",
    description:
      "Searches the catalog by text (hybrid lexical and semantic ranking) with optional filters; " +
      "same as POST /text-search. Without a query it lists the filtered scope (a category page). " +
      "Pages with `offset` and `resultsCount` (10 unless given); `sort` by price, title, newest, " +
      "popular or trending; `collapseVariants` lists one product per item group; " +
      "`data.total` and every facet value's `count` are exact over the whole result set. " +
      "Category paths in filters and results are Base64-URL encoded.",
    scope: "read",
    effect: "reads",
    input: withDetail(TextSearchRequest),
    output: Schema.Union(TextSearchResponse, CompactSearchResponse),
    run: agentSearch(textSearch)
  }),
  defineTool({
    name: "visual_search",
    title: "Visual search",
    description:
      "Searches the catalog with an image: `query.image` (base64 or data URL) or `query.url` " +
      "(fetched server-side), optional `searchArea` (relative rectangle) and `objectDetection.include`; " +
      "same as POST /visual-search, 10 products unless `resultsCount` says otherwise.",
    scope: "read",
    effect: "reads",
    input: withDetail(VisualSearchRequest),
    output: Schema.Union(VisualSearchResponse, CompactSearchResponse),
    run: agentSearch(visualSearch)
  }),
  defineTool({
    name: "similar_products",
    title: "Similar products",
    description:
      "Products similar to a source product (same kind, close in meaning, attributes and price); " +
      "same as POST /similar-products.",
    scope: "read",
    effect: "reads",
    input: withDetail(SimilarProductsRequest),
    output: Schema.Union(SimilarProductsResponse, CompactRecommendations),
    run: (principal, { detail, ...input }) =>
      asToolFailure(
        Effect.map(similarProducts(principal.siteId, input), (r) =>
          detail === "compact" ? compactRecommendations(r) : r
        )
      )
  }),
  defineTool({
    name: "cross_selling",
    title: "Cross-selling",
    description:
      "Complementary products for a source product: those shoppers bought with it first " +
      "(once two or more orders show it), then complements by content " +
      "(never from its own leaf category); never its own item group; same as POST /cross-selling.",
    scope: "read",
    effect: "reads",
    input: withDetail(CrossSellingRequest),
    output: Schema.Union(CrossSellingResponse, CompactRecommendations),
    run: (principal, { detail, ...input }) =>
      asToolFailure(
        Effect.map(crossSelling(principal.siteId, input), (r) => (detail === "compact" ? compactRecommendations(r) : r))
      )
  })
] as const

export const NoInput = Schema.Struct({})
