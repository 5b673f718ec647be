import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Data, Schema } from "effect"
import {
  LegacyDetectedObjects,
  LegacyMessage,
  LegacySearchException,
  LegacySearchSession
} from "../domain/LegacySession.js"
import { Authentication } from "./Authentication.js"

/**
 * The deprecated search-session endpoints (spec "Deprecated endpoints"):
 *
 *   POST /search/session                          multipart `image` → legacy search-session object
 *   GET  /search/session/{search-id}              → legacy search-session object
 *   GET  /search/session/{search-id}/detect-objects → {value: [detected object]}
 *   PUT  /search/session/{search-id}/upload-image  multipart `image` or a raw image body → {message}
 *
 * Every failure of these endpoints (including malformed query parameters and a missing image,
 * which elsewhere are the platform's `{message, issues}` answers) is a search-exception body
 * (spec Errors table): `{message, data, debug}` for session creation and in-session search,
 * `{message, data}` for detect-objects and upload-image. To keep those bodies exact, the query
 * parameters and the body are declared leniently here and validated by the handlers
 * (src/search/LegacySessions.ts), and the error schemas encode to the bare body (no `_tag`).
 * Missing or invalid credentials stay the generic 401 `{message}` of the Authentication middleware.
 */

type SearchExceptionBody = typeof LegacySearchException.Type

/** The `data` of every search exception: which site and session the failure concerns. */
export interface SearchExceptionData {
  readonly "site-id": number
  readonly "search-id": string | null
}

export interface SearchExceptionProps {
  readonly message: string
  readonly data: SearchExceptionData
  readonly debug?: string
}

const searchException = <E extends SearchExceptionProps>(
  ErrorClass: new (props: SearchExceptionProps) => E,
  status: number,
  description: string
) =>
  Schema.transform(LegacySearchException, Schema.instanceOf(ErrorClass), {
    strict: false,
    decode: (body: SearchExceptionBody) => new ErrorClass(body as SearchExceptionProps),
    encode: (e: E): SearchExceptionBody => ({
      message: e.message,
      data: e.data,
      ...(e.debug !== undefined ? { debug: e.debug } : {})
    })
  }).annotations({ ...HttpApiSchema.annotations({ status }), description })

/** 400: malformed query parameter, no image, unknown campaign or filter column, bad search area. */
export class SessionBadRequest extends Data.TaggedError("SessionBadRequest")<SearchExceptionProps> {}
/** 404: unknown or expired search id, or one of another site. */
export class SessionNotFound extends Data.TaggedError("SessionNotFound")<SearchExceptionProps> {}
/** 413: the image is over the intake size limit. */
export class SessionImageTooLarge extends Data.TaggedError("SessionImageTooLarge")<SearchExceptionProps> {}
/** 415: not a JPEG, PNG, WebP or GIF image, or corrupt. */
export class SessionUnsupportedImage extends Data.TaggedError("SessionUnsupportedImage")<SearchExceptionProps> {}
/** 422: a well-formed image we refuse to process (too many pixels: a decompression bomb). */
export class SessionUnprocessableImage extends Data.TaggedError("SessionUnprocessableImage")<SearchExceptionProps> {}
/** 503: a backend (session store, index, image models) is temporarily unavailable. */
export class SessionUnavailable extends Data.TaggedError("SessionUnavailable")<SearchExceptionProps> {}

export type SessionError =
  | SessionBadRequest
  | SessionNotFound
  | SessionImageTooLarge
  | SessionUnsupportedImage
  | SessionUnprocessableImage
  | SessionUnavailable

export const SessionBadRequestSchema = searchException(
  SessionBadRequest,
  400,
  "Search exception: invalid request or image"
)
export const SessionNotFoundSchema = searchException(
  SessionNotFound,
  404,
  "Search exception: unknown or expired search session"
)
export const SessionImageTooLargeSchema = searchException(
  SessionImageTooLarge,
  413,
  "Search exception: image too large"
)
export const SessionUnsupportedImageSchema = searchException(
  SessionUnsupportedImage,
  415,
  "Search exception: not a supported image"
)
export const SessionUnprocessableImageSchema = searchException(
  SessionUnprocessableImage,
  422,
  "Search exception: image refused (too many pixels)"
)
export const SessionUnavailableSchema = searchException(
  SessionUnavailable,
  503,
  "Search exception: temporarily unavailable"
)

