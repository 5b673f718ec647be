import { Effect } from "effect"
import {
  BadGateway,
  BadRequest,
  GatewayTimeout,
  ImageDeleteFailure,
  NotFound,
  PayloadTooLarge,
  ProductSaveFailure,
  ServiceUnavailable,
  UnprocessableImage,
  UnsupportedMediaType
} from "../domain/Errors.js"
import { type BackendFailure, isBackendFailure } from "../platform/BackendFailure.js"
import type { CatalogWrite, CatalogWriteResult } from "../services/catalog-store/CatalogStore.js"
import { LEGACY_SESSION_TTL_ENV, LegacySessionTtl } from "../search/LegacySessions.js"
import { type ImageFailure, isImageFailure } from "../services/image-intake/IntakeErrors.js"
import {
  SessionBadRequest,
  type SessionError,
  type SearchExceptionProps,
  SessionImageTooLarge,
  SessionNotFound,
  SessionUnavailable,
  SessionUnprocessableImage,
  SessionUnsupportedImage
} from "./LegacySessionApi.js"

/**
 * How failures of the service code become HTTP answers, once per API (the REST API of
 * src/domain/Errors.ts and the legacy search sessions of LegacySessionApi.ts):
 * - a backend failure (`BackendFailure`: store, index, models, queue …) is a logged 503 — the
 *   caller can only retry; ResponsePolicy adds Retry-After (a product save keeps the spec's
 *   failure body, see `saveErrors`);
 * - an image intake failure is answered by a table keyed by its tag, whose type makes every
 *   intake failure appear in it;
 * - the caller-facing API errors (400, 403, 404 …) pass as they are.
 * An error of any other type stays in the handler's error channel, where the endpoint's
 * declared errors refuse it at compile time.
 */

/** Every image intake failure, answered with the class the table gives it. */
export type ImageAnswers<Answer> = { readonly [Tag in ImageFailure["_tag"]]: Answer }

const unavailableMessage = (e: BackendFailure) => `temporarily unavailable: ${e.message}`

const logged = (e: BackendFailure) => Effect.logError("backend failure", e)

// ---------------------------------------------------------------------------------------------
// REST
// ---------------------------------------------------------------------------------------------

/** A refused address is the caller's mistake (400, not 403: the credentials are fine, the URL is not). */
const restImageAnswers = {
  ImageMalformed: BadRequest,
  ImageUrlInvalid: BadRequest,
  ImageAddressRefused: BadRequest,
  ImageTooLarge: PayloadTooLarge,
  ImageUnsupported: UnsupportedMediaType,
  ImageUndecodable: UnsupportedMediaType,
  ImageTooManyPixels: UnprocessableImage,
  ImageHostUnreachable: BadGateway,
  ImageHostBadResponse: BadGateway,
  ImageHostTimedOut: GatewayTimeout
} as const satisfies ImageAnswers<new (props: { readonly message: string }) => unknown>

/** The REST error a failure of type E is answered with. */
export type RestAnswer<E> = E extends BackendFailure
  ? ServiceUnavailable
  : E extends ImageFailure
    ? InstanceType<(typeof restImageAnswers)[E["_tag"]]>
    : E

/** Backend and intake failures as REST errors; every other error passes unchanged. */
export const restErrors = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, RestAnswer<E>, R> =>
  // The predicates narrow values, not the type parameter: RestAnswer<E> states what they do.
  Effect.catchAll(effect, (e): Effect.Effect<never, unknown> => {
    if (isBackendFailure(e))
      return Effect.zipRight(logged(e), Effect.fail(new ServiceUnavailable({ message: unavailableMessage(e) })))
    if (isImageFailure(e)) return Effect.fail(new restImageAnswers[e._tag]({ message: e.message }))
    return Effect.fail(e)
  }) as Effect.Effect<A, RestAnswer<E>, R>

/**
 * A product save's backend failure keeps the spec's "Product save or publish failure" body (503
 * with Retry-After: the merchant's push tool should retry, not give up).
 */
export const saveErrors =
  (siteId: number, productId: string, data: unknown) =>
  <A, E extends BackendFailure, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, ProductSaveFailure, R> =>
    Effect.mapError(
      effect,
      (e) =>
        new ProductSaveFailure({
          message: "the product could not be saved: the catalog store is temporarily unavailable; retry later",
          data: { "site-id": siteId, "product-id": productId, data },
          debug: e.message
        })
    )

