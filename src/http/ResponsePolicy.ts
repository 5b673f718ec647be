import { isUtf8 } from "node:buffer"
import { Headers, HttpLayerRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import type { FileSystem, Path } from "@effect/platform"
import type { RequestError } from "@effect/platform/HttpServerError"
import type { MultipartError } from "@effect/platform/Multipart"
import { Cause, Data, Deferred, Effect, Exit, Option, type Scope } from "effect"
import { randomUUID } from "node:crypto"
import type { Readable } from "node:stream"
import { CurrentTimings, Timings } from "../platform/ServerTiming.js"
import { foreground } from "../platform/Foreground.js"
import { describeIssues, plainIssueMessage } from "../domain/IssueMessage.js"
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./JsonDepth.js"
import { malformedPercentEncoding, unsafeTextIn } from "./TextIntegrity.js"
import { WWW_AUTHENTICATE } from "../services/auth/Auth.js"
import { loggableUrl } from "../mcp/ProtectedResource.js"
import { IN_SEARCH_REPLICA, replicaPeer } from "../services/search-replica/SearchReplica.js"

interface DecodeIssue {
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

/** The issues of a decode error as the wire shows them: path and plain message. */
const wireIssues = (issues: ReadonlyArray<DecodeIssue>): Array<DecodeIssue> =>
  issues.map((i) => ({ path: i.path, message: plainIssueMessage(i.message) }))

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(body, { status, headers })

/**
 * How long a client should wait before retrying a 503. Every 503 is transient by design (a
 * backend restarting or failing over, a replica still starting, a prediction still running),
 * and a few seconds lets most of those pass without clients hammering a recovering backend.
 */
export const RETRY_AFTER_SECONDS = 5

/**
 * The rules every response follows, applied once for all routes:
 * a request id on every response and log line, the WWW-Authenticate header on 401,
 * Server-Timing where stages were timed,
 * Retry-After on 503, 413 for bodies over the limit, and a plain `message` naming field and
 * rule for schema errors.
 */
export const responsePolicy = (maxBodyBytes: number) =>
  HttpLayerRouter.middleware(
    (httpEffect) =>
      Effect.gen(function* () {
        const request = viaReplica(asJson(yield* HttpServerRequest.HttpServerRequest))
        const started = Date.now()
        const requestId = request.headers["x-request-id"] ?? randomUUID()
        const length = Number(request.headers["content-length"] ?? "0")
        const path = request.url.split("?")[0]
        if (length > maxBodyBytes && !streamsBody(path)) {
          return json(
            413,
            { message: `request body is ${length} bytes; the limit is ${maxBodyBytes}` },
            { "x-request-id": requestId }
          )
        }
        const timings = new Timings()
        // A bulk push is the background work the others go ahead of (see Foreground); probes
        // and metrics scrapes wait on nobody.
        const waitedOn = !streamsBody(path) && !OPERATIONS_PATHS.has(path)
        if (waitedOn) foreground.begin()
        const response = yield* Effect.zipRight(rejectUnreadableBody(request, maxBodyBytes), httpEffect).pipe(
          Effect.ensuring(Effect.sync(() => waitedOn && foreground.end())),
          Effect.provideService(HttpServerRequest.HttpServerRequest, request),
          // Failures the platform raises before any handler runs become JSON answers here
          // (an unreadable body surfaces as a defect of the request decoder, hence the cause).
          Effect.catchAllCause((cause) => {
            const error = Cause.squash(cause) as { readonly _tag?: string; readonly reason?: string }
            const tag = error?._tag
            if (tag === "RouteNotFound") {
              // The router gives up on escapes that are not UTF-8; the caller's mistake is the path, not the route.
              return Effect.succeed(
                malformedPercentEncoding(path)
                  ? json(400, { message: `path: ${path} holds percent-escapes that are not UTF-8` })
                  : json(404, { message: `no route ${request.method} ${path}` })
              )
            }
            if (tag === "RequestError") return Effect.succeed(json(400, { message: emptyErrorMessages[400] }))
            if (tag === "UnreadableBody")
              return Effect.succeed(
                json((error as UnreadableBody).status, { message: (error as UnreadableBody).message })
              )
            if (tag === "MultipartError") {
              return Effect.succeed(
                json(error.reason === "BodyTooLarge" || error.reason === "FileTooLarge" ? 413 : 400, {
                  message: `body: not a readable multipart/form-data body (${error.reason})`
                })
              )
            }
            // Anything else is our defect: the platform answers 500; the log says which request.
            return Effect.zipRight(
              Effect.logError("request failed").pipe(
                Effect.annotateLogs({
                  method: request.method,
                  url: loggableUrl(request.url),
                  status: 500,
                  cause: Cause.pretty(cause)
                })
              ),
              Effect.failCause(cause)
            )
          }),
          HttpServerRequest.withMaxBodySize(Option.some(maxBodyBytes)),
          Effect.annotateLogs({ requestId }),
          Effect.locally(CurrentTimings, timings)
        )
        const final = yield* finalize(response).pipe(
          Effect.map(withRetryAfter),
          Effect.map(withServerTiming(timings)),
          Effect.map(HttpServerResponse.setHeader("x-request-id", requestId))
        )
        yield* Effect.logInfo("request").pipe(
          Effect.annotateLogs({
            requestId,
            method: request.method,
            url: loggableUrl(request.url),
            status: final.status,
            ms: Date.now() - started
          })
        )
        return final
      }),
    { global: true }
  )

const finalize = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.map(documentedError(response), (final) =>
    // A route that challenges in its own terms (/mcp names its resource metadata) keeps its header.
    final.status === 401 && final.headers["www-authenticate"] === undefined
      ? HttpServerResponse.setHeader(final, "www-authenticate", WWW_AUTHENTICATE)
      : final
  )

/**
 * An error response in its documented shape: plain issues, no Effect tags, a message even when the
 * platform gave no body.
 */
const documentedError = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.sync(() => {
    if (response.status >= 400 && response.body._tag === "Uint8Array") {
      const body = safeParse(new TextDecoder().decode(response.body.body))
      if (response.status === 400 && body?._tag === "HttpApiDecodeError" && Array.isArray(body.issues)) {
        const issues = wireIssues(body.issues as ReadonlyArray<DecodeIssue>)
        return json(400, { message: describeIssues(issues), issues }, headersOf(response))
      }
      // Error bodies are the documented shapes: Effect's error tag is not one of their fields.
      if (body !== undefined && "_tag" in body && typeof body.message === "string") {
        const { _tag: _, ...documented } = body
        // A 429 says when to come back in the header clients and proxies read, too.
        const retry: Record<string, string> =
          response.status === 429 && typeof body.retryAfterSeconds === "number"
            ? { "retry-after": String(body.retryAfterSeconds) }
            : {}
        return json(response.status, documented, { ...headersOf(response), ...retry })
      }
    }
    if (response.status >= 400 && response.body._tag === "Empty") {
      return json(
        response.status,
        { message: emptyErrorMessages[response.status] ?? `request failed with status ${response.status}` },
        headersOf(response)
      )
    }
    return response
  })

/**
 * JSON sent under another name (application/merge-patch+json for PATCH, application/vnd.api+json)
 * is JSON to the API, but the platform reads only types containing "application/json" as JSON
 * and would read any other body a second time, as bytes, from a stream already read: the
 * request would never be answered. Such a request goes on labelled application/json.
 */
/** A request a search replica passed on is the client's: its address is the client's, not the replica's. */
const viaReplica = (request: HttpServerRequest.HttpServerRequest) => {
  const peer = replicaPeer(NodeHttpServerRequest.toIncomingMessage(request))
  return peer === undefined ? request : request.modify({ remoteAddress: peer })
}

const asJson = (request: HttpServerRequest.HttpServerRequest) => {
  const type = (request.headers["content-type"] ?? "").toLowerCase()
  return JSON_TYPE.test(type) && !type.includes("application/json")
    ? request.modify({ headers: Headers.set(request.headers, "content-type", "application/json") })
    : request
}

class UnreadableBody extends Data.TaggedError("UnreadableBody")<{
  readonly status: 400 | 413 | 415
  readonly message: string
}> {}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/**
 * Routes whose bodies are not JSON: the deprecated session endpoints take multipart forms or
 * raw images, the bulk endpoint NDJSON (its handler checks the type).
 */
const takesOtherBodies = (path: string) => path.startsWith("/search/session") || streamsBody(path)

/**
 * The bulk endpoint reads its body as a stream, line by line, so no body limit applies to it (its
 * lines have theirs).
 */
const streamsBody = (path: string) => path === "/products/bulk"

/** Requests of the operators' tools (probes, scrapes), which no shopper waits on. */
const OPERATIONS_PATHS = new Set(["/healthz", "/readyz", "/metrics"])

/**
 * Bodies refused before anything parses them: a body that is not JSON on a JSON route (the
 * platform would read a form as fields, and quote an untyped body whole in its error); JSON
 * nested past MAX_JSON_DEPTH or holding text no store should (TextIntegrity) — the request's
 * text is read once and kept by the platform, so the handler reads the same text; a multipart
 * body whose content type names no boundary, or that never ends.
 */
const rejectUnreadableBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBodyBytes: number
): Effect.Effect<
  void,
  UnreadableBody | RequestError | MultipartError,
  Scope.Scope | FileSystem.FileSystem | Path.Path
> => {
  const type = request.headers["content-type"] ?? ""
  if (/^multipart\//i.test(type) && !/;\s*boundary=[^;\s]/i.test(type)) {
    return Effect.fail(
      new UnreadableBody({
        status: 400,
        message: "content-type: a multipart body needs its boundary parameter (multipart/form-data; boundary=...)"
      })
    )
  }
  if (/^multipart\//i.test(type)) return completeMultipart(request)
  const sendsBody =
    Number(request.headers["content-length"] ?? "0") > 0 || request.headers["transfer-encoding"] !== undefined
  if (sendsBody && request.method !== "GET" && !takesOtherBodies(request.url.split("?")[0]) && !JSON_TYPE.test(type)) {
    return Effect.fail(
      new UnreadableBody({
        status: 415,
        message: `content-type: must be application/json, not ${type === "" ? "missing" : type.split(";")[0]}`
      })
    )
  }
  if (!JSON_TYPE.test(type)) return Effect.void
  return Effect.flatMap(boundedText(request, maxBodyBytes), ({ text, utf8 }) => {
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return Effect.fail(
        new UnreadableBody({
          status: 400,
          message: `body: JSON must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`
        })
      )
    }
    const unsafe = unsafeTextIn(text, utf8)
    return unsafe === undefined ? Effect.void : Effect.fail(new UnreadableBody({ status: 400, message: unsafe }))
  })
}

/**
 * The request's text and whether its bytes were UTF-8. The bytes are read through the platform
 * and decoded here, and the text is kept on the request as the body the handler reads (the
 * platform's own text decoding would turn bytes that are not UTF-8 into U+FFFD, which a
 * catalog may also hold as a real character). One change besides: a body that outgrows the
 * limit while arriving (chunked, so no Content-Length said so first) is drained instead of
 * destroyed. The platform destroys it, which resets the connection before
 * any answer; drained, the client reads its 413 and the connection stays usable (the HTTP
 * parser knows where the chunked body ends). Node's requestTimeout bounds the drain.
 */
const boundedText = (
  request: HttpServerRequest.HttpServerRequest,
  maxBodyBytes: number
): Effect.Effect<{ readonly text: string; readonly utf8: boolean }, UnreadableBody | RequestError> =>
  Effect.suspend(() => {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    const destroy = incoming.destroy
    let overflowed = false
    incoming.destroy = function (this: typeof incoming, error?: Error) {
      if (incoming.complete) return destroy.call(this, error)
      overflowed = true
      incoming.resume()
      return this
    }
    return request.arrayBuffer.pipe(
      Effect.map((bytes) => {
        const utf8 = isUtf8(bytes)
        const text = Buffer.from(bytes).toString("utf8")
        // The handler's json/text read this instead of the consumed stream.
        Object.defineProperty(request, "text", { value: Effect.succeed(text), configurable: true })
        return { text, utf8 }
      }),
      Effect.catchAll(
        (error): Effect.Effect<never, UnreadableBody | RequestError> =>
          overflowed
            ? Effect.fail(
                new UnreadableBody({ status: 413, message: `request body is over the limit of ${maxBodyBytes} bytes` })
              )
            : Effect.fail(error)
      ),
      Effect.ensuring(Effect.sync(() => (incoming.destroy = destroy)))
    )
  })

/**
 * How long a multipart parse may go on after the body has been read to its end: only the last
 * part's file write is left then. The parser waits forever for a closing boundary that a
 * truncated body never sends, so this bounds the wait.
 */
const MULTIPART_END_GRACE_MS = 5_000

/**
 * Parses a multipart body up front (the platform keeps the parsed form for the handler), and
 * answers 400 when the body ends without its closing boundary instead of never answering. The
 * parser (multipasta) does not fail on such a body: it waits forever on the unfinished file
 * part, holding the temporary file open, and the platform's cached parse does not yield to
 * interruption. So the request waits for whichever comes first, the parsed form or the
 * watchdog, and the watchdog fails the parser and its open file parts itself, which ends the
 * parse and closes the file.
 */
const completeMultipart = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    // The platform pipes the body into its parser; keep hold of the parser and its file parts.
    const parsers: Array<NodeJS.WritableStream & { destroy(error?: Error): void }> = []
    const files: Array<Readable> = []
    const pipe = incoming.pipe
    incoming.pipe = function <T extends NodeJS.WritableStream>(
      this: typeof incoming,
      destination: T,
      options?: { end?: boolean }
    ) {
      // biome-ignore lint/suspicious/noExplicitAny: the multipart parser's stream type is not exported
      parsers.push(destination as any)
      ;(destination as unknown as NodeJS.EventEmitter).on("file", (file: Readable) => files.push(file))
      return pipe.call(this, destination, options) as T
    }
    const outcome = yield* Deferred.make<void, UnreadableBody | MultipartError>()
    yield* Effect.forkDaemon(Effect.intoDeferred(Effect.asVoid(request.multipart), outcome))
    let timer: NodeJS.Timeout | undefined
    const onEnd = () => {
      timer = setTimeout(() => {
        const truncated = new UnreadableBody({
          status: 400,
          message: "body: the multipart body ended before its closing boundary"
        })
        Deferred.unsafeDone(outcome, Exit.fail(truncated))
        const cause = new Error(truncated.message)
        for (const file of files) if (!file.readableEnded) file.destroy(cause)
        for (const parser of parsers) parser.destroy(cause)
      }, MULTIPART_END_GRACE_MS)
    }
    if (incoming.readableEnded) onEnd()
    else incoming.once("end", onEnd)
    return yield* Deferred.await(outcome).pipe(
      Effect.ensuring(
        Effect.sync(() => {
          incoming.off("end", onEnd)
          clearTimeout(timer)
          incoming.pipe = pipe
        })
      )
    )
  })

