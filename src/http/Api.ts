import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { AutoSuggestRequest, AutoSuggestResponse } from "../domain/AutoSuggest.js"
import { DeleteProductResponse, ProductId, PutProductRequest, PutProductResponse } from "../domain/Catalog.js"
import { BadRequest, Forbidden, ImageDeleteFailure, NotFound, ProductSaveFailure, ServiceUnavailable } from "../domain/Errors.js"
import {
  CrossSellingRequest,
  CrossSellingResponse,
  LegacyRecommendationsResponse,
  SimilarProductsRequest,
  SimilarProductsResponse
} from "../domain/Recommendations.js"
import { TextSearchRequest, TextSearchResponse } from "../domain/Search.js"
import { Authentication } from "./Authentication.js"

const productPath = Schema.Struct({ productId: ProductId })

/** Repeated query parameters (`excluded[]=a&excluded[]=b`) arrive as one string or an array. */
const Repeated = Schema.Union(Schema.String, Schema.Array(Schema.String))
const legacyParams = (countName: string) =>
  Schema.Struct({
    [countName]: Schema.optional(Schema.String),
    campaigns: Schema.optional(Schema.String),
    "image-code": Schema.optional(Schema.String),
    color: Schema.optional(Schema.String),
    "excluded[]": Schema.optional(Repeated),
    "category[]": Schema.optional(Repeated)
  })

export class SearchApi extends HttpApiGroup.make("search")
  .add(HttpApiEndpoint.post("textSearch", "/text-search").setPayload(TextSearchRequest).addSuccess(TextSearchResponse))
  .add(
    HttpApiEndpoint.post("similarProducts", "/similar-products")
      .setPayload(SimilarProductsRequest)
      .addSuccess(SimilarProductsResponse)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("crossSelling", "/cross-selling")
      .setPayload(CrossSellingRequest)
      .addSuccess(CrossSellingResponse)
      .addError(NotFound)
  )
  .add(HttpApiEndpoint.post("autoSuggest", "/auto-suggest").setPayload(AutoSuggestRequest).addSuccess(AutoSuggestResponse))
  .addError(BadRequest)
  .addError(ServiceUnavailable)
  .middleware(Authentication) {}

export class CatalogApi extends HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.put("putProduct", "/product/:productId")
      .setPath(productPath)
      .setPayload(PutProductRequest)
      .addSuccess(PutProductResponse)
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
      .setUrlParams(legacyParams("similar-products-count"))
      .addSuccess(LegacyRecommendationsResponse)
  )
  .add(
    HttpApiEndpoint.get("legacyCrossSelling", "/product/:productId/cross-selling-products")
      .setPath(productPath)
      .setUrlParams(legacyParams("cross-selling-products-count"))
      .addSuccess(LegacyRecommendationsResponse)
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
  .add(OpsApi) {}
