import { Effect, Layer, Option } from "effect"
import type { Redis } from "ioredis"
import { StoreError } from "../catalog-store/CatalogStore.js"
import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { script } from "../../platform/redis/LuaScript.js"
import { decodeEntry, encodeEntry } from "./MerchandisingCodec.js"
import {
  type EntryKind,
  MerchandisingStore,
  type MerchandisingStoreService,
  type StoredEntry
} from "./MerchandisingStore.js"

/**
 * The distributed MerchandisingStore, keyed by site (the hash tag, like the other layouts):
 *   merch:{site}:synonym, merch:{site}:rule, merch:{site}:campaign   hash: id → "<updatedAt>|<value JSON>"
 *   merch:{site}:version                      integer, bumped by every change
 * Each write is one script, so the bound check, the write and the version bump are atomic.
 */
const kindKey = (siteId: number, kind: EntryKind) => `merch:{${siteId}}:${kind}`
const versionKey = (siteId: number) => `merch:{${siteId}}:version`

/** KEYS: kind hash, version. ARGV: id, stored, limit. Returns 1 created, 0 replaced, -1 full. */
const putLua = `
local exists = redis.call('HEXISTS', KEYS[1], ARGV[1])
if exists == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCR', KEYS[2])
return 1 - exists
`

/** KEYS: kind hash, version. ARGV: id. Returns 1 removed, 0 none. */
const removeLua = `
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
if removed == 1 then redis.call('INCR', KEYS[2]) end
return removed
`

/** KEYS: kind hash, version. ARGV: replace (1/0), limit, then id, stored pairs. Returns 1 written, -1 full. */
const batchLua = `
local replace = ARGV[1] == '1'
local size = 0
if not replace then size = redis.call('HLEN', KEYS[1]) end
local seen = {}
for i = 3, #ARGV, 2 do
  local id = ARGV[i]
  if not seen[id] then
    seen[id] = true
    if replace or redis.call('HEXISTS', KEYS[1], id) == 0 then size = size + 1 end
  end
end
if size > tonumber(ARGV[2]) then return -1 end
if replace then redis.call('DEL', KEYS[1]) end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('INCR', KEYS[2])
return 1
`

/** KEYS: kind hash, version. ARGV: id, stored pairs. Returns 1 written, 0 the kind had entries. */
const seedLua = `
if redis.call('HLEN', KEYS[1]) > 0 then return 0 end
for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('INCR', KEYS[2])
return 1
`

const call = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({
    try: f,
    catch: (cause) => new StoreError({ message: `merchandising store: ${what} failed: ${String(cause)}`, cause })
  })

const encodeStored = <K extends EntryKind>(kind: K, entry: StoredEntry<K>) =>
  `${entry.updatedAt}|${encodeEntry(kind, entry.value)}`

const decodeStored = <K extends EntryKind>(kind: K, id: string, stored: string): StoredEntry<K> => {
  const bar = stored.indexOf("|")
  return { id, updatedAt: Number(stored.slice(0, bar)), value: decodeEntry(kind, stored.slice(bar + 1)) }
}

const make = (client: Redis): MerchandisingStoreService => {
  const putScript = script(client, putLua)
  const removeScript = script(client, removeLua)
  const batchScript = script(client, batchLua)
  const seedScript = script(client, seedLua)
  return {
    seed: (siteId, kind, entries) =>
      call("seed", () =>
        seedScript(
          [kindKey(siteId, kind), versionKey(siteId)],
          entries.flatMap((entry) => [entry.id, encodeStored(kind, entry)])
        )
      ).pipe(Effect.map((n) => n === 1)),
    put: (siteId, kind, entry, limit) =>
      call("put", () =>
        putScript([kindKey(siteId, kind), versionKey(siteId)], [entry.id, encodeStored(kind, entry), limit])
      ).pipe(Effect.map((n) => (n === -1 ? "full" : n === 1 ? "created" : "replaced"))),
    get: (siteId, kind, id) =>
      call("get", async () => {
        const stored = await client.hget(kindKey(siteId, kind), id)
        return stored === null ? Option.none() : Option.some(decodeStored(kind, id, stored))
      }),
    remove: (siteId, kind, id) =>
      call("remove", () => removeScript([kindKey(siteId, kind), versionKey(siteId)], [id])).pipe(
        Effect.map((n) => n === 1)
      ),
    all: (siteId, kind) =>
      call("all", async () => {
        const entries = Object.entries(await client.hgetall(kindKey(siteId, kind)))
        return entries
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([id, stored]) => decodeStored(kind, id, stored))
      }),
    batch: (siteId, kind, entries, replace, limit) =>
      call("batch", () =>
        batchScript(
          [kindKey(siteId, kind), versionKey(siteId)],
          [replace ? 1 : 0, limit, ...entries.flatMap((entry) => [entry.id, encodeStored(kind, entry)])]
        )
      ).pipe(Effect.map((n) => (n === -1 ? "full" : "written"))),
    version: (siteId) => call("version", () => client.get(versionKey(siteId))).pipe(Effect.map((v) => Number(v ?? 0)))
  }
}

export const RedisMerchandisingStore = {
  /** Its own ioredis connection to `url`, closed with the layer; commands fail fast while Redis is down. */
  layer: (url: string): Layer.Layer<MerchandisingStore, StoreError> =>
    Layer.scoped(
      MerchandisingStore,
      connectFailFast(
        url,
        { commandTimeoutMs: 2_000 },
        (cause) => new StoreError({ message: `merchandising store: cannot connect to Redis: ${String(cause)}`, cause })
      ).pipe(Effect.map(make))
    )
}
