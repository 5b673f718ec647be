import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { EventLog } from "../../../src/services/event-log/EventLog.js"
import { RedisEventLog } from "../../../src/services/event-log/RedisEventLog.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { eventLogConformance } from "./conformance.js"

const redis = redisForThisFile()

const freshLayer = () => RedisEventLog.layer(redis.url).pipe(Layer.provide(redis.flushed))

eventLogConformance("redis", freshLayer)

describe("RedisEventLog", () => {
  it.live(
    "acknowledged events and their ids survive a redis-server restart",
    () =>
      Effect.gen(function* () {
        const events = Array.from({ length: 300 }, (_, n) => ({
          eventId: `v${n}`,
          type: "view" as const,
          productIds: [`p${n}`]
        }))
        yield* Effect.flatMap(EventLog, (log) => log.append(1, events, 1)).pipe(Effect.provide(freshLayer()))
        // SIGTERM: redis-server fsyncs its AOF before exiting.
        yield* Effect.promise(redis.restart)
        const [again, all] = yield* Effect.flatMap(EventLog, (log) =>
          Effect.zip(log.append(1, events.slice(0, 10), 2), log.read(1, 0, 1_000))
        ).pipe(Effect.provide(RedisEventLog.layer(redis.url)))
        expect(again).toEqual({ accepted: 0, duplicates: 10 })
        expect(all.map((e) => e.event.eventId)).toEqual(events.map((e) => e.eventId))
      }),
    60_000
  )
})
