import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, type Layer } from "effect"
import { createHash, randomBytes, randomUUID } from "node:crypto"
import {
  type LegacySessionState,
  SessionStore,
  type SessionStoreService,
  type StoredImageRef
} from "../../../src/services/session-store/SessionStore.js"

/** Random bytes cover every byte value (NULs, invalid UTF-8), so any text-mangling shows. */
export const image = (size: number, format = "jpeg"): StoredImageRef => {
  const bytes = new Uint8Array(randomBytes(size))
  return { bytes, format, width: 640, height: 480, sha256: createHash("sha256").update(bytes).digest("hex") }
}

export const session = (sessionId: string, more: Partial<LegacySessionState> = {}): LegacySessionState => ({
  sessionId,
  siteId: 1,
  createdAt: "2025-01-01T00:00:00.000Z",
  excluded: [],
  imageKey: `img-${sessionId}`,
  ...more
})

/** Field by field, with the bytes compared as bytes (toEqual on 5 MB is slow). */
export const expectSameImage = (actual: StoredImageRef | null, expected: StoredImageRef) => {
  expect(actual).not.toBeNull()
  const { bytes, ...meta } = actual!
  const { bytes: expectedBytes, ...expectedMeta } = expected
  expect(meta).toEqual(expectedMeta)
  expect(bytes).toBeInstanceOf(Uint8Array)
  expect(bytes.byteLength).toBe(expectedBytes.byteLength)
  expect(Buffer.compare(bytes, expectedBytes)).toBe(0)
  expect(createHash("sha256").update(bytes).digest("hex")).toBe(expected.sha256)
}

/**
 * The behaviour every SessionStore layer must show, through the interface only. Tests run on the
 * live clock (Redis expires keys on its own clock). Keys are unique per test because a
 * server-backed layer keeps its entries between tests.
 */
