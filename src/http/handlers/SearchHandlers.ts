import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { autoSuggest } from "../../search/AutoSuggest.js"
import { crossSelling, similarProducts } from "../../search/Recommendations.js"
import { textSearch } from "../../search/TextSearch.js"
import { visualSearch } from "../../search/VisualSearch.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors } from "../ErrorMapping.js"

export const SearchHandlers = HttpApiBuilder.group(CommerceApi, "search", (handlers) =>
  handlers
    .handle("textSearch", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => textSearch(p.siteId, payload)).pipe(restErrors))
    .handle("similarProducts", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => similarProducts(p.siteId, payload)).pipe(restErrors))
    .handle("crossSelling", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => crossSelling(p.siteId, payload)).pipe(restErrors))
    .handle("visualSearch", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => visualSearch(p.siteId, payload)).pipe(restErrors))
    .handle("autoSuggest", ({ payload }) =>
      Effect.flatMap(CurrentPrincipal, (p) => autoSuggest(p.siteId, payload.query)).pipe(restErrors)))
