import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { RedisVisualSpaceStore } from "../../src/visual-space/RedisVisualSpaceStore.js"
import { VisualSpaceStore } from "../../src/visual-space/VisualSpaceStore.js"
import { redisForThisFile } from "../support/RedisSuite.js"
import { fitOf, spaceOf, visualSpaceStoreConformance } from "./conformance.js"

const redis = redisForThisFile()
const layer = () => RedisVisualSpaceStore.layer(redis.url).pipe(Layer.provide(redis.flushed))

visualSpaceStoreConformance("redis", layer)

describe("RedisVisualSpaceStore", () => {
  it.live("keeps a site's space in one hash, its arrays as raw bytes", () =>
    Effect.gen(function* () {
      const store = yield* VisualSpaceStore
      yield* store.put(3, fitOf(spaceOf(10, 4, 1)), 0)
      const client = redis.client()
      expect(yield* Effect.promise(() => client.keys("*"))).toEqual(
        expect.arrayContaining(["vspace:{3}", "vspace:{3}:photos"])
      )
      const [version, mean, projection] = yield* Effect.promise(() =>
        client.hmgetBuffer("vspace:{3}", "version", "mean", "projection")
      )
      expect(version?.toString()).toBe("1")
      expect(mean?.byteLength).toBe(10 * 8)
      expect(projection?.byteLength).toBe(4 * 10 * 4)
    }).pipe(Effect.provide(layer()))
  )

  it.live("a corrupt hash fails the read with the store's error", () =>
    Effect.gen(function* () {
      const store = yield* VisualSpaceStore
      yield* store.put(1, fitOf(spaceOf(6, 2, 1)), 0)
      yield* store.put(2, fitOf(spaceOf(6, 2, 2)), 0)
      const client = redis.client()
      yield* Effect.promise(() => client.hset("vspace:{1}", "projection", Buffer.alloc(6 * 2 * 4 - 2)))
      yield* Effect.promise(() => client.hdel("vspace:{2}", "inputDims"))
      const projection = yield* Effect.flip(store.get(1))
      expect(projection._tag).toBe("VisualSpaceStoreError")
      expect(projection.message).toContain("projection")
      const dims = yield* Effect.flip(store.get(2))
      expect(dims._tag).toBe("VisualSpaceStoreError")
      expect(dims.message).toContain("inputDims")
    }).pipe(Effect.provide(layer()))
  )
})
