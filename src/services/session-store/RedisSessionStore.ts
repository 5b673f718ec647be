import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { SessionStore, SessionStoreError, type StoredImageRef } from "./SessionStore.js"
import { decodeSession, encodeSession, sessionStoreKeys, ttlMillis } from "./StorageFormat.js"

/**
 * The distributed SessionStore: every api replica reads what any other stored.
 *
 * Each entry is a hash, not a plain string: sliding expiry needs the TTL an entry was put with
 * when it is read, so it is stored beside the value (field `ttl`, in ms).
 *   sess:{site}:img:<key>  hash: ttl, format, width, height, sha256, bytes (raw binary)
 *   sess:{site}:s:<id>     hash: ttl, json (LegacySessionState)
 * A put writes the fields and PEXPIRE in one MULTI, so no reader sees an entry without its TTL.
 *
 * Redis memory is this layer's budget. On a `noeviction` server (what BullMQ needs on a shared
 * Redis) a full Redis fails puts with SessionStoreError rather than dropping queue data.
 */

/** Reads the fields in ARGV and restarts the TTL, atomically; nil when the entry is gone. */
const GET_LUA = `
local ttl = redis.call('HGET', KEYS[1], 'ttl')
if not ttl then return false end
redis.call('PEXPIRE', KEYS[1], ttl)
return redis.call('HMGET', KEYS[1], unpack(ARGV))
`
const GET_SHA = createHash("sha1").update(GET_LUA).digest("hex")
const IMAGE_FIELDS = ["format", "width", "height", "sha256", "bytes"]

const toError = (message: string) => (cause: unknown) =>
  new SessionStoreError({ message: `session store: ${message}`, cause })

// A 2 s command timeout leaves room for multi-megabyte images on a slow link.
const connect = (url: string) => connectFailFast(url, { commandTimeoutMs: 2_000 }, toError("cannot connect to Redis"))

const make = (url: string) =>
  Effect.gen(function* () {
    const client = yield* connect(url)

    const put = (key: string, fields: Record<string, string | number | Buffer>, ttlSeconds: number) =>
      Effect.flatMap(ttlMillis(ttlSeconds), (ttlMs) =>
        Effect.tryPromise({
          try: async () => {
            const replies = await client
              .multi()
              .hset(key, { ...fields, ttl: ttlMs })
              .pexpire(key, ttlMs)
              .exec()
            const failed = replies?.find(([error]) => error !== null)
            if (replies === null || failed) throw failed?.[0] ?? new Error("transaction aborted")
          },
          catch: toError(`put of ${key} failed`)
        })
      )

    // EVALSHA saves resending the script; after a Redis restart or SCRIPT FLUSH it answers
    // NOSCRIPT, and EVAL both runs and caches it again. callBuffer keeps image bytes binary.
    const get = (key: string, fields: Array<string>) =>
      Effect.tryPromise({
        try: async () => {
          try {
            return await client.callBuffer("EVALSHA", [GET_SHA, 1, key, ...fields])
          } catch (error) {
            if (!(error instanceof Error && error.message.startsWith("NOSCRIPT"))) throw error
            return await client.callBuffer("EVAL", [GET_LUA, 1, key, ...fields])
          }
        },
        catch: toError(`get of ${key} failed`)
      }).pipe(
        Effect.flatMap((reply) => {
          if (reply === null) return Effect.succeed(null)
          const values = reply as Array<Buffer | null>
          return values.every((value): value is Buffer => value !== null)
            ? Effect.succeed(values)
            : Effect.fail(new SessionStoreError({ message: `session store: ${key} lacks fields` }))
        })
      )

    return SessionStore.of({
      putImage: (siteId, key, image, ttlSeconds) =>
        put(
          sessionStoreKeys.image(siteId, key),
          {
            format: image.format,
            width: image.width,
            height: image.height,
            sha256: image.sha256,
            // A view, not a copy: ioredis writes it to the socket as is.
            bytes: Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength)
          },
          ttlSeconds
        ),
      getImage: (siteId, key) =>
        Effect.map(get(sessionStoreKeys.image(siteId, key), IMAGE_FIELDS), (values): StoredImageRef | null => {
          if (values === null) return null
          const [format, width, height, sha256, bytes] = values
          return {
            // A plain Uint8Array, like the embedded layer's, over the reply's own memory.
            bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
            format: format.toString(),
            width: Number(width.toString()),
            height: Number(height.toString()),
            sha256: sha256.toString()
          }
        }),
      putSession: (siteId, sessionId, session, ttlSeconds) =>
        Effect.flatMap(encodeSession(session), (json) =>
          put(sessionStoreKeys.session(siteId, sessionId), { json }, ttlSeconds)
        ),
      getSession: (siteId, sessionId) =>
        Effect.flatMap(get(sessionStoreKeys.session(siteId, sessionId), ["json"]), (values) =>
          values === null ? Effect.succeed(null) : decodeSession(values[0].toString())
        )
    })
  })

export const RedisSessionStore = {
  /** Scoped: one ioredis client per layer, quit on release. Fails if Redis is unreachable at start. */
  layer: (url: string): Layer.Layer<SessionStore, SessionStoreError> => Layer.scoped(SessionStore, make(url))
}
