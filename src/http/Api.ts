import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { AutoSuggestRequest, AutoSuggestResponse } from "../domain/AutoSuggest.js"
import {
  CatalogHealth,
  DeleteProductResponse,
  GetProductResponse,
  ProductId,
  SetProductBody,
  SetProductResponse
} from "../domain/Catalog.js"
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
import { PatchProductBody } from "../model/MergePatch.js"
import { TextSearchRequest, TextSearchResponse } from "../domain/Search.js"
import { VisualSearchRequest, VisualSearchResponse } from "../domain/Visual.js"
import { Authentication } from "./Authentication.js"
import { BULK_LIMITS } from "./BulkLine.js"
import { completeDocument, siteCredentialsOnly } from "./OpenApiDocument.js"
import { PredictionApi } from "./PredictionApi.js"
import { EventsApi } from "./EventsApi.js"
import { AnalyticsApi } from "./AnalyticsApi.js"
import { LegacySessionApi } from "./LegacySessionApi.js"
import { MerchandisingApi } from "./MerchandisingApi.js"

const productPath = Schema.Struct({ productId: ProductId })

const BULK_DESCRIPTION =
  'Body `application/x-ndjson`, one operation per line: `{"id", "data", "images"}` creates or replaces a ' +
  'product (as PUT), `{"id", "patch": {"data", "images"}}` changes some fields (as PATCH, a JSON merge patch), ' +
  '`{"id", "delete": true}` deletes ' +
  "(as DELETE). Each line is validated like its single-product counterpart; a bad line is answered with its " +
  "error and never fails the others. The response is NDJSON, one answer per non-blank line in order, streamed " +
  "while the body is still arriving: `{line, status, message, data?, issues?}` (status 200, 400, 404, 413 or " +
  "503; `data` is PUT's and DELETE's without the record). A line is durable once answered and searchable by its " +
  "words at once; its text embedding follows. Of two " +
  `lines for one product the later wins. Limits: ${BULK_LIMITS.lineBytes} bytes a line (a longer line is ` +
  `answered 413 and skipped), ${BULK_LIMITS.lines} lines a request (the rest is not read). A body cut off ` +
  `midway keeps the lines answered.`

const BULK_REQUEST_BODY = {
  required: true,
  content: {
    "application/x-ndjson": {
      schema: { type: "string", description: "One JSON object per line" },
      example:
        '{"id":"sku-1","data":{"title":"Cordless Drill 18V","price":89.9}}\n' +
        '{"id":"sku-2","patch":{"data":{"price":12.5}}}\n{"id":"sku-3","delete":true}\n'
    }
  }
}

/** Request bodies reject fields we do not know, so a misspelt field is an error, not silently dropped. */
const strict = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  schema.annotations({ parseOptions: { onExcessProperty: "error" } })

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.post("textSearch", "/text-search")
      .setPayload(strict(TextSearchRequest))
      .addSuccess(TextSearchResponse)
      .annotate(OpenApi.Summary, "Search by text, or browse a category with filters, sorts and facets")
  )
  .add(
    HttpApiEndpoint.post("similarProducts", "/similar-products")
      .annotate(OpenApi.Summary, "Products similar to one product (text, image and attributes)")
      .setPayload(strict(SimilarProductsRequest))
      .addSuccess(SimilarProductsResponse)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("crossSelling", "/cross-selling")
      .annotate(OpenApi.Summary, "Products that complement one product")
      .setPayload(strict(CrossSellingRequest))
      .addSuccess(CrossSellingResponse)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.post("visualSearch", "/visual-search")
      .annotate(OpenApi.Summary, "Search by photo (an image URL or base64)")
      .setPayload(strict(VisualSearchRequest))
      .addSuccess(VisualSearchResponse)
      .addError(PayloadTooLarge)
      .addError(UnsupportedMediaType)
      .addError(UnprocessableImage)
      .addError(BadGateway)
      .addError(GatewayTimeout)
  )
  .add(
    HttpApiEndpoint.post("autoSuggest", "/auto-suggest")
      .setPayload(strict(AutoSuggestRequest))
      .addSuccess(AutoSuggestResponse)
      .annotate(OpenApi.Summary, "Query completions for a partial query")
  )
  .addError(BadRequest)
  .addError(ServiceUnavailable)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Search and recommendations: read-only token or site credentials.") {}

