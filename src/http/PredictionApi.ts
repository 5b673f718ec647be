import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ProductId } from "../domain/Catalog.js"
import { BadRequest, Forbidden, NotFound, ServiceUnavailable } from "../domain/Errors.js"
import { PredictAttributesRequest, PredictedAttributesResponse } from "../domain/PredictedAttributes.js"
import { Authentication } from "./Authentication.js"
import { siteCredentialsOnly } from "./OpenApiDocument.js"

/**
 * POST /product/{product-id}/predicted-attributes (site credentials only). An empty or omitted
 * `attributes` list (or no body at all) asks for every predictable attribute; unknown names → 400; the prediction
 * runs as a job and the request waits for it (bounded; 503 when it takes too long).
 */
export class PredictionApi extends HttpApiGroup.make("prediction")
  .add(
    HttpApiEndpoint.post("predictAttributes", "/product/:productId/predicted-attributes")
      .annotate(OpenApi.Summary, "Predict a product's attributes from its text and images")
      .annotate(OpenApi.Override, siteCredentialsOnly)
      .setPath(Schema.Struct({ productId: ProductId }))
      // A request without a body (read as null) asks for everything, like `{}` and `{"attributes": []}`.
      .setPayload(Schema.NullOr(PredictAttributesRequest.annotations({ parseOptions: { onExcessProperty: "error" } })))
      .addSuccess(PredictedAttributesResponse)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Predicts the product's attributes and each image's own attributes (color, adult, objects). An empty or " +
          "omitted `attributes` list (or no body) returns every predictable attribute: color, adult, " +
          "shopping_product_category, product_type, brand, gender, age_group, material, pattern. Unknown names → " +
          "400. `value` is the catalog's, `prediction` null without evidence, `confirmed` always null. The " +
          "prediction runs as a job; the request waits up to 10 s (then 503, retry)."
      )
  )
  .addError(BadRequest)
  .addError(Forbidden)
  .addError(ServiceUnavailable)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Attribute prediction for catalog enrichment: site (Basic) credentials only.") {}
