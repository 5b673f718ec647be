import { isUtf8 } from "node:buffer"
import { HttpServerResponse, type HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Either, Queue, Stream } from "effect"
import { patchedProduct } from "../model/MergePatch.js"
import { afterWrite, type WrittenProduct } from "../indexing/AfterWrite.js"
import type { ProductKey } from "../model/StoredProduct.js"
import { CatalogStore, type CatalogWrite, type CatalogWriteResult } from "../services/catalog-store/CatalogStore.js"
import { yieldToIo } from "../platform/YieldToIo.js"
import { unappliedWrite } from "./ErrorMapping.js"
import {
  BULK_LIMITS,
  type BulkOperation,
  type BulkResult,
  decodeBulkLine,
  overlongLine,
  tooManyLines
} from "./BulkLine.js"

/** A line of the body as read: its text, or why it was not kept. */
type ReadLine =
  | { readonly line: number; readonly text: string; readonly utf8: boolean }
  | { readonly line: number; readonly overlong: true }

const NEWLINE = 0x0a

/** Lines decoded between two chances for other requests to run (a few milliseconds of work). */
const DECODE_SLICE = 50

/**
 * Splits a byte stream into lines without holding more than one line (up to the limit) at a
 * time: an overlong line is dropped as it arrives and reported, the lines after it read on.
 */
class LineReader {
  private parts: Array<Buffer> = []
  private bytes = 0
  private overlong = false
  private number = 0
  private readonly decoder = new TextDecoder("utf-8")

  /** The lines `chunk` completes. */
  push(chunk: Buffer, out: Array<ReadLine>): void {
    let start = 0
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, end))
      this.finish(out)
      start = end + 1
    }
    if (start < chunk.length) this.take(chunk.subarray(start))
  }

  /** The last line, when the body does not end with a newline. */
  end(out: Array<ReadLine>): void {
    if (this.bytes > 0 || this.overlong) this.finish(out)
  }

  get lines(): number {
    return this.number
  }

  private take(part: Buffer): void {
    if (this.overlong) return
    this.bytes += part.length
    if (this.bytes > BULK_LIMITS.lineBytes) {
      this.overlong = true
      this.parts = []
      return
    }
    if (part.length > 0) this.parts.push(Buffer.from(part))
  }

  private finish(out: Array<ReadLine>): void {
    const line = ++this.number
    if (this.overlong) {
      out.push({ line, overlong: true })
    } else {
      // Bytes that are not UTF-8 become U+FFFD, which the line's text check then refuses.
      const bytes = Buffer.concat(this.parts)
      const text = this.decoder.decode(bytes).replace(/\r$/, "")
      // Blank lines (a trailing newline, spacing) are numbered but need no answer.
      if (text.trim() !== "") out.push({ line, text, utf8: isUtf8(bytes) })
    }
    this.parts = []
    this.bytes = 0
    this.overlong = false
  }
}

const toWrite = (op: BulkOperation): CatalogWrite => {
  switch (op._tag) {
    case "Put":
      return { _tag: "Put", productId: op.productId, data: op.data, images: op.images }
    case "Patch":
      return { _tag: "Modify", productId: op.productId, modify: (current) => patchedProduct(current, op.patch) }
    case "Delete":
      return { _tag: "Remove", productId: op.productId }
  }
}

/** A written line's answer, as PUT, PATCH and DELETE answer (without echoing the record). */
const answer = (siteId: number, line: number, op: BulkOperation, result: CatalogWriteResult): BulkResult => {
  const product = { "site-id": siteId, "product-id": op.productId }
  switch (result._tag) {
    case "Written":
      return { line, status: 200, message: result.created ? "product created" : "product updated", data: product }
    case "Removed":
      return {
        line,
        status: 200,
        message: "product deleted",
        data: { ...product, "image-ids": result.product.images.map((i) => i.id) }
      }
    default: {
      const { error, status } = unappliedWrite(siteId, op.productId, toWrite(op)._tag, result)
      return { line, status, message: error.message }
    }
  }
}

/**
 * One batch: every valid line written in one `writeMany` (in order, so of two lines for one
 * product the last wins), then the products' final states indexed at once and queued for
 * embedding (AfterWrite); answers in line order. A store failure answers the batch's lines 503
 * with nothing of them written, and ends the request.
 */