export class CatalogApi extends HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.get("getProduct", "/product/:productId")
      .annotate(OpenApi.Summary, "Read a product record")
      .setPath(productPath)
      .addSuccess(GetProductResponse)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.put("putProduct", "/product/:productId")
      .annotate(OpenApi.Summary, "Create or replace a product")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .setPath(productPath)
      .setPayload(strict(SetProductBody))
      .addSuccess(SetProductResponse)
      .addError(ProductSaveFailure)
  )
  .add(
    HttpApiEndpoint.patch("patchProduct", "/product/:productId")
      .annotate(OpenApi.Summary, "Change some fields of a product (JSON merge patch)")
      .annotate(
        OpenApi.Description,
        "RFC 7396 merge patch of the product as PUT takes it: `data` members are set, a member set to null is " +
          "removed, `images` replaces the list (null removes every image). The result must be a valid product " +
          "(400 naming the field otherwise, nothing stored); an unknown product is 404. Content type " +
          "application/merge-patch+json or application/json."
      )
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .setPath(productPath)
      .setPayload(strict(PatchProductBody))
      .addSuccess(SetProductResponse)
      .addError(NotFound)
      .addError(ProductSaveFailure)
  )
  .add(
    HttpApiEndpoint.post("bulkProducts", "/products/bulk")
      .annotate(
        OpenApi.Summary,
        "Create, replace, change and delete many products: one operation per NDJSON line, answered line by line"
      )
      .annotate(OpenApi.Description, BULK_DESCRIPTION)
      .annotate(OpenApi.Override, { ...siteCredentialsOnly, requestBody: BULK_REQUEST_BODY })
      .addSuccess(HttpApiSchema.Text({ contentType: "application/x-ndjson" }))
      .addError(UnsupportedMediaType)
  )
  .add(
    HttpApiEndpoint.get("catalogHealth", "/catalog/health")
      .annotate(OpenApi.Summary, "The catalog's health: products, the indexing backlog, images that failed")
      .annotate(
        OpenApi.Description,
        "Site (Basic) credentials. `products`: the site's products; `pendingJobs`: indexing, image and learning " +
          "jobs still queued (this deployment's, every site's); `failedImages`: how many products have an image " +
          "whose fetch or analysis failed, and those images with the reason (the first 100 products by id)."
      )
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .addSuccess(CatalogHealth)
  )
  .add(
    HttpApiEndpoint.del("deleteProduct", "/product/:productId")
      .annotate(OpenApi.Summary, "Delete a product and its images")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .setPath(productPath)
      .addSuccess(DeleteProductResponse)
      .addError(ImageDeleteFailure)
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(ServiceUnavailable)
  .middleware(Authentication)
  .annotate(
    OpenApi.Description,
    "Product records: anyone with credentials reads; only site (Basic) credentials change them."
  ) {}

export class LegacyApi extends HttpApiGroup.make("legacy")
  .add(
    HttpApiEndpoint.get("legacySimilar", "/product/:productId/similar-products")
      .annotate(OpenApi.Summary, "Similar products (deprecated GET form)")
      .setPath(productPath)
      .setUrlParams(LegacySimilarProductsQuery)
      .addSuccess(LegacyRecommendations)
  )
  .add(
    HttpApiEndpoint.get("legacyCrossSelling", "/product/:productId/cross-selling-products")
      .annotate(OpenApi.Summary, "Cross-selling products (deprecated GET form)")
      .setPath(productPath)
      .setUrlParams(LegacyCrossSellingQuery)
      .addSuccess(LegacyRecommendations)
  )
  .addError(BadRequest)
  .addError(NotFound)
  .addError(ServiceUnavailable)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Deprecated GET forms of the recommendation endpoints.") {}

const Health = Schema.Struct({ status: Schema.Literal("ok") })
const ReadyStatus = Schema.Struct({
  status: Schema.Literal("ready"),
  pendingJobs: Schema.Number,
  /** The embedded default's search replicas (SEARCH_REPLICAS): configured, and answering now. */
  searchReplicas: Schema.optional(Schema.Struct({ configured: Schema.Number, ready: Schema.Number }))
})

export class OpsApi extends HttpApiGroup.make("ops")
  .add(
    HttpApiEndpoint.get("healthz", "/healthz")
      .addSuccess(Health)
      .annotate(OpenApi.Summary, "Liveness: 200 while the process runs")
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz")
      .addSuccess(ReadyStatus)
      .addError(ServiceUnavailable)
      .annotate(OpenApi.Summary, "Readiness: 200 once the index is restored, with the indexing backlog")
  )
  .add(
    HttpApiEndpoint.get("metrics", "/metrics")
      .addSuccess(HttpApiSchema.Text({ contentType: "text/plain; version=0.0.4" }))
      .annotate(
        OpenApi.Summary,
        "This process's counters in the Prometheus text format: indexing backlog, embeddings, memory"
      )
  )
  .annotate(OpenApi.Description, "Health and readiness probes and metrics (no credentials).") {}

export class CommerceApi extends HttpApi.make("commerce-search")
  .add(SearchApi)
  .add(CatalogApi)
  .add(LegacyApi)
  .add(OpsApi)
  .add(PredictionApi)
  .add(EventsApi)
  .add(AnalyticsApi)
  .add(LegacySessionApi)
  .add(MerchandisingApi)
  .annotate(OpenApi.Title, "Commerce search")
  .annotate(OpenApi.Version, "0.1.0")
  .annotate(
    OpenApi.Description,
    "Search, recommendation and catalog service for shops: text and visual search, browse, similar and complementary " +
      "products, completions, predicted attributes, and an MCP endpoint for agents. Authorize with a read-only token " +
      "(Bearer) for reads or with site credentials (Basic) for everything."
  )
  .annotate(OpenApi.License, { name: "Proprietary" })
  .annotate(OpenApi.Servers, [{ url: "/", description: "this service" }])
  .annotate(OpenApi.Transform, completeDocument) {}
