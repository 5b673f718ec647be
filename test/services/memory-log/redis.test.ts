import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Redis } from "ioredis"
import { MemoryLog } from "../../../src/services/memory-log/MemoryLog.js"
import { RedisMemoryLog } from "../../../src/services/memory-log/RedisMemoryLog.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { memoryLogConformance } from "./conformance.js"
import { contents, user } from "./helpers.js"

const redis = redisForThisFile()

const freshLayer = () => RedisMemoryLog.layer(redis.url).pipe(Layer.provide(redis.flushed))

memoryLogConformance("redis", freshLayer)

describe("RedisMemoryLog", () => {
  it.live(
    "acknowledged appends, keys and the summary survive a redis-server restart",
    () =>
      Effect.gen(function* () {
        const appended = yield* Effect.flatMap(MemoryLog, (log) =>
          Effect.forEach(Array.from({ length: 200 }), (_, n) => log.append(1, "durable", [user(`item-${n}`)], `k${n}`))
        ).pipe(Effect.provide(freshLayer()))
        expect(appended.at(-1)?.length).toBe(200)
        // SIGTERM: redis-server fsyncs its AOF before exiting.
        yield* Effect.promise(redis.restart)
        yield* Effect.gen(function* () {
          const log = yield* MemoryLog
          expect(contents(yield* log.replay(1, "durable", 0, 1000))).toEqual(
            Array.from({ length: 200 }, (_, n) => `item-${n}`)
          )
          expect(yield* log.append(1, "durable", [user("item-7")], "k7")).toEqual({
            positions: [7],
            duplicate: true,
            length: 8
          })
          expect(yield* log.summary(1, "durable")).toMatchObject({ length: 200, lastUser: "item-199" })
          expect((yield* log.list(1, 10)).conversations).toMatchObject([{ conversationId: "durable", length: 200 }])
        }).pipe(Effect.provide(RedisMemoryLog.layer(redis.url)))
      }),
    60_000
  )

  it.live("summary() catches up on items an appender did not fold (it died between the two steps)", () =>
    Effect.gen(function* () {
      const log = yield* MemoryLog
      yield* log.append(1, "c1", [user("first request here")])
      // Another process's append that committed but never folded: the stored state lags one item.
      const client = new Redis(redis.url)
      const stale = yield* Effect.promise(() => client.hgetall("mem:{1}:c1:summary"))
      yield* log.append(1, "c1", [user("second request here")])
      yield* Effect.promise(() => client.hset("mem:{1}:c1:summary", stale).then(() => client.quit()))
      expect(yield* log.summary(1, "c1")).toMatchObject({ length: 2, lastUser: "second request here" })
    }).pipe(Effect.provide(freshLayer()))
  )
})