const applyBatch = (siteId: number, lines: ReadonlyArray<ReadLine>) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const answers: Array<BulkResult | undefined> = []
    const ops: Array<{ readonly at: number; readonly line: number; readonly op: BulkOperation }> = []
    for (const [k, read] of lines.entries()) {
      // Decoding is synchronous work: searches arriving meanwhile are served between slices.
      if (k > 0 && k % DECODE_SLICE === 0) yield* yieldToIo
      if ("overlong" in read) {
        answers.push(overlongLine(read.line))
        continue
      }
      const decoded = decodeBulkLine(read.line, read.text, read.utf8)
      if (Either.isLeft(decoded)) {
        answers.push(decoded.left)
      } else {
        ops.push({ at: answers.length, line: read.line, op: decoded.right })
        answers.push(undefined)
      }
    }
    if (ops.length === 0) return { answers: answers as Array<BulkResult>, failed: false }
    const written = yield* Effect.either(
      store.writeMany(
        siteId,
        ops.map(({ op }) => toWrite(op))
      )
    )
    if (Either.isLeft(written)) {
      yield* Effect.logWarning("bulk batch not written", written.left)
      for (const { at, line } of ops)
        answers[at] = {
          line,
          status: 503,
          message: "the catalog store is unavailable; this line was not written (retry it)"
        }
      return { answers: answers as Array<BulkResult>, failed: true }
    }
    // Each product's last state; the index refuses a change of columns based on a version it
    // does not hold (a line before in this batch), so the last write's own previous serves.
    const final = new Map<string, WrittenProduct | null>()
    ops.forEach(({ at, line, op }, i) => {
      const result = written.right[i]
      answers[at] = answer(siteId, line, op, result)
      if (result._tag === "Written") {
        // Of two lines for one product, the product was created if the first one created it.
        const created = result.created || final.get(op.productId)?.created === true
        final.set(op.productId, { product: result.product, previous: result.previous, created })
      } else if (result._tag === "Removed") final.set(op.productId, null)
    })
    const products: Array<WrittenProduct> = []
    const removed: Array<ProductKey> = []
    for (const [productId, product] of final) {
      if (product === null) removed.push({ siteId, productId })
      else products.push(product)
    }
    yield* afterWrite(products, removed)
    return { answers: answers as Array<BulkResult>, failed: false }
  })

const encoder = new TextEncoder()
const ndjson = (results: ReadonlyArray<BulkResult>): Uint8Array =>
  encoder.encode(results.map((r) => `${JSON.stringify(r)}\n`).join(""))

/**
 * POST /products/bulk for a site: reads the body as it arrives, in batches of the lines at hand
 * (at most BULK_LIMITS.batchLines), and answers each line once its batch is durable: the
 * response streams while the body is still being sent. Memory holds one batch and the answers
 * not yet sent. A body cut off midway keeps the lines already answered; the batch being read
 * and the partial line are not written.
 */
export const bulkPush = (siteId: number, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    // Answers are small next to their lines; a client that sends everything before reading
    // (fetch with a streamed body) finds them waiting, so the queue is not bounded.
    const out = yield* Queue.unbounded<Uint8Array | null>()
    const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof applyBatch>>>()
    const pump = Effect.gen(function* () {
      const reader = new LineReader()
      const iterator = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>
      let pending: Array<ReadLine> = []
      // What has arrived, written in batches of at most BULK_LIMITS.batchLines.
      const flush = Effect.gen(function* () {
        const lines = pending
        pending = []
        for (let i = 0; i < lines.length; i += BULK_LIMITS.batchLines) {
          const { answers, failed } = yield* applyBatch(siteId, lines.slice(i, i + BULK_LIMITS.batchLines))
          yield* Queue.offer(out, ndjson(answers))
          if (failed) return false
        }
        return true
      })
      while (true) {
        const next = yield* Effect.either(Effect.tryPromise(() => iterator.next()))
        // The client went away mid-body: what was answered stays, the batch at hand is dropped.
        if (Either.isLeft(next)) return
        if (next.right.done === true) {
          reader.end(pending)
          yield* flush
          return
        }
        reader.push(next.right.value, pending)
        if (reader.lines > BULK_LIMITS.lines) {
          const kept = pending.filter((l) => l.line <= BULK_LIMITS.lines)
          pending = kept
          yield* flush
          yield* Queue.offer(out, ndjson([tooManyLines(BULK_LIMITS.lines + 1)]))
          return
        }
        // Whatever has arrived is written together: big batches when the body streams in fast.
        if (pending.length >= BULK_LIMITS.batchLines || incoming.readableLength === 0) {
          if (!(yield* flush)) return
        }
      }
    }).pipe(
      Effect.provide(context),
      Effect.catchAllCause((cause) => Effect.logError("bulk push failed", cause)),
      Effect.ensuring(Queue.offer(out, null))
    )
    yield* Effect.forkDaemon(pump)
    const body = Stream.fromQueue(out).pipe(Stream.takeWhile((chunk): chunk is Uint8Array => chunk !== null))
    return HttpServerResponse.stream(body, { contentType: "application/x-ndjson" })
  })
