import { Either, ParseResult, Schema } from "effect"
import { ProductId } from "../domain/Catalog.js"
import { compiledDecoder } from "../domain/CompiledCheck.js"
import { describeIssues, describeParseError, type Issue, plainIssueMessage } from "../domain/IssueMessage.js"
import { PatchProductBody } from "../model/MergePatch.js"
import { ProductImagesField, ProductRecord } from "../domain/Product.js"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./JsonDepth.js"
import { unsafeTextIn } from "./TextIntegrity.js"

/**
 * POST /products/bulk: one operation per line of an NDJSON body, each validated like its
 * single-product counterpart (PUT, PATCH, DELETE /product/{id}).
 */
export const BULK_LIMITS = {
  /** A line longer than this is answered 413 and skipped; the lines after it are read as usual. */
  lineBytes: 1024 * 1024,
  /** Lines one request may hold; the rest of a longer body is not read (push it as another request). */
  lines: 1_000_000,
  /**
   * Most lines written in one store transaction and one index request (fewer when the body
   * arrives more slowly): Qdrant's own upsert is fastest in batches of about this size.
   */
  batchLines: 256,
  /**
   * Most characters of lines in one batch: with a few batches in flight (one stored while the
   * ones before it are indexed), a push of long lines holds a few of these, not 100 MiB each.
   */
  batchChars: 8 * 1024 * 1024
} as const

const PutLine = Schema.Struct({ id: ProductId, data: ProductRecord, images: ProductImagesField })
const PatchLine = Schema.Struct({ id: ProductId, patch: PatchProductBody })
const DeleteLine = Schema.Struct({ id: ProductId, delete: Schema.Literal(true) })

const strictly = { errors: "all", onExcessProperty: "error" } as const
const decodePut = compiledDecoder(PutLine, strictly)
const decodePatch = compiledDecoder(PatchLine, strictly)
const decodeDelete = compiledDecoder(DeleteLine, strictly)
const decodeId = compiledDecoder(ProductId)

export type BulkOperation =
  | {
      readonly _tag: "Put"
      readonly productId: string
      readonly data: ProductRecord
      readonly images: ReadonlyArray<{ readonly url: string }> | undefined
    }
  | { readonly _tag: "Patch"; readonly productId: string; readonly patch: PatchProductBody }
  | { readonly _tag: "Delete"; readonly productId: string }

/** A line's answer: the shapes PUT, PATCH and DELETE answer with, plus the line's number and status. */
export interface BulkResult {
  readonly line: number
  readonly status: number
  readonly message: string
  readonly data?: Readonly<Record<string, unknown>>
  readonly issues?: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>
}

const failure = (line: number, message: string, issues?: ReadonlyArray<Issue>, status = 400): BulkResult => ({
  line,
  status,
  message,
  ...(issues === undefined ? {} : { issues: issues.map((i) => ({ path: i.path, message: i.message })) })
})

const invalid = (line: number, error: ParseResult.ParseError): BulkResult => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error).map((i) => ({
    path: i.path,
    message: plainIssueMessage(i.message)
  }))
  return failure(line, describeIssues(issues, "line"), issues)
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** One line of the body, its operation or the answer that refuses it (naming the field and rule). */
export const decodeBulkLine = (line: number, text: string, utf8 = true): Either.Either<BulkOperation, BulkResult> => {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    return Either.left(
      failure(line, `line: JSON must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`)
    )
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return Either.left(failure(line, `line: not JSON (${e instanceof Error ? e.message : String(e)})`))
  }
  if (!isObject(value)) {
    return Either.left(
      failure(
        line,
        `line: must be an object: {"id", "data", "images"} to create or replace, ` +
          `{"id", "patch"} to change, {"id", "delete": true} to delete`
      )
    )
  }
  const unsafe = unsafeTextIn(text, utf8)
  if (unsafe !== undefined) return Either.left(failure(line, unsafe.replace(/^body/, "line")))
  if (!("id" in value)) return Either.left(failure(line, "id: is missing", [{ path: ["id"], message: "is missing" }]))
  const id = decodeId(value.id)
  if (Either.isLeft(id)) {
    const message = describeParseError(id.left)
    return Either.left(failure(line, `id: ${message}`, [{ path: ["id"], message }]))
  }
  if ("delete" in value) {
    return Either.mapBoth(decodeDelete(value), {
      onLeft: (e) => invalid(line, e),
      onRight: (op) => ({ _tag: "Delete" as const, productId: op.id })
    })
  }
  if ("patch" in value) {
    return Either.mapBoth(decodePatch(value), {
      onLeft: (e) => invalid(line, e),
      onRight: (op) => ({ _tag: "Patch" as const, productId: op.id, patch: op.patch })
    })
  }
  return Either.mapBoth(decodePut(value), {
    onLeft: (e) => invalid(line, e),
    onRight: (op) => ({ _tag: "Put" as const, productId: op.id, data: op.data, images: op.images })
  })
}

/** A line over BULK_LIMITS.lineBytes. */
export const overlongLine = (line: number): BulkResult =>
  failure(line, `line: over the limit of ${BULK_LIMITS.lineBytes} bytes; skipped`, undefined, 413)

/** The answer after the last line a request may hold. */
export const tooManyLines = (line: number): BulkResult =>
  failure(
    line,
    `a bulk request holds at most ${BULK_LIMITS.lines} lines; this line and the rest of the body were not ` +
      `read (send them as another request)`,
    undefined,
    413
  )
