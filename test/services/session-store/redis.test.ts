import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Exit, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { SessionStore } from "../../../src/services/session-store/SessionStore.js"
import { RedisSessionStore } from "../../../src/services/session-store/RedisSessionStore.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { scopedRedis, unreachableRedisUrl, whileReconnecting } from "../../support/RedisServer.js"
import { expectSameImage, image, session, sessionStoreConformance } from "./conformance.js"

const redis = redisForThisFile()

sessionStoreConformance("redis", () => RedisSessionStore.layer(redis.url))

/** A store from its own layer instance, i.e. its own client, like one api replica. */
const replica = (url: string) => Effect.map(Layer.build(RedisSessionStore.layer(url)), Context.get(SessionStore))

describe("RedisSessionStore", () => {
  it.scopedLive("two replicas (two clients) share entries, and a read on one keeps them alive for both", () =>
    Effect.gen(function* () {
      const [a, b] = [yield* replica(redis.url), yield* replica(redis.url)]
      const k = randomUUID()
      const stored = image(50_000)
      yield* a.putImage(1, k, stored, 1)
      yield* a.putSession(1, k, session(k), 1)
      expectSameImage(yield* b.getImage(1, k), stored)
      expect(yield* b.getSession(1, k)).toEqual(session(k))
      yield* Effect.sleep("700 millis")
      yield* b.getImage(1, k)
      yield* Effect.sleep("700 millis")
      expectSameImage(yield* a.getImage(1, k), stored)
      expect(yield* a.getSession(1, k)).toBeNull() // nobody read it for 1.4 s
    })
  )

  it.scopedLive("keeps each entry in one site-tagged hash whose TTL Redis enforces", () =>
    Effect.gen(function* () {
      const store = yield* replica(redis.url)
      const k = randomUUID()
      yield* store.putImage(3, k, image(10), 30)
      yield* store.putSession(3, k, session(k), 60)
      const [imageTtl, sessionTtl] = yield* Effect.promise(() =>
        Promise.all([redis.client().pttl(`sess:{3}:img:${k}`), redis.client().pttl(`sess:{3}:s:${k}`)])
      )
      expect(imageTtl).toBeGreaterThan(29_000)
      expect(imageTtl).toBeLessThanOrEqual(30_000)
      expect(sessionTtl).toBeGreaterThan(59_000)
      expect(JSON.parse((yield* Effect.promise(() => redis.client().hget(`sess:{3}:s:${k}`, "json")))!)).toEqual(
        session(k)
      )
    })
  )

  it.scopedLive("reloads the read script when Redis has forgotten it", () =>
    Effect.gen(function* () {
      const store = yield* replica(redis.url)
      const k = randomUUID()
      yield* store.putSession(1, k, session(k), 60)
      expect(yield* store.getSession(1, k)).toEqual(session(k))
      yield* Effect.promise(() => redis.client().script("FLUSH"))
      expect(yield* store.getSession(1, k)).toEqual(session(k))
    })
  )

  it.live("an unreachable Redis fails the layer quickly", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Effect.scoped(replica(yield* unreachableRedisUrl)))
      expect(Exit.isFailure(exit)).toBe(true)
    }).pipe(Effect.timeout("2 seconds"))
  )

  it.scopedLive("a stopped Redis fails reads within 2 s, and a restarted one serves again", () =>
    Effect.gen(function* () {
      // Its own server: stopping the shared one would break the other tests.
      const own = yield* scopedRedis()
      const store = yield* replica(own.url)
      const stored = image(1000)
      yield* store.putImage(1, "k", stored, 60)

      yield* Effect.promise(own.stop)
      const [elapsed, error] = yield* Effect.timed(Effect.flip(store.getImage(1, "k")))
      expect(error._tag).toBe("SessionStoreError")
      expect(Duration.toMillis(elapsed)).toBeLessThan(2_000)

      // ioredis reconnects in the background; the AOF kept the image.
      yield* Effect.promise(own.restart)
      const back = yield* store.getImage(1, "k").pipe(Effect.retry(whileReconnecting))
      expectSameImage(back, stored)
    })
  )
})