/** A catalog write `writeMany` did not apply. */
export type UnappliedWrite = Extract<CatalogWriteResult, { readonly _tag: "Refused" | "Contended" | "Absent" }>

/**
 * The REST error of a write that was not applied: what PATCH and DELETE answer, and what a bulk
 * line is answered with (its status and message). A missing product keeps DELETE's spec body.
 */
export const unappliedWrite = (
  siteId: number,
  productId: string,
  write: CatalogWrite["_tag"],
  result: UnappliedWrite
) => {
  switch (result._tag) {
    case "Refused":
      return { status: 400, error: new BadRequest({ message: result.message }) } as const
    case "Contended":
      return {
        status: 503,
        error: new ServiceUnavailable({
          message: `product "${productId}" kept changing while the patch was applied; retry`
        })
      } as const
    case "Absent":
      return write === "Remove"
        ? ({
            status: 404,
            error: new ImageDeleteFailure({
              message: `no product "${productId}" and no image of it found`,
              data: { "site-id": siteId, "image-id": "" }
            })
          } as const)
        : ({ status: 404, error: new NotFound({ message: `product "${productId}" not found` }) } as const)
  }
}

// ---------------------------------------------------------------------------------------------
// Legacy search sessions
// ---------------------------------------------------------------------------------------------

/** What the legacy session functions (src/search/LegacySessions.ts) fail with. */
export type SessionFailure = BackendFailure | ImageFailure | BadRequest | NotFound

/** Sessions take uploaded bytes or base64, never a URL: the host failures cannot occur, and stay 400 if they did. */
const sessionImageAnswers: ImageAnswers<new (props: SearchExceptionProps) => SessionError> = {
  ImageMalformed: SessionBadRequest,
  ImageUrlInvalid: SessionBadRequest,
  ImageAddressRefused: SessionBadRequest,
  ImageTooLarge: SessionImageTooLarge,
  ImageUnsupported: SessionUnsupportedImage,
  ImageUndecodable: SessionUnsupportedImage,
  ImageTooManyPixels: SessionUnprocessableImage,
  ImageHostUnreachable: SessionBadRequest,
  ImageHostBadResponse: SessionBadRequest,
  ImageHostTimedOut: SessionBadRequest
}

/**
 * Every failure as a search exception. `data` says which site and session it concerns
 * (`search-id` null on creation); `debug` (session creation and in-session search only, as the
 * spec's Errors table has it) names the internal error and, for 404, how sessions expire.
 */
const toSearchException = (siteId: number, searchId: string | null, withDebug: boolean) => (e: SessionFailure) =>
  Effect.gen(function* () {
    const data = { "site-id": siteId, "search-id": searchId }
    const debugOf = (text: string) => (withDebug ? { debug: text } : {})
    if (isBackendFailure(e)) {
      yield* logged(e)
      return new SessionUnavailable({ message: unavailableMessage(e), data, ...debugOf(`${e._tag}: ${e.message}`) })
    }
    if (isImageFailure(e)) return new sessionImageAnswers[e._tag]({ message: e.message, data, ...debugOf(e._tag) })
    if (e._tag === "NotFound") {
      const ttl = (yield* LegacySessionTtl).seconds
      return new SessionNotFound({
        message: e.message,
        data,
        ...debugOf(
          `sessions belong to the site that created them and expire ${ttl} s after their last use ` +
            `(${LEGACY_SESSION_TTL_ENV})`
        )
      })
    }
    return new SessionBadRequest({ message: e.message, data, ...debugOf(e._tag) })
  })

/** The legacy session endpoints answer every failure with a search exception. */
export const sessionErrors =
  (siteId: number, searchId: string | null, withDebug: boolean) =>
  <A, E extends SessionFailure, R>(
    effect: Effect.Effect<A, E, R>
  ): Effect.Effect<A, SessionError, R | LegacySessionTtl> =>
    Effect.catchAll(effect, (e) => Effect.flatMap(toSearchException(siteId, searchId, withDebug)(e), Effect.fail))
