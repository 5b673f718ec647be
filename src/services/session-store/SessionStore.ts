import { Context, type Effect, Schema } from "effect"
import { FilterClause } from "../../domain/Filters.js"
import { DetectedObject } from "../../domain/LegacySession.js"
import { BackendFailure } from "../../platform/BackendFailure.js"

/**
 * Temporary, per-site state of the api, kept outside the api process so replicas stay stateless:
 * visual-search images by requestId (spec, POST /visual-search rule 2: a later request may omit
 * the image when it carries the same requestId) and the state of deprecated legacy search
 * sessions (POST /search/session, then GET, detect-objects and upload-image by search id).
 *
 * Everything expires. Expiry is sliding: every put AND every successful get restarts the entry's
 * TTL with the ttlSeconds it was last put with, so an entry lives until ttlSeconds pass without
 * anyone using it. A shopper refining a visual search or browsing a legacy session keeps it
 * alive; an abandoned image still leaves the server ttlSeconds after its last use.
 *
 * Keys are namespaced by site, and images and sessions have separate namespaces, so no site can
 * read another's entries and an image key never answers a session lookup.
 */
export interface StoredImageRef {
  readonly bytes: Uint8Array
  readonly format: string
  readonly width: number
  readonly height: number
  readonly sha256: string
}

/** A legacy search session: what GET /search/session/{id} and its sub-resources need again. */
export const LegacySessionState = Schema.Struct({
  sessionId: Schema.String,
  siteId: Schema.Int,
  /** ISO 8601. */
  createdAt: Schema.String,
  campaignId: Schema.optional(Schema.Int),
  excluded: Schema.Array(FilterClause),
  /** The image key (in this store) of the session's image. */
  imageKey: Schema.String,
  /** Set once PUT upload-image has stored a high-resolution image. */
  highResImageKey: Schema.optional(Schema.String),
  /** Cached result of detect-objects, in the shape the legacy endpoint serves. */
  detectedObjects: Schema.optional(Schema.Array(DetectedObject.fields.value))
})
export type LegacySessionState = typeof LegacySessionState.Type

export class SessionStoreError extends BackendFailure("SessionStoreError") {}

export interface SessionStoreService {
  /** Stores (or replaces, value and TTL) the image under `key`. */
  readonly putImage: (
    siteId: number,
    key: string,
    image: StoredImageRef,
    ttlSeconds: number
  ) => Effect.Effect<void, SessionStoreError>
  /** The image, or null when unknown or expired; a hit restarts its TTL. */
  readonly getImage: (siteId: number, key: string) => Effect.Effect<StoredImageRef | null, SessionStoreError>
  /** Stores (or replaces, value and TTL) the session under `sessionId`. */
  readonly putSession: (
    siteId: number,
    sessionId: string,
    session: LegacySessionState,
    ttlSeconds: number
  ) => Effect.Effect<void, SessionStoreError>
  /** The session, or null when unknown or expired; a hit restarts its TTL. */
  readonly getSession: (
    siteId: number,
    sessionId: string
  ) => Effect.Effect<LegacySessionState | null, SessionStoreError>
}

export class SessionStore extends Context.Tag("SessionStore")<SessionStore, SessionStoreService>() {}
