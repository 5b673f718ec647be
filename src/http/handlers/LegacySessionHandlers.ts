import { HttpApiBuilder, type HttpServerRequest, Multipart } from "@effect/platform"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import {
  createSession,
  LEGACY_SESSION_TTL_ENV,
  LegacySessionTtl,
  type LinkContext,
  searchSession,
  type SessionImageInput,
  sessionObjects,
  uploadSessionImage
} from "../../search/LegacySessions.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import {
  SessionBadRequest,
  type SessionError,
  SessionImageTooLarge,
  SessionNotFound,
  SessionUnavailable,
  SessionUnprocessableImage,
  SessionUnsupportedImage
} from "../LegacySessionApi.js"

/** Backend failures: the caller can only retry (503). Mirrors InternalErrors.ts. */
const INTERNAL = new Set(["IndexError", "StoreError", "EmbedError", "QueueError", "AnalyzeError", "SessionStoreError"])

interface Failure {
  readonly _tag: string
  readonly message: string
  readonly status?: number
}

/**
 * Every failure as a search exception. `data` says which site and session it concerns
 * (`search-id` null on creation); `debug` (session creation and in-session search only, as the
 * spec's Errors table has it) names the internal error and, for 404, how sessions expire.
 */
const toSearchException = (siteId: number, searchId: string | null, withDebug: boolean) => (e: Failure) =>
  Effect.gen(function*() {
    const data = { "site-id": siteId, "search-id": searchId }
    const debugOf = (text: string) => (withDebug ? { debug: text } : {})
    if (INTERNAL.has(e._tag)) {
      yield* Effect.logError("backend failure", e)
      return new SessionUnavailable({ message: `temporarily unavailable: ${e.message}`, data, ...debugOf(`${e._tag}: ${e.message}`) })
    }
    if (e._tag === "NotFound") {
      const ttl = (yield* LegacySessionTtl).seconds
      return new SessionNotFound({
        message: e.message,
        data,
        ...debugOf(`sessions belong to the site that created them and expire ${ttl} s after their last use (${LEGACY_SESSION_TTL_ENV})`)
      })
    }
    const props = { message: e.message, data, ...debugOf(e.status !== undefined ? `${e._tag} (${e.status})` : e._tag) }
    switch (e.status) {
      case 413:
        return new SessionImageTooLarge(props)
      case 415:
        return new SessionUnsupportedImage(props)
      case 422:
        return new SessionUnprocessableImage(props)
      default:
        return new SessionBadRequest(props)
    }
  })

const asSearchException = (siteId: number, searchId: string | null, withDebug: boolean) =>
<A, E extends Failure, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, SessionError, R | LegacySessionTtl> =>
  Effect.catchAll(effect, (e) => Effect.flatMap(toSearchException(siteId, searchId, withDebug)(e), Effect.fail))

/**
 * Links are absolute and point back at this service as the client reached it: the
 * X-Forwarded-Proto / X-Forwarded-Host of a proxy when present, else the Host header.
 */
const linkContext = (request: HttpServerRequest.HttpServerRequest): LinkContext => {
  const first = (value: string | undefined) => value?.split(",")[0]?.trim() || undefined
  const proto = first(request.headers["x-forwarded-proto"]) === "https" ? "https" : "http"
  const host = first(request.headers["x-forwarded-host"]) ?? request.headers["host"] ?? "localhost"
  const baseUrl = `${proto}://${host}`
  return { baseUrl: URL.canParse(baseUrl) ? baseUrl : "http://localhost" }
}

/**
 * The `image` of a form: the first file part (read from the platform's temporary file), else a
 * text part holding base64 or a data URL; a raw body is the image bytes themselves.
 */
const imageInput = (value: unknown): Effect.Effect<SessionImageInput | undefined> => {
  const first = Array.isArray(value) ? value[0] : value
  if (first instanceof Uint8Array) return Effect.succeed({ _tag: "Bytes", bytes: first })
  if (typeof first === "string") return Effect.succeed({ _tag: "Text", data: first })
  if (Multipart.isPersistedFile(first)) {
    return Effect.map(Effect.orDie(Effect.tryPromise(() => readFile(first.path))), (bytes) => ({ _tag: "Bytes" as const, bytes: new Uint8Array(bytes) }))
  }
  return Effect.succeed(undefined)
}

export const LegacySessionHandlers = HttpApiBuilder.group(CommerceApi, "legacySession", (handlers) =>
  handlers
    .handle("createSession", ({ payload, request, urlParams }) =>
      Effect.gen(function*() {
        const { siteId } = yield* CurrentPrincipal
        return yield* Effect.flatMap(imageInput(payload.image), (image) => createSession(siteId, { params: urlParams, image }, linkContext(request))).pipe(
          asSearchException(siteId, null, true)
        )
      }))
    .handle("searchSession", ({ path, request, urlParams }) =>
      Effect.gen(function*() {
        const { siteId } = yield* CurrentPrincipal
        return yield* searchSession(siteId, path.searchId, urlParams, linkContext(request)).pipe(asSearchException(siteId, path.searchId, true))
      }))
    .handle("detectObjects", ({ path, request }) =>
      Effect.gen(function*() {
        const { siteId } = yield* CurrentPrincipal
        return yield* sessionObjects(siteId, path.searchId, linkContext(request)).pipe(asSearchException(siteId, path.searchId, false))
      }))
    .handle("uploadImage", ({ path, payload }) =>
      Effect.gen(function*() {
        const { siteId } = yield* CurrentPrincipal
        const image = yield* imageInput(payload instanceof Uint8Array ? payload : payload.image)
        return yield* uploadSessionImage(siteId, path.searchId, image).pipe(asSearchException(siteId, path.searchId, false))
      })))
