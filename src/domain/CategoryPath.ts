import { Either, ParseResult, Schema } from "effect"

/**
 * Category paths (spec "Category paths"). The text form is "A > B > C"; on the wire every
 * path is the Base64-URL (unpadded) encoding of its normalized text form.
 *
 * A top-level category literally labelled "root" cannot be told apart from the root itself:
 * the spec gives no escape for it, so it reads as the root.
 */
const ROOT = "root"
/** The text form of the root: every product is under it. */
export const ROOT_PATH = ROOT
const ESCAPED_GT = /%3E/gi

/** Labels of a path, outermost first; the root is the empty list. */
export const parseCategoryPath = (text: string): ReadonlyArray<string> => {
  const labels = text
    .split(">")
    .map((label) => label.trim().replace(ESCAPED_GT, ">"))
    .filter((label) => label.length > 0)
  return labels.length === 1 && labels[0] === ROOT ? [] : labels
}

export const formatCategoryPath = (labels: ReadonlyArray<string>): string =>
  labels.length === 0 ? ROOT : labels.map((label) => label.trim().replaceAll(">", "%3E")).join(" > ")

/** One canonical text per path, so equal paths compare equal as strings. */
export const normalizeCategoryPath = (text: string): string => formatCategoryPath(parseCategoryPath(text))

/** Text form of every non-root prefix: ["A", "A > B", "A > B > C"]. */
export const categoryAncestors = (labels: ReadonlyArray<string>): ReadonlyArray<string> =>
  labels.map((_, i) => formatCategoryPath(labels.slice(0, i + 1)))

export const encodeCategoryPath = (text: string): string =>
  Buffer.from(normalizeCategoryPath(text), "utf8").toString("base64url")

const BASE64URL = /^[A-Za-z0-9_-]+$/
const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

export const invalidEncodedCategoryPath = "must be a Base64-URL (unpadded) encoded category path"

/** The normalized text form, or the reason the input is not an encoded category path. */
export const decodeCategoryPath = (encoded: string): Either.Either<string, string> => {
  if (!BASE64URL.test(encoded)) return Either.left(invalidEncodedCategoryPath)
  const bytes = Buffer.from(encoded, "base64url")
  // Node ignores stray trailing bits; re-encoding rejects every non-canonical spelling.
  if (bytes.toString("base64url") !== encoded) return Either.left(invalidEncodedCategoryPath)
  try {
    return Either.right(normalizeCategoryPath(strictUtf8.decode(bytes)))
  } catch {
    return Either.left(invalidEncodedCategoryPath)
  }
}

/** Wire: Base64-URL string. Type: normalized text form ("A > B"). */
export const EncodedCategoryPath = Schema.transformOrFail(Schema.String, Schema.String, {
  strict: true,
  decode: (encoded, _, ast) =>
    Either.match(decodeCategoryPath(encoded), {
      onLeft: (message) => ParseResult.fail(new ParseResult.Type(ast, encoded, message)),
      onRight: ParseResult.succeed
    }),
  encode: (text) => ParseResult.succeed(encodeCategoryPath(text))
}).annotations({ identifier: "EncodedCategoryPath" })
export type EncodedCategoryPath = typeof EncodedCategoryPath.Type

/**
 * A comma-separated list of paths (a product_type value). Base64-URL has no comma, so on the
 * wire the list is the encoded paths joined by ","; the type side is the text paths joined by ", ".
 */
export const EncodedCategoryPathList = Schema.transformOrFail(Schema.String, Schema.String, {
  strict: true,
  decode: (wire, _, ast) => {
    if (wire === "") return ParseResult.succeed("")
    const decoded = wire.split(",").map((part) => decodeCategoryPath(part.trim()))
    const failed = decoded.find(Either.isLeft)
    return failed
      ? ParseResult.fail(
          new ParseResult.Type(ast, wire, `must be a comma-separated list of paths that each ${failed.left}`)
        )
      : ParseResult.succeed(decoded.map((d) => Either.getOrThrow(d)).join(", "))
  },
  encode: (text) =>
    ParseResult.succeed(
      text
        .split(",")
        .filter((part) => part.trim().length > 0)
        .map(encodeCategoryPath)
        .join(",")
    )
}).annotations({ identifier: "EncodedCategoryPathList" })
