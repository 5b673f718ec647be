import { Either, Schema } from "effect"
import { SetProductBody } from "../domain/Catalog.js"
import { compiledDecoder } from "../domain/CompiledCheck.js"
import { describeParseError } from "../domain/IssueMessage.js"
import type { StoredProduct } from "./StoredProduct.js"

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
  data: Schema.optional(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
      description: "Fields to set on the product record; a field set to null is removed"
    })
  ),
  images: Schema.optional(
    Schema.NullOr(Schema.Array(Schema.Unknown)).annotations({
      description: "The new image list, replacing the stored one; null removes every image"
    })
  )
}).annotations({ identifier: "PatchProductBody" })
export type PatchProductBody = typeof PatchProductBody.Type

/** One decoder for every field set a patch holds: the compiled check passes the absent fields in cheaply. */
const decodeBody = compiledDecoder(SetProductBody, { errors: "all", onExcessProperty: "error" })

/**
 * The product after the patch, as a PUT body, or the message naming each field the result
 * breaks. Only what the patch sets is checked: the rest of the record was checked when it was
 * stored, and a record's rules are per field (checking the whole record again would make a price
 * patch cost several times its write). `images` is absent when the patch leaves them alone.
 */
export const patchedProduct = (
  current: StoredProduct,
  patch: PatchProductBody
): Either.Either<SetProductBody, string> => {
  const data = (applyMergePatch(current.data, patch.data ?? {}) ?? {}) as Record<string, unknown>
  const set = Object.keys(patch.data ?? {}).filter((field) => field in data)
  const checked: Record<string, unknown> = { data: Object.fromEntries(set.map((field) => [field, data[field]])) }
  if (patch.images !== undefined) {
    checked.images = applyMergePatch(
      current.images.map((image) => ({ url: image.url })),
      patch.images === null ? [] : patch.images
    )
  }
  return Either.mapBoth(decodeBody(checked), {
    onLeft: (error) => describeParseError(error, "body"),
    onRight: (valid) => ({
      data: { ...data, ...valid.data } as SetProductBody["data"],
      ...(valid.images === undefined ? {} : { images: valid.images })
    })
  })
}
