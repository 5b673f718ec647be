import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Exit, Layer, Option } from "effect"
import { Redis } from "ioredis"
import { vi } from "vitest"
import type { ProductRecord } from "../../../src/domain/Product.js"
import { imageWorkKey, siteKeys } from "../../../src/services/catalog-store/redis/CatalogLayout.js"
import { RedisCatalogStore } from "../../../src/services/catalog-store/RedisCatalogStore.js"
import { CatalogStore } from "../../../src/services/catalog-store/CatalogStore.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { unreachableRedisUrl } from "../../support/RedisServer.js"
import { catalogStoreConformance, seedImageWork } from "./conformance.js"

const redis = redisForThisFile()

const freshLayer = () => RedisCatalogStore.layer(redis.url).pipe(Layer.provide(redis.flushed))

catalogStoreConformance("redis", freshLayer)

describe("RedisCatalogStore", () => {
  it.live(
    "acknowledged puts, versions and derived vectors survive a redis-server restart",
    () =>
      Effect.gen(function* () {
        const vector = new Float32Array([0.5, -1e-20, 123.456])
        const version = yield* Effect.gen(function* () {
          const store = yield* CatalogStore
          for (let n = 0; n < 100; n++) yield* store.put(1, `p${n}`, { title: `t${n}` } as ProductRecord, undefined)
          const { product } = yield* store.put(1, "p0", { title: "again" } as ProductRecord, undefined)
          expect(
            yield* store.saveDerived([{ siteId: 1, productId: "p0", version: product.version, textVector: vector }])
          ).toBe(1)
          return product.version
        }).pipe(Effect.provide(freshLayer()))
        // SIGTERM: redis-server fsyncs its AOF before exiting; the script cache is gone after it (EVAL fallback).
        yield* Effect.promise(redis.restart)
        yield* Effect.gen(function* () {
          const store = yield* CatalogStore
          expect(yield* store.count(1)).toBe(100)
          expect(Option.getOrThrow(yield* store.get(1, "p0"))).toMatchObject({ version, data: { title: "again" } })
          const vectors: Array<Array<number>> = []
          yield* store.forEachProduct(10, (page) =>
            Effect.sync(() =>
              page.forEach((p) => p.derived?.textVector && vectors.push(Array.from(p.derived.textVector)))
            )
          )
          expect(vectors).toEqual([Array.from(vector)])
          expect(
            (yield* store.put(1, "p1", { title: "new" } as ProductRecord, undefined)).product.version
          ).toBeGreaterThan(version)
        }).pipe(Effect.provide(RedisCatalogStore.layer(redis.url)))
      }),
    60_000
  )

  it.live("concurrent puts share one pipeline; each gets its own outcome, also after the script cache is flushed", () =>
    Effect.gen(function* () {
      const store = yield* CatalogStore
      const admin = yield* Effect.acquireRelease(
        Effect.sync(() => new Redis(redis.url)),
        (c) => Effect.promise(() => c.quit())
      )
      // A key of the wrong type makes this one product's put fail inside Redis (WRONGTYPE).
      yield* Effect.promise(() => admin.set(siteKeys(1).product("broken"), "not a hash"))
      const pipelines = vi.spyOn(Redis.prototype, "pipeline")
      const ids = ["a", "b", "broken", "c", "d"]
      const exits = yield* Effect.forEach(
        ids,
        (id) => Effect.exit(store.put(1, id, { title: id } as ProductRecord, undefined)),
        { concurrency: "unbounded" }
      )
      expect(pipelines).toHaveBeenCalledTimes(1)
      pipelines.mockRestore()
      expect(exits.map(Exit.isSuccess)).toEqual([true, true, false, true, true])
      expect(exits[2]).toMatchObject({ cause: { error: { _tag: "StoreError" } } })
      const versions = exits.flatMap((e) => (Exit.isSuccess(e) ? [e.value.product.version] : []))
      expect(new Set(versions).size).toBe(4)
      expect((yield* store.getMany(1, ["a", "b", "c", "d"])).map((p) => p.data.title)).toEqual(["a", "b", "c", "d"])

      // After SCRIPT FLUSH (or a restart) every call of a batch reloads the script and lands.
      yield* Effect.promise(() => admin.script("FLUSH"))
      const again = yield* Effect.forEach(
        ["a", "e", "f"],
        (id) => store.put(1, id, { title: `${id}2` } as ProductRecord, undefined),
        { concurrency: "unbounded" }
      )
      expect(again.map((r) => r.created)).toEqual([false, true, true])
      expect((yield* store.getMany(1, ["a", "e", "f"])).map((p) => p.data.title)).toEqual(["a2", "e2", "f2"])
    }).pipe(Effect.scoped, Effect.provide(freshLayer()))
  )

  it.live("a stored value that does not decode fails the read with a StoreError", () =>
    Effect.gen(function* () {
      const store = yield* CatalogStore
      const admin = yield* Effect.acquireRelease(
        Effect.sync(() => new Redis(redis.url)),
        (c) => Effect.promise(() => c.quit())
      )
      const { product } = yield* store.put(1, "p", { title: "x" } as ProductRecord, [
        { url: "https://img.example.com/a.jpg" }
      ])
      yield* store.saveDerived([{ siteId: 1, productId: "p", version: product.version, textVector: null }])
      yield* Effect.promise(() => admin.hset(siteKeys(1).product("p"), "data", `{"title": 5}`))
      expect(yield* Effect.flip(store.get(1, "p"))).toMatchObject({
        _tag: "StoreError",
        message: expect.stringContaining("title")
      })
      yield* Effect.promise(() => admin.hset(siteKeys(1).product("p"), "data", `{"title": "x"}`, "images", "not json"))
      expect(yield* Effect.flip(store.imageAnalyses(1, "p"))).toMatchObject({ _tag: "StoreError" })
      // The startup restore too: a failed read, not a crash.
      expect(yield* Effect.flip(store.forEachProduct(10, () => Effect.void))).toMatchObject({ _tag: "StoreError" })
    }).pipe(Effect.scoped, Effect.provide(freshLayer()))
  )

  it.live("a Redis filled before the image-work sets files every product's image work once", () =>
    Effect.gen(function* () {
      const store = yield* CatalogStore
      const admin = yield* Effect.acquireRelease(
        Effect.sync(() => new Redis(redis.url)),
        (c) => Effect.promise(() => c.quit())
      )
      const expected = yield* seedImageWork(store)
      // As a Redis written by a version without them.
      yield* Effect.promise(() => admin.del(siteKeys(1).unanalysed, siteKeys(2).undetected, imageWorkKey))
      expect(yield* store.pendingImageWork(10)).toEqual(expected)
      expect(yield* Effect.promise(() => admin.get(imageWorkKey))).toBe("1")
    }).pipe(Effect.scoped, Effect.provide(freshLayer()))
  )

  it.live(
    "a Redis filled before text versions counts each product's version as its text version, keeping its derived data",
    () =>
      Effect.gen(function* () {
        const store = yield* CatalogStore
        const admin = yield* Effect.acquireRelease(
          Effect.sync(() => new Redis(redis.url)),
          (c) => Effect.promise(() => c.quit())
        )
        const { product } = yield* store.put(1, "p", { title: "Drill", price: 5 } as ProductRecord, undefined)
        yield* store.saveDerived([
          { siteId: 1, productId: "p", version: product.version, textVector: new Float32Array([1, 0]) }
        ])
        // As a hash written by a version without the field.
        yield* Effect.promise(() => admin.hdel(siteKeys(1).product("p"), "tver"))
        expect(Option.getOrThrow(yield* store.get(1, "p")).textVersion).toBe(product.version)
        const [patched] = yield* store.writeMany(1, [
          {
            _tag: "Modify",
            productId: "p",
            modify: (current) => Either.right({ data: { ...current.data, price: 4 } as ProductRecord })
          }
        ])
        expect(patched).toMatchObject({ _tag: "Written", product: { textVersion: product.version } })
        expect(yield* store.stale(10)).toEqual([])
        expect(
          yield* store.saveDerived([
            { siteId: 1, productId: "p", version: product.version, textVector: new Float32Array([0, 1]) }
          ])
        ).toBe(1)
      }).pipe(Effect.scoped, Effect.provide(freshLayer()))
  )

  it.live("fails fast with a StoreError when Redis is not there", () =>
    Effect.gen(function* () {
      const started = Date.now()
      const error = yield* Effect.flip(
        Effect.provide(CatalogStore, RedisCatalogStore.layer(yield* unreachableRedisUrl))
      )
      expect(error).toMatchObject({ _tag: "StoreError" })
      expect(Date.now() - started).toBeLessThan(5_000)
    })
  )

  it.live(
    "a command while Redis is down fails at once instead of queueing",
    () =>
      Effect.gen(function* () {
        const store = yield* CatalogStore
        yield* store.put(1, "p", { title: "x" } as ProductRecord, undefined)
        yield* Effect.promise(() => redis.server.stop())
        const started = Date.now()
        const error = yield* Effect.flip(store.get(1, "p"))
        expect(error).toMatchObject({ _tag: "StoreError" })
        // Puts of one batch too, each with its own error.
        const puts = yield* Effect.forEach(
          ["p", "q"],
          (id) => Effect.flip(store.put(1, id, { title: id } as ProductRecord, undefined)),
          { concurrency: "unbounded" }
        )
        expect(puts).toMatchObject([{ _tag: "StoreError" }, { _tag: "StoreError" }])
        expect(Date.now() - started).toBeLessThan(5_000)
      })
        .pipe(Effect.ensuring(Effect.promise(redis.restart)))
        .pipe(Effect.provide(freshLayer())),
    30_000
  )
})
