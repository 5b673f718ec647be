import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Option } from "effect"
import { Redis } from "ioredis"
import { PredictionStore } from "../../../src/services/prediction-store/PredictionStore.js"
import type { StoredPrediction } from "../../../src/model/Prediction.js"
import { RedisPredictionStore } from "../../../src/services/prediction-store/RedisPredictionStore.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { scopedRedis, unreachableRedisUrl, whileReconnecting } from "../../support/RedisServer.js"
import { predictionStoreConformance } from "./conformance.js"

const redis = redisForThisFile()

predictionStoreConformance("redis", () => RedisPredictionStore.layer(redis.url).pipe(Layer.provide(redis.flushed)))

const prediction: StoredPrediction = {
  siteId: 1,
  productId: "p",
  version: 4,
  inputs: "v4",
  result: { attributes: [], images: [], neighbours: 0 },
  computedAt: 1_700_000_000_000
}

describe("RedisPredictionStore", () => {
  it.live("fails fast with a StoreError when Redis is not there", () =>
    Effect.gen(function* () {
      const [elapsed, error] = yield* Effect.timed(
        Effect.flip(Effect.provide(PredictionStore, RedisPredictionStore.layer(yield* unreachableRedisUrl)))
      )
      expect(error).toMatchObject({ _tag: "StoreError" })
      expect(Duration.toMillis(elapsed)).toBeLessThan(5_000)
    })
  )

  it.scopedLive(
    "a stopped Redis fails commands at once with a StoreError; after a restart the AOF still has the prediction",
    () =>
      Effect.gen(function* () {
        // Its own server: stopping the shared one would break the other tests.
        const own = yield* scopedRedis()
        const store = yield* Effect.map(Layer.build(RedisPredictionStore.layer(own.url)), Context.get(PredictionStore))
        yield* store.save(prediction)

        yield* Effect.promise(own.stop)
        const [elapsed, error] = yield* Effect.timed(Effect.flip(store.get(1, "p")))
        expect(error).toMatchObject({ _tag: "StoreError" })
        expect(Duration.toMillis(elapsed)).toBeLessThan(2_000)
        expect(yield* Effect.flip(store.save({ ...prediction, version: 5 }))).toMatchObject({ _tag: "StoreError" })

        // ioredis reconnects in the background.
        yield* Effect.promise(own.restart)
        const back = yield* store.get(1, "p").pipe(Effect.retry(whileReconnecting))
        expect(back).toEqual(Option.some(prediction))
      }),
    30_000
  )

  it.scopedLive("a stored result that does not decode fails the read with a StoreError", () =>
    Effect.gen(function* () {
      const store = yield* PredictionStore
      yield* store.save(prediction)
      const admin = yield* Effect.acquireRelease(
        Effect.sync(() => new Redis(redis.url)),
        (c) => Effect.promise(() => c.quit())
      )
      yield* Effect.promise(() => admin.hset("pred:{1}:p", "result", `{"attributes": []}`))
      expect(yield* Effect.flip(store.get(1, "p"))).toMatchObject({
        _tag: "StoreError",
        message: expect.stringContaining("images")
      })
    }).pipe(Effect.provide(RedisPredictionStore.layer(redis.url).pipe(Layer.provide(redis.flushed))))
  )
})