export const sessionStoreConformance = (name: string, makeLayer: () => Layer.Layer<SessionStore, unknown>) =>
  describe(`SessionStore conformance: ${name}`, () => {
    const test = (
      title: string,
      body: (store: SessionStoreService) => Effect.Effect<void, unknown>,
      timeout?: number
    ) => it.live(title, () => Effect.flatMap(SessionStore, body).pipe(Effect.provide(makeLayer())), timeout)
    const key = () => randomUUID()

    test("an image round-trips with its bytes exact", (store) =>
      Effect.gen(function* () {
        const k = key()
        const stored = image(10_000, "png")
        yield* store.putImage(1, k, stored, 60)
        expectSameImage(yield* store.getImage(1, k), stored)
        // A second read (which also restarts the TTL) answers the same.
        expectSameImage(yield* store.getImage(1, k), stored)
      }))

    test("a 5 MB image round-trips", (store) =>
      Effect.gen(function* () {
        const k = key()
        const large = image(5 * 1024 * 1024)
        yield* store.putImage(1, k, large, 60)
        expectSameImage(yield* store.getImage(1, k), large)
      }))

    test("sessions round-trip, with every optional field and with none", (store) =>
      Effect.gen(function* () {
        const [bare, full] = [key(), key()]
        const complete = session(full, {
          siteId: 7,
          campaignId: 3,
          highResImageKey: "hi-res",
          excluded: [
            { column: "brand", values: ["acme", 'Ünïcode, "quoted"'] },
            { column: "size", values: [] }
          ],
          detectedObjects: [
            { classId: 1, class: "shoe", score: 93, rectangle: { left: 0.1, top: 0.2, width: 0.3, height: 0.4 } },
            { score: 50, rectangle: { left: 0, top: 0, width: 1, height: 1 } }
          ]
        })
        yield* store.putSession(1, bare, session(bare), 60)
        yield* store.putSession(1, full, complete, 60)
        expect(yield* store.getSession(1, bare)).toEqual(session(bare))
        expect(yield* store.getSession(1, full)).toEqual(complete)
      }))

    test("an unknown key is null", (store) =>
      Effect.gen(function* () {
        expect(yield* store.getImage(1, key())).toBeNull()
        expect(yield* store.getSession(1, key())).toBeNull()
      }))

    test("sites never see each other's entries, and images and sessions never collide", (store) =>
      Effect.gen(function* () {
        const [shared, onlyA] = [key(), key()]
        const [a, b] = [image(100), image(200)]
        yield* store.putImage(1, shared, a, 60)
        yield* store.putImage(2, shared, b, 60)
        yield* store.putImage(1, onlyA, a, 60)
        yield* store.putSession(1, shared, session(shared), 60)
        expectSameImage(yield* store.getImage(1, shared), a)
        expectSameImage(yield* store.getImage(2, shared), b)
        expect(yield* store.getImage(2, onlyA)).toBeNull()
        expect(yield* store.getImage(12, onlyA)).toBeNull()
        expect(yield* store.getSession(2, shared)).toBeNull()
        expect(yield* store.getSession(1, onlyA)).toBeNull()
        expect(yield* store.getSession(1, shared)).toEqual(session(shared))
      }))

    test("a put replaces the value and the TTL", (store) =>
      Effect.gen(function* () {
        const k = key()
        const [first, second] = [image(300, "jpeg"), image(50, "webp")]
        yield* store.putImage(1, k, first, 60)
        yield* store.putImage(1, k, second, 1)
        expectSameImage(yield* store.getImage(1, k), second)
        yield* store.putSession(1, k, session(k, { campaignId: 1 }), 60)
        yield* store.putSession(1, k, session(k, { campaignId: 2 }), 1)
        expect(yield* store.getSession(1, k)).toEqual(session(k, { campaignId: 2 }))
        yield* Effect.sleep("1200 millis")
        expect(yield* store.getImage(1, k)).toBeNull()
        expect(yield* store.getSession(1, k)).toBeNull()
      }))

    test("entries expire after their TTL", (store) =>
      Effect.gen(function* () {
        const k = key()
        yield* store.putImage(1, k, image(100), 1)
        yield* store.putSession(1, k, session(k), 1)
        yield* Effect.sleep("1200 millis")
        expect(yield* store.getImage(1, k)).toBeNull()
        expect(yield* store.getSession(1, k)).toBeNull()
      }))

    test("a get restarts the TTL (sliding expiry)", (store) =>
      Effect.gen(function* () {
        const k = key()
        const stored = image(100)
        yield* store.putImage(1, k, stored, 1)
        yield* store.putSession(1, k, session(k), 1)
        yield* Effect.sleep("700 millis")
        expectSameImage(yield* store.getImage(1, k), stored)
        expect(yield* store.getSession(1, k)).toEqual(session(k))
        // 1.4 s after the put, but only 0.7 s after the last use.
        yield* Effect.sleep("700 millis")
        expectSameImage(yield* store.getImage(1, k), stored)
        expect(yield* store.getSession(1, k)).toEqual(session(k))
        yield* Effect.sleep("1200 millis")
        expect(yield* store.getImage(1, k)).toBeNull()
        expect(yield* store.getSession(1, k)).toBeNull()
      }))

    test("a stored image is a copy: changing the caller's bytes afterwards changes nothing", (store) =>
      Effect.gen(function* () {
        const k = key()
        const stored = image(100)
        const original = new Uint8Array(stored.bytes)
        yield* store.putImage(1, k, stored, 60)
        stored.bytes.fill(0)
        const read = yield* store.getImage(1, k)
        read!.bytes.fill(1)
        expect(Buffer.compare((yield* store.getImage(1, k))!.bytes, original)).toBe(0)
      }))

    test("a TTL that is not a positive number is a defect", (store) =>
      Effect.gen(function* () {
        for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
          const k = key()
          const exits = [
            yield* Effect.exit(store.putImage(1, k, image(10), ttl)),
            yield* Effect.exit(store.putSession(1, k, session(k), ttl))
          ]
          expect(exits.every((exit) => Exit.isFailure(exit) && Cause.isDie(exit.cause))).toBe(true)
          expect(yield* store.getImage(1, k)).toBeNull()
        }
      }))

    test("a session that breaks its schema is refused with SessionStoreError", (store) =>
      Effect.gen(function* () {
        const k = key()
        const error = yield* Effect.flip(
          store.putSession(1, k, session(k, { excluded: [{ column: "", values: ["x"] }] }), 60)
        )
        expect(error._tag).toBe("SessionStoreError")
        expect(yield* store.getSession(1, k)).toBeNull()
      }))
  })
