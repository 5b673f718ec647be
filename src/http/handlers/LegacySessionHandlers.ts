import { HttpApiBuilder, type HttpServerRequest, Multipart } from "@effect/platform"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import {
  createSession,
  type LinkContext,
  searchSession,
  type SessionImageInput,
  sessionObjects,
  uploadSessionImage
} from "../../search/LegacySessions.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { sessionErrors } from "../ErrorMapping.js"

/**
 * Links are absolute and point back at this service as the client reached it: the
 * X-Forwarded-Proto / X-Forwarded-Host of a proxy when present, else the Host header.
 */
const linkContext = (request: HttpServerRequest.HttpServerRequest): LinkContext => {
  const first = (value: string | undefined) => value?.split(",")[0]?.trim() || undefined
  const proto = first(request.headers["x-forwarded-proto"]) === "https" ? "https" : "http"
  const host = first(request.headers["x-forwarded-host"]) ?? request.headers.host ?? "localhost"
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
    return Effect.map(Effect.orDie(Effect.tryPromise(() => readFile(first.path))), (bytes) => ({
      _tag: "Bytes" as const,
      bytes: new Uint8Array(bytes)
    }))
  }
  return Effect.succeed(undefined)
}

export const LegacySessionHandlers = HttpApiBuilder.group(CommerceApi, "legacySession", (handlers) =>
  handlers
    .handle("createSession", ({ payload, request, urlParams }) =>
      Effect.gen(function* () {
        const { siteId } = yield* CurrentPrincipal
        return yield* Effect.flatMap(imageInput(payload.image), (image) =>
          createSession(siteId, { params: urlParams, image }, linkContext(request))
        ).pipe(sessionErrors(siteId, null, true))
      })
    )
    .handle("searchSession", ({ path, request, urlParams }) =>
      Effect.gen(function* () {
        const { siteId } = yield* CurrentPrincipal
        return yield* searchSession(siteId, path.searchId, urlParams, linkContext(request)).pipe(
          sessionErrors(siteId, path.searchId, true)
        )
      })
    )
    .handle("detectObjects", ({ path, request }) =>
      Effect.gen(function* () {
        const { siteId } = yield* CurrentPrincipal
        return yield* sessionObjects(siteId, path.searchId, linkContext(request)).pipe(
          sessionErrors(siteId, path.searchId, false)
        )
      })
    )
    .handle("uploadImage", ({ path, payload }) =>
      Effect.gen(function* () {
        const { siteId } = yield* CurrentPrincipal
        const image = yield* imageInput(payload instanceof Uint8Array ? payload : payload.image)
        return yield* uploadSessionImage(siteId, path.searchId, image).pipe(sessionErrors(siteId, path.searchId, false))
      })
    )
)
