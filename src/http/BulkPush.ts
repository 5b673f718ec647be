import { isUtf8 } from "node:buffer"
import { HttpServerResponse, type HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Either, Fiber, Queue, Stream } from "effect"
import { patchedProduct } from "../model/MergePatch.js"
import { afterWrite, type WrittenProduct } from "../indexing/AfterWrite.js"
import type { ProductKey } from "../model/StoredProduct.js"
import { CatalogStore, type CatalogWrite, type CatalogWriteResult } from "../services/catalog-store/CatalogStore.js"
import { inSlices } from "../platform/YieldToIo.js"
import { chunksOf } from "../platform/Chunks.js"
import { foreground } from "../platform/Foreground.js"
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

/** A batch written to the store: its answers, and what its index step (AfterWrite) takes. */
interface StoredBatch {
  readonly answers: Array<BulkResult>
  /** The store refused the batch: its lines are answered 503, nothing of them was written. */
  readonly failed: boolean
  readonly products: ReadonlyArray<WrittenProduct>
  readonly removed: ReadonlyArray<ProductKey>
}

/**
 * One batch written: every valid line in one `writeMany` (in order, so of two lines for one
 * product the last wins), each product's final state kept for the index step; answers in line
 * order. A store failure answers the batch's lines 503 with nothing of them written, and ends
 * the request.
 */
