import { Effect, Schema } from "effect"
import { ResultEntity } from "../../domain/ResultEntity.js"
import { SearchAnalyticsInput, SearchAnalyticsResponse } from "../../domain/SearchAnalytics.js"
import { searchAnalytics } from "../../learning/AnalyticsReport.js"
import { trendingProducts, trendingQueries } from "../../search/Trending.js"
import { defineTool } from "../Tool.js"
import { asToolFailure } from "../ToolFailure.js"
import { CompactProduct, compactProduct, Detail } from "./CompactResults.js"

const TRENDING_MAX = 50

const TrendingInput = Schema.Struct({
  resultsCount: Schema.optional(Schema.Int.pipe(Schema.between(1, TRENDING_MAX))),
  detail: Schema.optional(Detail)
})

const TrendingOutput = Schema.Struct({
  products: Schema.Array(Schema.Struct({ trend: Schema.Number, product: Schema.Union(ResultEntity, CompactProduct) })),
  queries: Schema.Array(
    Schema.Struct({
      query: Schema.String,
      recentSearchesPerDay: Schema.Number,
      baselineSearchesPerDay: Schema.Number,
      trend: Schema.Number
    })
  )
})

/** What shoppers do, for agents: what is rising now, and (for the merchant's agents) search analytics. */
export const insightTools = [
  defineTool({
    name: "list_trending",
    title: "Trending products and searches",
    description:
      "Products and search queries whose recent rate (views, clicks, carts, purchases; searches) rises " +
      "against their own baseline, most rising first; `trend` is the ratio " +
      "(about 1 for steady interest). 10 of each unless `resultsCount` says otherwise. " +
      'A text_search with `sort: [{column: "trending", order: "desc"}]` lists trending products within a scope.',
    scope: "read",
    effect: "reads",
    input: TrendingInput,
    output: TrendingOutput,
    run: (principal, input) =>
      asToolFailure(
        Effect.gen(function* () {
          const limit = input.resultsCount ?? 10
          const [products, queries] = yield* Effect.all([
            trendingProducts(principal.siteId, limit),
            trendingQueries(principal.siteId, limit)
          ])
          return {
            products:
              input.detail === "compact"
                ? products.map((p) => ({ trend: p.trend, product: compactProduct(p.product) }))
                : products,
            queries
          }
        })
      )
  }),
  defineTool({
    name: "search_analytics",
    title: "Search analytics",
    description:
      "What shoppers searched over the UTC days from..to (YYYY-MM-DD; default the last 30 days): " +
      "totals, top queries, queries that found nothing, queries never clicked, " +
      "each with click-through rate and average click position; same as GET /analytics/searches. " +
      "Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: SearchAnalyticsInput,
    output: SearchAnalyticsResponse,
    run: (principal, input) => asToolFailure(searchAnalytics(principal.siteId, input))
  })
] as const
