import { Effect, Schema } from "effect"
import { LegacySessionState, SessionStoreError } from "./SessionStore.js"

/**
 * The key layout both layers share. The site id is the Redis hash tag, so one site's entries
 * share a cluster slot; it is a number, so `{1}` can never be a prefix of `{12}`.
 */
export const sessionStoreKeys = {
  image: (siteId: number, key: string) => `sess:{${siteId}}:img:${key}`,
  session: (siteId: number, sessionId: string) => `sess:{${siteId}}:s:${sessionId}`
}

/** TTLs come from code and configuration, so a non-positive one is a defect, not an error. */
export const ttlMillis = (ttlSeconds: number): Effect.Effect<number> =>
  Number.isFinite(ttlSeconds) && ttlSeconds > 0
    ? Effect.succeed(Math.ceil(ttlSeconds * 1000))
    : Effect.dieMessage(`session store TTL must be a positive number of seconds, got ${ttlSeconds}`)

/**
 * Sessions are stored as JSON in both layers, so the embedded layer validates and copies exactly
 * as Redis does. A stored session that no longer decodes (its schema changed under it) is an
 * error rather than a miss, so such a change shows up instead of silently ending sessions.
 */
const SessionJson = Schema.parseJson(LegacySessionState)

export const encodeSession = (session: LegacySessionState): Effect.Effect<string, SessionStoreError> =>
  Schema.encode(SessionJson)(session).pipe(
    Effect.mapError(
      (cause) => new SessionStoreError({ message: `session store: invalid session: ${cause.message}`, cause })
    )
  )

export const decodeSession = (json: string): Effect.Effect<LegacySessionState, SessionStoreError> =>
  Schema.decode(SessionJson)(json).pipe(
    Effect.mapError(
      (cause) =>
        new SessionStoreError({ message: `session store: stored session does not decode: ${cause.message}`, cause })
    )
  )