const storeBatch = (siteId: number, lines: ReadonlyArray<ReadLine>) =>
  Effect.gen(function* (): Effect.fn.Return<StoredBatch, never, CatalogStore> {
    const store = yield* CatalogStore
    const answers: Array<BulkResult | undefined> = []
    const ops: Array<{ readonly at: number; readonly line: number; readonly op: BulkOperation }> = []
    // Decoding is synchronous work: searches arriving meanwhile are served between slices.
    yield* inSlices(lines, DECODE_SLICE, (slice) =>
      Effect.sync(() => {
        for (const read of slice) {
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
      })
    )
    const none = { products: [], removed: [] }
    if (ops.length === 0) return { answers: answers as Array<BulkResult>, failed: false, ...none }
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
      return { answers: answers as Array<BulkResult>, failed: true, ...none }
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
    return { answers: answers as Array<BulkResult>, failed: false, products, removed }
  })

const charsOf = (lines: ReadonlyArray<ReadLine>): number => {
  let chars = 0
  for (const line of lines) if ("text" in line) chars += line.text.length
  return chars
}

/**
 * How a push takes the process. Alone (no request someone waits on lately, Foreground.ts):
 * full batches, lines arriving while a batch is indexed gathered into the next, four index
 * steps at once, keeping Qdrant and the store busy. Shared: batches of up to 100 lines
 * written as they arrive, two steps at once, so the requests being served wait behind
 * shorter stretches of work (measured with a worker process beside: full batches then slowed
 * both the push and the searches).
 */
interface Share {
  readonly batchLines: number
  readonly inFlight: number
  readonly gathers: boolean
}
const ALONE: Share = { batchLines: BULK_LIMITS.batchLines, inFlight: 4, gathers: true }
const SHARED: Share = { batchLines: 100, inFlight: 2, gathers: false }
const share = (): Share => (foreground.lately() ? SHARED : ALONE)

/** Whether a batch holds as many lines, or characters, as one may. */
const isFull = (batch: ReadonlyArray<ReadLine>, batchLines: number): boolean =>
  batch.length >= batchLines || charsOf(batch) >= BULK_LIMITS.batchChars

/** `lines` cut into batches of at most `batchLines` lines and BULK_LIMITS.batchChars characters. */
const batches = (lines: ReadonlyArray<ReadLine>, batchLines: number): Array<ReadonlyArray<ReadLine>> =>
  chunksOf(lines, (line) => ("text" in line ? line.text.length : 0), BULK_LIMITS.batchChars, batchLines)

type BulkContext = CatalogStore | Effect.Effect.Context<ReturnType<typeof afterWrite>>

interface Indexing {
  readonly productIds: ReadonlySet<string>
  /** Indexes the batch, then answers it (after the batch before it). */
  readonly step: Fiber.RuntimeFiber<void>
}

/**
 * A push's batches whose index step runs while the next batches are decoded and stored: the
 * store's round trips, Qdrant's and the queue's overlap instead of adding up. Batches are
 * stored one after the other (the later line wins); answers leave in line order, each once its
 * batch is indexed. A batch touching a product still being indexed waits for that step first:
 * the index and the vocabulary then see one product's writes in order (a removal applied before
 * the put that preceded it would leave the product searchable).
 */
class BatchesInFlight {
  private readonly batches: Array<Indexing> = []

  constructor(private readonly out: Queue.Queue<Uint8Array | null>) {}

  add(stored: StoredBatch): Effect.Effect<void, never, BulkContext> {
    return Effect.gen(this, function* () {
      const productIds = new Set<string>()
      for (const written of stored.products) productIds.add(written.product.productId)
      for (const key of stored.removed) productIds.add(key.productId)
      while (
        this.batches.length >= share().inFlight ||
        this.batches.some((batch) => [...productIds].some((id) => batch.productIds.has(id)))
      )
        yield* this.finishOldest
      if (stored.failed) {
        yield* this.drain
        yield* Queue.offer(this.out, ndjson(stored.answers))
        return
      }
      // Answered once indexed, and after the batch before it.
      const before = this.batches.at(-1)?.step
      const step = yield* Effect.fork(
        afterWrite(stored.products, stored.removed).pipe(
          Effect.zipRight(before === undefined ? Effect.void : Fiber.join(before)),
          Effect.zipRight(Queue.offer(this.out, ndjson(stored.answers))),
          Effect.asVoid
        )
      )
      this.batches.push({ productIds, step })
    })
  }

  /** Whether some index step is still running. */
  get busy(): boolean {
    return this.running !== undefined
  }

  /** Completes once the oldest step still running has (at once when none runs). */
  get oldestDone(): Effect.Effect<void> {
    return Effect.suspend(() => {
      const running = this.running
      return running === undefined ? Effect.void : Effect.asVoid(Fiber.await(running.step))
    })
  }

  /** The oldest batch whose step has not ended (the ended ones are joined by `add` and `drain`). */
  private get running(): Indexing | undefined {
    return this.batches.find((batch) => batch.step.unsafePoll() === null)
  }

  /** Every batch indexed and answered. */
  get drain(): Effect.Effect<void> {
    return Effect.whileLoop({
      while: () => this.batches.length > 0,
      body: () => this.finishOldest,
      step: () => {}
    })
  }

  private get finishOldest(): Effect.Effect<void> {
    return Effect.suspend(() => {
      const batch = this.batches.shift()
      if (batch === undefined) return Effect.void
      return Fiber.join(batch.step)
    })
  }
}

const encoder = new TextEncoder()
const ndjson = (results: ReadonlyArray<BulkResult>): Uint8Array =>
  encoder.encode(results.map((r) => `${JSON.stringify(r)}\n`).join(""))

/**
 * POST /products/bulk for a site: reads the body as it arrives, in batches of the lines at hand
 * (at most BULK_LIMITS.batchLines), and answers each line once its batch is durable: the
 * response streams while the body is still being sent. Memory holds a few batches (the one
 * being stored, the ones being indexed; each at most BULK_LIMITS.batchChars) and the answers
 * not yet sent. A body cut off midway keeps the lines already answered; the batch being read
 * and the partial line are not written.
 */
export const bulkPush = (siteId: number, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    // Answers are small next to their lines; a client that sends everything before reading
    // (fetch with a streamed body) finds them waiting, so the queue is not bounded.
    const out = yield* Queue.unbounded<Uint8Array | null>()
    const context = yield* Effect.context<BulkContext>()
    const pump = Effect.gen(function* () {
      const reader = new LineReader()
      const iterator = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>
      let pending: Array<ReadLine> = []
      const indexing = new BatchesInFlight(out)
      // What has arrived, in batches of the share's size; `whole`: only full batches, the rest
      // kept for the lines that follow (a body streaming in fast is written in full batches,
      // whatever the size of the pieces it comes in).
      const flush = (batchLines: number, whole = false) =>
        Effect.gen(function* () {
          const all = batches(pending, batchLines)
          const last = all.at(-1)
          const kept = whole && last !== undefined && !isFull(last, batchLines) ? all.pop()! : []
          pending = [...kept]
          for (const batch of all) {
            const stored = yield* storeBatch(siteId, batch)
            yield* indexing.add(stored)
            if (stored.failed) return false
          }
          return true
        })
      // The next chunk of the body: asked for once, whichever of the waits below sees it first.
      let reading: Promise<IteratorResult<Buffer>> | undefined
      const chunk = () => (reading ??= iterator.next())
      const nextChunk = Effect.tryPromise(chunk).pipe(Effect.ensuring(Effect.sync(() => (reading = undefined))))
      const chunkArrived = Effect.promise(() =>
        chunk().then(
          () => true,
          () => true
        )
      )
      const readBody = Effect.gen(function* () {
        while (true) {
          const { batchLines, gathers } = share()
          // Alone, lines at hand while an index step runs wait for more lines, up to a full
          // batch (Qdrant and the store answer a request of 256 lines in about the time of one
          // of 70), or for a step to end, whichever comes first: they are never held for a body
          // that pauses, nor written in small batches when the body streams in fast.
          const gathering = gathers && indexing.busy
          if (pending.length > 0 && gathering) {
            const chunkFirst = yield* Effect.raceFirst(chunkArrived, Effect.as(indexing.oldestDone, false))
            if (!chunkFirst) {
              if (!(yield* flush(batchLines))) return
              continue
            }
          }
          const next = yield* Effect.either(nextChunk)
          // The client went away mid-body: what was answered stays, the batch at hand is dropped.
          if (Either.isLeft(next)) return
          if (next.right.done === true) {
            reader.end(pending)
            yield* flush(batchLines)
            return
          }
          reader.push(next.right.value, pending)
          if (reader.lines > BULK_LIMITS.lines) {
            const kept = pending.filter((l) => l.line <= BULK_LIMITS.lines)
            pending = kept
            yield* flush(batchLines)
            yield* indexing.drain
            yield* Queue.offer(out, ndjson([tooManyLines(BULK_LIMITS.lines + 1)]))
            return
          }
          // Written at once when a batch is full, or when the body has paused (and, alone, no
          // index step runs); otherwise read on (the wait above).
          if (isFull(pending, batchLines) || (incoming.readableLength === 0 && !gathering)) {
            if (!(yield* flush(batchLines, gathering))) return
          }
        }
      })
      yield* readBody.pipe(Effect.ensuring(indexing.drain))
    }).pipe(
      Effect.provide(context),
      Effect.catchAllCause((cause) => Effect.logError("bulk push failed", cause)),
      Effect.ensuring(Queue.offer(out, null))
    )
    yield* Effect.forkDaemon(pump)
    const body = Stream.fromQueue(out).pipe(Stream.takeWhile((chunk): chunk is Uint8Array => chunk !== null))
    return HttpServerResponse.stream(body, { contentType: "application/x-ndjson" })
  })
