import { Clock, Config, Effect, Layer, Schedule } from "effect"
import { SessionStore, SessionStoreError, type StoredImageRef } from "./SessionStore.js"
import { decodeSession, encodeSession, sessionStoreKeys, ttlMillis } from "./StorageFormat.js"

interface Entry<V> {
  readonly value: V
  readonly bytes: number
  readonly ttlMs: number
  expiresAt: number
}

/**
 * Entries with sliding expiry under a byte budget. Time is an argument, so tests pick instants.
 *
 * Over budget, entries are evicted soonest-expiring first: expired ones go first for free, then
 * those closest to expiring anyway. The entry just put is never the one evicted (it may expire
 * before long-lived ones, but a put must hold); one larger than the whole budget is refused.
 * Finding the soonest-expiring entry is a linear scan, done only while over budget: cheap, and
 * simpler than a heap whose keys move on every get.
 */
export class ExpiringEntries<V> {
  private readonly entries = new Map<string, Entry<V>>()
  private used = 0

  constructor(readonly maxBytes: number) {}

  get usedBytes(): number {
    return this.used
  }

  /** False (and nothing changed) when `bytes` alone exceeds the budget. */
  put(key: string, value: V, bytes: number, ttlMs: number, now: number): boolean {
    if (bytes > this.maxBytes) return false
    this.remove(key)
    this.entries.set(key, { value, bytes, ttlMs, expiresAt: now + ttlMs })
    this.used += bytes
    while (this.used > this.maxBytes) this.remove(this.soonestExpiringExcept(key))
    return true
  }

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= now) {
      this.remove(key)
      return undefined
    }
    entry.expiresAt = now + entry.ttlMs
    return entry.value
  }

  sweep(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.remove(key)
  }

  private remove(key: string): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.used -= entry.bytes
  }

  /** Only called while over budget with `kept` alone within it, so another entry exists. */
  private soonestExpiringExcept(kept: string): string {
    let soonest: [string, number] | undefined
    for (const [key, entry] of this.entries) {
      if (key !== kept && (soonest === undefined || entry.expiresAt < soonest[1])) soonest = [key, entry.expiresAt]
    }
    return soonest![0]
  }
}

/** Copies in and out, so neither the caller nor a later reader can change a stored image. */
const copyImage = (image: StoredImageRef): StoredImageRef => ({ ...image, bytes: new Uint8Array(image.bytes) })

/** SESSION_STORE_MAX_BYTES: the memory budget of the embedded store (default 256 MB). */
export const SessionStoreMaxBytes = Config.integer("SESSION_STORE_MAX_BYTES").pipe(
  Config.validate({ message: "must be a positive number of bytes", validation: (n) => n > 0 }),
  Config.withDefault(256 * 1024 * 1024)
)

/**
 * The single-process SessionStore: everything in memory. That is enough for the embedded
 * topology, where there is one api process and the entries are temporary by definition; a
 * restart ends visual-search reuse and legacy sessions, which clients must handle anyway.
 * Memory is bounded by SESSION_STORE_MAX_BYTES (default 256 MB) of image bytes and session JSON;
 * a background sweep drops expired entries, so an expired image does not linger in memory.
 */
const make = Effect.gen(function* () {
  const maxBytes = yield* SessionStoreMaxBytes
  // Images are kept as objects, sessions as their JSON; the key namespaces keep them apart.
  const entries = new ExpiringEntries<StoredImageRef | string>(maxBytes)
  yield* Clock.currentTimeMillis.pipe(
    Effect.map((now) => entries.sweep(now)),
    Effect.repeat(Schedule.spaced("30 seconds")),
    Effect.forkScoped
  )

  const put = (key: string, value: StoredImageRef | string, bytes: number, ttlSeconds: number) =>
    Effect.flatMap(Effect.zip(ttlMillis(ttlSeconds), Clock.currentTimeMillis), ([ttlMs, now]) =>
      entries.put(key, value, bytes, ttlMs, now)
        ? Effect.void
        : Effect.fail(
            new SessionStoreError({ message: `session store: ${bytes} bytes exceed the whole budget of ${maxBytes}` })
          )
    )
  const get = (key: string) => Effect.map(Clock.currentTimeMillis, (now) => entries.get(key, now))

  return SessionStore.of({
    putImage: (siteId, key, image, ttlSeconds) =>
      put(sessionStoreKeys.image(siteId, key), copyImage(image), image.bytes.byteLength, ttlSeconds),
    getImage: (siteId, key) =>
      Effect.map(get(sessionStoreKeys.image(siteId, key)), (value) =>
        typeof value === "object" ? copyImage(value) : null
      ),
    putSession: (siteId, sessionId, session, ttlSeconds) =>
      Effect.flatMap(encodeSession(session), (json) =>
        put(sessionStoreKeys.session(siteId, sessionId), json, Buffer.byteLength(json), ttlSeconds)
      ),
    getSession: (siteId, sessionId) =>
      Effect.flatMap(get(sessionStoreKeys.session(siteId, sessionId)), (value) =>
        typeof value === "string" ? decodeSession(value) : Effect.succeed(null)
      )
  })
}).pipe(Effect.orDie) // a bad SESSION_STORE_MAX_BYTES is a configuration defect at startup

export const EmbeddedSessionStore = {
  layer: Layer.scoped(SessionStore, make)
}
