import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { AutoSuggestRequest, AutoSuggestResponse } from "../domain/AutoSuggest.js"
import { DeleteProductResponse, GetProductResponse, ProductId, SetProductBody, SetProductResponse } from "../domain/Catalog.js"
import {
  BadGateway,
  BadRequest,
  Forbidden,
  GatewayTimeout,
  ImageDeleteFailure,
  NotFound,
  PayloadTooLarge,
  ProductSaveFailure,
  ServiceUnavailable,
  UnprocessableImage,
  UnsupportedMediaType
} from "../domain/Errors.js"
import {
  CrossSellingRequest,
  CrossSellingResponse,
  LegacyCrossSellingQuery,
  LegacyRecommendations,
  LegacySimilarProductsQuery,
  SimilarProductsRequest,
  SimilarProductsResponse
} from "../domain/Recommendations.js"
import { TextSearchRequest, TextSearchResponse } from "../domain/Search.js"
import { VisualSearchRequest, VisualSearchResponse } from "../domain/Visual.js"
import { Authentication } from "./Authentication.js"
import { PredictionApi } from "./PredictionApi.js"
import { LegacySessionApi } from "./LegacySessionApi.js"

const productPath = Schema.Struct({ productId: ProductId })

/** Request bodies reject fields we do not know, so a misspelt field is an error, not silently dropped. */
const strict = <A, I, R>(schema: Schema.Schema<A, I, R>) => schema.annotations({ parseOptions: { onExcessProperty: "error" } })

export class SearchApi extends HttpApiGroup.make("search")
  .add(HttpApiEndpoint.post("textSearch", "/text-search").setPayload(strict(TextSearchRequest)).addSuccess(TextSearchResponse))
  .add(
    HttpApiEndpoint.post("similarProducts", "/similar-products")
      .setPayload(strict(SimilarProductsRequest))
      .addSuccess(SimilarProductsResponse)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("crossSelling", "/cross-selling")
      .setPayload(strict(CrossSellingRequest))
      .addSuccess(CrossSellingResponse)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("visualSearch", "/visual-search")
      .setPayload(strict(VisualSearchRequest))
      .addSuccess(VisualSearchResponse)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(UnprocessableImage)
      .addError(BadGateway)
      .addError(GatewayTimeout)
  )
  .add(HttpApiEndpoint.post("autoSuggest", "/auto-suggest").setPayload(strict(AutoSuggestRequest)).addSuccess(AutoSuggestResponse))
  .addError(BadRequest)
  .addError(ServiceUnavailable)
  .middleware(Authentication) {}

export class CatalogApi extends HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.get("getProduct", "/product/:productId")
      .setPath(productPath)
      .addSuccess(GetProductResponse)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.put("putProduct", "/product/:productId")
      .setPath(productPath)
      .setPayload(strict(SetProductBody))
      .addSuccess(SetProductResponse)
      .addError(ProductSaveFailure)
  )
  .add(
    HttpApiEndpoint.del("deleteProduct", "/product/:productId")
      .setPath(productPath)
      .addSuccess(DeleteProductResponse)
      .addError(ImageDeleteFailure)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(ServiceUnavailable)
  .middleware(Authentication) {}

export class LegacyApi extends HttpApiGroup.make("legacy")
  .add(
    HttpApiEndpoint.get("legacySimilar", "/product/:productId/similar-products")
      .setPath(productPath)
      .setUrlParams(LegacySimilarProductsQuery)
      .addSuccess(LegacyRecommendations)
  )
  .add(
    HttpApiEndpoint.get("legacyCrossSelling", "/product/:productId/cross-selling-products")
      .setPath(productPath)
      .setUrlParams(LegacyCrossSellingQuery)
      .addSuccess(LegacyRecommendations)
  )
  .addError(BadRequest)
  .addError(NotFound)
  .addError(ServiceUnavailable)
  .middleware(Authentication) {}

const Health = Schema.Struct({ status: Schema.Literal("ok") })
const ReadyStatus = Schema.Struct({ status: Schema.Literal("ready"), pendingJobs: Schema.Number })

export class OpsApi extends HttpApiGroup.make("ops")
  .add(HttpApiEndpoint.get("healthz", "/healthz").addSuccess(Health))
  .add(HttpApiEndpoint.get("readyz", "/readyz").addSuccess(ReadyStatus).addError(ServiceUnavailable)) {}

export class CommerceApi extends HttpApi.make("commerce-search")
  .add(SearchApi)
  .add(CatalogApi)
  .add(LegacyApi)
  .add(OpsApi)
  .add(PredictionApi)
  .add(LegacySessionApi) {}
