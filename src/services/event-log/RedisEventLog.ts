import { Effect, Layer } from "effect"
import type { Redis } from "ioredis"
import { eventTime } from "../../domain/ShopperEvents.js"
import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { script } from "../../platform/redis/LuaScript.js"
import { decodeEvent, encodeEvent } from "./EventCodec.js"
import { EventLog, EventLogError, type EventLogService, type StoredEvent } from "./EventLog.js"

/**
 * The distributed EventLog on Redis, per site (one hash slot: `{site}`): a stream whose entry
 * ids are `0-<sequence>`, a counter for the sequence and a hash of the event ids seen. One
 * script appends a batch atomically, so an event id is stored once however often it is sent.
 * Durability is Redis's (AOF, appendfsync everysec).
 */
const keys = (siteId: number) => [`events:{${siteId}}:ids`, `events:{${siteId}}:log`, `events:{${siteId}}:seq`]

// ARGV[1]: received at; then per event: id, time, JSON.
const appendLua = `
local accepted = 0
local duplicates = 0
for i = 2, #ARGV, 3 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], '1') == 1 then
    local sequence = redis.call('INCR', KEYS[3])
    redis.call('XADD', KEYS[2], '0-' .. sequence, 't', ARGV[i + 1], 'r', ARGV[1], 'e', ARGV[i + 2])
    accepted = accepted + 1
  else
    duplicates = duplicates + 1
  end
end
return { accepted, duplicates }
`

type StreamEntry = [id: string, fields: Array<string>]

const toStored = ([id, fields]: StreamEntry): StoredEvent => {
  const field = (name: string) => fields[fields.indexOf(name) + 1]
  return {
    sequence: Number(id.slice(2)),
    time: Number(field("t")),
    receivedAt: Number(field("r")),
    event: decodeEvent(field("e"))
  }
}

export const makeRedisEventLog = (client: Redis): EventLogService => {
  const call = <A>(what: string, f: () => Promise<A>) =>
    Effect.tryPromise({
      try: f,
      catch: (cause) => new EventLogError({ message: `events: ${what} failed: ${String(cause)}`, cause })
    })
  const append = script(client, appendLua)
  return {
    append: (siteId, events, receivedAt) =>
      call("append", () =>
        append(keys(siteId), [
          receivedAt,
          ...events.flatMap((e) => [e.eventId, eventTime(e, receivedAt), encodeEvent(e)])
        ])
      ).pipe(
        Effect.map((reply) => {
          const [accepted, duplicates] = reply as [number, number]
          return { accepted, duplicates }
        })
      ),
    last: (siteId) => call("last", async () => Number((await client.get(keys(siteId)[2])) ?? 0)),
    read: (siteId, sequence, limit) =>
      Effect.flatMap(
        call(
          "read",
          () => client.xrange(keys(siteId)[1], `(0-${sequence}`, "+", "COUNT", limit) as Promise<Array<StreamEntry>>
        ),
        (entries) =>
          Effect.try({
            try: () => entries.map(toStored),
            catch: (cause) => new EventLogError({ message: `events: read failed: ${String(cause)}`, cause })
          })
      )
  }
}

export const RedisEventLog = {
  /** Its own fail-fast ioredis connection to `url`, closed with the layer. */
  layer: (url: string): Layer.Layer<EventLog, EventLogError> =>
    Layer.scoped(
      EventLog,
      connectFailFast(
        url,
        { commandTimeoutMs: 5_000 },
        (cause) =>
          new EventLogError({
            message: `events: cannot connect to Redis: ${cause instanceof Error ? cause.message : String(cause)}`,
            cause
          })
      ).pipe(Effect.map(makeRedisEventLog))
    )
}
