import { Either, Schema } from "effect"
import { SetProductBody } from "./Catalog.js"
import { describeParseError } from "./IssueMessage.js"
import type { StoredProduct } from "../model/StoredProduct.js"

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** RFC 7396 JSON merge patch: objects merge member by member, `null` removes a member, anything else replaces. */
export const applyMergePatch = (target: unknown, patch: unknown): unknown => {
  if (!isObject(patch)) return patch
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key]
    else result[key] = applyMergePatch(result[key], value)
  }
  return result
}

/**
 * PATCH /product/{product-id}: a merge patch of the product as PUT takes it, `{data, images}`.
 * `data` members merge into the record (`null` removes a field); `images` replaces the list
 * (`null` or `[]` removes them all). What results must be a valid product, checked like a PUT.
 */
export const PatchProductBody = Schema.Struct({
  data: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description: "Fields to set on the product record; a field set to null is removed"
  })),
  images: Schema.optional(Schema.NullOr(Schema.Array(Schema.Unknown)).annotations({
    description: "The new image list, replacing the stored one; null removes every image"
  }))
}).annotations({ identifier: "PatchProductBody" })
export type PatchProductBody = typeof PatchProductBody.Type

const decodeBody = Schema.decodeUnknownEither(SetProductBody, { errors: "all", onExcessProperty: "error" })

/** The product after the patch, as a PUT body, or the message naming each field the result breaks. */
export const patchedProduct = (current: StoredProduct, patch: PatchProductBody): Either.Either<SetProductBody, string> => {
  const merged = applyMergePatch(
    { data: current.data, images: current.images.map((image) => ({ url: image.url })) },
    { ...patch, ...(patch.images === null ? { images: [] } : {}) }
  )
  return Either.mapLeft(decodeBody(merged), (error) => describeParseError(error, "body"))
}
