import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * Every failure the API can answer with. The HTTP status lives on the schema, so the
 * mapping from error to response is declared once, here, and the OpenAPI document shows it.
 */
export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 401 })
) {}

export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 403 })
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()(
  "ServiceUnavailable",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 503 })
) {}

/**
 * Spec: "Product save or publish failure": message, data {site-id, product-id, data}, debug.
 * Only a backend failure gets here (bad input is a 400 before the store is asked), and those
 * pass, so it is a 503 with Retry-After: the merchant's push tool should retry, not give up.
 */
export class ProductSaveFailure extends Schema.TaggedError<ProductSaveFailure>()(
  "ProductSaveFailure",
  {
    message: Schema.String,
    data: Schema.Struct({
      "site-id": Schema.Number,
      "product-id": Schema.String,
      data: Schema.Unknown
    }),
    debug: Schema.String
  },
  HttpApiSchema.annotations({ status: 503 })
) {}

/** Spec: "No image found for product on delete" and "Image delete failure". */
export class ImageDeleteFailure extends Schema.TaggedError<ImageDeleteFailure>()(
  "ImageDeleteFailure",
  {
    message: Schema.String,
    data: Schema.Struct({ "site-id": Schema.Number, "image-id": Schema.String }),
    debug: Schema.optional(Schema.String)
  },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Over the caller's rate limit: Retry-After (set from `retryAfterSeconds`) says when to come back. */
export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()(
  "TooManyRequests",
  { message: Schema.String, retryAfterSeconds: Schema.Int },
  HttpApiSchema.annotations({ status: 429 })
) {}

/** An image over the size limit. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 413 })
) {}

/** Data that is not a JPEG, PNG, WebP or GIF image, or is corrupt. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 415 })
) {}

/** A well-formed image we refuse to process (a decompression bomb). */
export class UnprocessableImage extends Schema.TaggedError<UnprocessableImage>()(
  "UnprocessableImage",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 422 })
) {}

/** The image server behind a `url` failed or answered with something unusable. */
export class BadGateway extends Schema.TaggedError<BadGateway>()(
  "BadGateway",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 502 })
) {}

export class GatewayTimeout extends Schema.TaggedError<GatewayTimeout>()(
  "GatewayTimeout",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 504 })
) {}
