import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { autoSuggest } from "../../search/Completions.js"
import { crossSelling, similarProducts } from "../../search/SimilarAndComplementary.js"
import { textSearch } from "../../search/TextSearch.js"
import { visualSearch } from "../../search/VisualSearch.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"
import { wireResponse } from "../WireEncoding.js"
import { CrossSellingResponse, SimilarProductsResponse } from "../../domain/Recommendations.js"
import { TextSearchResponse } from "../../domain/Search.js"
import { VisualSearchResponse } from "../../domain/Visual.js"

// Search answers are the service's hottest responses: encoded by the compiled encoder (see WireEncoding).
const textSearchResponse = wireResponse(TextSearchResponse)
const similarProductsResponse = wireResponse(SimilarProductsResponse)
const crossSellingResponse = wireResponse(CrossSellingResponse)
const visualSearchResponse = wireResponse(VisualSearchResponse)

export const SearchHandlers = HttpApiBuilder.group(CommerceApi, "search", (handlers) =>
  handlers
    .handle("textSearch", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => textSearch(p.siteId, payload)).pipe(
        Effect.map(textSearchResponse),
        restErrors
      )
    )
    .handle("similarProducts", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => similarProducts(p.siteId, payload)).pipe(
        Effect.map(similarProductsResponse),
        restErrors
      )
    )
    .handle("crossSelling", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => crossSelling(p.siteId, payload)).pipe(
        Effect.map(crossSellingResponse),
        restErrors
      )
    )
    .handle("visualSearch", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => visualSearch(p.siteId, payload)).pipe(
        Effect.map(visualSearchResponse),
        restErrors
      )
    )
    .handle("autoSuggest", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => autoSuggest(p.siteId, payload.query)).pipe(restErrors)
    )
)