const searchIdPath = Schema.Struct({ searchId: Schema.String })

const rawParam = (description: string) => Schema.optional(Schema.String.annotations({ description }))

/** Query of POST /search/session (spec). Validated by the handler (a search exception when malformed). */
export const CreateSessionParams = Schema.Struct({
  "campaign-id": rawParam("campaign id (integer); the site's default campaign when absent"),
  "excluded[]": Schema.optional(
    Schema.Union(Schema.String, Schema.Array(Schema.String)).annotations({
      description: "static excluded filters kept for the whole session, each `<column>:<value>,<value>`"
    })
  )
})

/**
 * Query of GET /search/session/{search-id}: the spec's campaign-id, plus the extensions the
 * session object's hypermedia uses: `category` (one encoded category path, a dynamic filter)
 * and a search area `left`, `top`, `width`, `height` (all four or none; each in [0,1]).
 */
export const SearchSessionParams = Schema.Struct({
  "campaign-id": rawParam("campaign id (integer) for this search; the session's campaign when absent"),
  category: rawParam("extension: Base64-URL encoded category path to search within"),
  left: rawParam("extension: search area, relative to the image, in [0,1]"),
  top: rawParam("extension: search area, relative to the image, in [0,1]"),
  width: rawParam("extension: search area, relative to the image, in [0,1]"),
  height: rawParam("extension: search area, relative to the image, in [0,1]")
})

/**
 * The `image` form field: a file part (the spec's binary), or a text part holding base64 / a
 * data URL. Declared as anything so that a wrong or missing field is the handler's search
 * exception, not the platform's decode error.
 */
const ImageField = Schema.optional(
  Schema.Unknown.annotations({
    jsonSchema: { type: "string", format: "binary" },
    description: "the image (JPEG, PNG, WebP or GIF)"
  })
)

export const CreateSessionPayload = HttpApiSchema.Multipart(Schema.Struct({ image: ImageField }))

/** Upload body (not shown in the spec): the multipart form of session creation, or the raw image bytes. */
export const UploadImagePayload = Schema.Union(
  HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" }).annotations({
    description: "the raw image bytes (any image/* or application/octet-stream content type)"
  }),
  HttpApiSchema.Multipart(Schema.Struct({ image: ImageField }))
)

export class LegacySessionApi extends HttpApiGroup.make("legacySession")
  .add(
    HttpApiEndpoint.post("createSession", "/search/session")
      .annotate(OpenApi.Summary, "Start a visual search session from an uploaded image")
      .setUrlParams(CreateSessionParams)
      .setPayload(CreateSessionPayload)
      .addSuccess(LegacySearchSession)
  )
  .add(
    HttpApiEndpoint.get("searchSession", "/search/session/:searchId")
      .annotate(OpenApi.Summary, "Search again with a session's image, optionally within an area")
      .setPath(searchIdPath)
      .setUrlParams(SearchSessionParams)
      .addSuccess(LegacySearchSession)
  )
  .add(
    HttpApiEndpoint.get("detectObjects", "/search/session/:searchId/detect-objects")
      .annotate(OpenApi.Summary, "Objects detected in a session's image")
      .setPath(searchIdPath)
      .addSuccess(LegacyDetectedObjects)
  )
  .add(
    HttpApiEndpoint.put("uploadImage", "/search/session/:searchId/upload-image")
      .annotate(OpenApi.Summary, "Replace a session's image with a higher-resolution one")
      .setPath(searchIdPath)
      .setPayload(UploadImagePayload)
      .addSuccess(LegacyMessage)
  )
  .annotateEndpoints(OpenApi.Deprecated, true)
  .addError(SessionBadRequestSchema)
  .addError(SessionNotFoundSchema)
  .addError(SessionImageTooLargeSchema)
  .addError(SessionUnsupportedImageSchema)
  .addError(SessionUnprocessableImageSchema)
  .addError(SessionUnavailableSchema)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Deprecated visual search sessions (multipart uploads).") {}