/** A 503 says when to come back, unless whoever answered it set a better-informed Retry-After. */
const withRetryAfter = (response: HttpServerResponse.HttpServerResponse) =>
  response.status === 503 && response.headers["retry-after"] === undefined
    ? HttpServerResponse.setHeader(response, "retry-after", String(RETRY_AFTER_SECONDS))
    : response

/** Where the time went (stages timed with `timed`), when any stage was. */
const withServerTiming = (timings: Timings) => (response: HttpServerResponse.HttpServerResponse) => {
  // Which process answered shows in a browser's network panel.
  const header = IN_SEARCH_REPLICA ? [timings.header(), "replica"].filter((h) => h !== "").join(", ") : timings.header()
  return header === "" ? response : HttpServerResponse.setHeader(response, "server-timing", header)
}

/** Errors the platform answers without a body (unreadable request, unknown route) still get a JSON message. */
const emptyErrorMessages: Record<number, string> = {
  400: "the request body could not be read: it must be valid JSON (application/json)",
  404: "no such route",
  405: "method not allowed on this route",
  413: "request body too large",
  503: "temporarily unavailable; retry shortly"
}

const headersOf = (response: HttpServerResponse.HttpServerResponse): Record<string, string> => ({ ...response.headers })

const safeParse = (text: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
