import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { BadRequest, Forbidden, ServiceUnavailable } from "../domain/Errors.js"
import { ANALYTICS_LIMITS, SearchAnalyticsParams, SearchAnalyticsResponse } from "../domain/SearchAnalytics.js"
import { Authentication } from "./Authentication.js"

/** Search analytics for merchants (site credentials only: what shoppers search is the shop's business). */
export class AnalyticsApi extends HttpApiGroup.make("analytics")
  .add(
    HttpApiEndpoint.get("searchAnalytics", "/analytics/searches")
      .annotate(
        OpenApi.Summary,
        "Top queries, zero-result queries, queries without clicks, click-through rate and click position"
      )
      .annotate(
        OpenApi.Description,
        "Over the UTC days `from`..`to` (YYYY-MM-DD, inclusive; default the last " +
          `${ANALYTICS_LIMITS.defaultDays} days to today; at most ${ANALYTICS_LIMITS.days} days), up to \`limit\` ` +
          `queries per list (default ${ANALYTICS_LIMITS.defaultQueries}, at most ${ANALYTICS_LIMITS.queries}). ` +
          "Queries are normalised (case, accents, punctuation). A search counts once per requestId: the ones this " +
          "server answered (POST /text-search records them, with their number of results) and `search` events a " +
          "front end sends. Clicks count when a `click` event names the search's requestId (within 7 days of it) " +
          "and its position. clickThroughRate: searches with a click over searches that found something. Figures " +
          "follow events within seconds (aggregation runs as jobs). Needs site (Basic) credentials."
      )
      .setUrlParams(SearchAnalyticsParams)
      .addSuccess(SearchAnalyticsResponse)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(ServiceUnavailable)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "What shoppers search, for merchants.") {}
