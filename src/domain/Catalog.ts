import { Schema } from "effect"
import { maxChars, ProductImagesField, ProductRecord } from "./Product.js"

/** The {product-id} path parameter: it must survive a round trip through a URL path segment. */
export const ProductId = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  maxChars(200),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the rule refuses
  Schema.filter((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: () => "must not contain control characters" }),
  Schema.filter((s) => !s.includes("/"), { message: () => 'must not contain "/"' }),
  // A client normalises /product/.. to /, so such an id could never be read back.
  Schema.filter((s) => s !== "." && s !== "..", { message: () => 'must not be "." or ".."' })
).annotations({ identifier: "ProductId" })
export type ProductId = typeof ProductId.Type

/**
 * PUT /product/{product-id}. `images` omitted keeps the stored images unchanged (an update of
 * the record alone); `images: []` removes them all; a list replaces them.
 */
export const SetProductBody = Schema.Struct({
  data: ProductRecord,
  images: ProductImagesField
}).annotations({ identifier: "SetProductBody" })
export type SetProductBody = typeof SetProductBody.Type

export const SiteId = Schema.Int

export const SetProductResponse = Schema.Struct({
  message: Schema.String,
  data: Schema.Struct({
    "site-id": SiteId,
    "product-id": Schema.String,
    data: ProductRecord
  })
}).annotations({ identifier: "SetProductResponse" })
export type SetProductResponse = typeof SetProductResponse.Type

export const DeleteProductResponse = Schema.Struct({
  message: Schema.String,
  data: Schema.Struct({
    "site-id": SiteId,
    "product-id": Schema.String,
    "image-ids": Schema.Array(Schema.String)
  })
}).annotations({ identifier: "DeleteProductResponse" })
export type DeleteProductResponse = typeof DeleteProductResponse.Type

/** GET /product/{id} (an extension of the spec): the record as stored, its images and indexing state. */
export const GetProductResponse = Schema.Struct({
  data: Schema.Struct({
    "site-id": SiteId,
    "product-id": Schema.String,
    data: ProductRecord,
    images: Schema.Array(Schema.Struct({ id: Schema.String, url: Schema.String })),
    updatedAt: Schema.String
  })
}).annotations({ identifier: "GetProductResponse" })
export type GetProductResponse = typeof GetProductResponse.Type

/** GET /catalog/health: what a merchant checks first (see CatalogHandlers). */
export const CatalogHealth = Schema.Struct({
  products: Schema.Int,
  /** When a product was last created or changed (ISO 8601); null before any. */
  lastProductWrite: Schema.NullOr(Schema.String),
  pendingJobs: Schema.Int,
  failedImages: Schema.Struct({
    /** Products with at least one failed image. */
    products: Schema.Int,
    images: Schema.Array(Schema.Struct({ productId: Schema.String, url: Schema.String, reason: Schema.String }))
  })
}).annotations({ identifier: "CatalogHealth" })
export type CatalogHealth = typeof CatalogHealth.Type
