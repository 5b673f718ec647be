import { Effect, Layer } from "effect"
import type { Redis } from "ioredis"
import { HALF_LIFE_MS } from "./Decay.js"
import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { script } from "../../platform/redis/LuaScript.js"
import {
  type KnownSearch,
  type ProductStats,
  type QueryFigures,
  SEARCH_MEMORY_MS,
  ShopperStats,
  ShopperStatsError,
  type ShopperStatsService
} from "./ShopperStats.js"

/**
 * The distributed ShopperStats on Redis, per site in one hash slot (`stats:{site}:`):
 * - `cursor`: the last event sequence aggregated;
 * - `orders`: hash product → orders; `pop`: hash product → "popularity recent at";
 * - `with:<product>`: hash partner → orders naming both;
 * - `q:<day>`: hash "<metric>\n<query>" → count (metrics s searches, z zero results, c clicks,
 *   p position sum, k clicked searches);
 * - `req:<request id>`: "day\nclicked\nquery", expiring after SEARCH_MEMORY_MS.
 * One script applies a step (its delta as JSON) with the cursor check, atomically.
 */
const prefix = (siteId: number) => `stats:{${siteId}}:`

// KEYS[1]: the cursor. ARGV: from, to, prefix, popularity and recent half-lives, search memory ms, delta JSON.
const applyLua = `
local held = tonumber(redis.call('GET', KEYS[1]) or '0')
if held ~= tonumber(ARGV[1]) then return 0 end
local p = ARGV[3]
local hp, hr = tonumber(ARGV[4]), tonumber(ARGV[5])
local delta = cjson.decode(ARGV[7])
local function decay(v, from, to, h) if v == 0 then return 0 end return v * 2 ^ (-(to - from) / h) end
for _, d in ipairs(delta.products) do
  if d.orders > 0 then redis.call('HINCRBY', p .. 'orders', d.productId, d.orders) end
  local pop, rec, at = d.popularity, d.recent, d.at
  local old = redis.call('HGET', p .. 'pop', d.productId)
  if old then
    local op, orc, oat = string.match(old, '^(%S+) (%S+) (%S+)$')
    op, orc, oat = tonumber(op), tonumber(orc), tonumber(oat)
    local now = math.max(oat, at)
    pop = decay(op, oat, now, hp) + decay(pop, at, now, hp)
    rec = decay(orc, oat, now, hr) + decay(rec, at, now, hr)
    at = now
  end
  redis.call('HSET', p .. 'pop', d.productId, string.format('%.17g %.17g %.17g', pop, rec, at))
end
for _, pair in ipairs(delta.pairs) do
  redis.call('HINCRBY', p .. 'with:' .. pair.a, pair.b, pair.together)
  redis.call('HINCRBY', p .. 'with:' .. pair.b, pair.a, pair.together)
end
for _, q in ipairs(delta.queries) do
  local key = p .. 'q:' .. q.day
  if q.searches > 0 then redis.call('HINCRBY', key, 's\\n' .. q.query, q.searches) end
  if q.zeroResults > 0 then redis.call('HINCRBY', key, 'z\\n' .. q.query, q.zeroResults) end
  if q.clicks > 0 then redis.call('HINCRBY', key, 'c\\n' .. q.query, q.clicks) end
  if q.positionSum > 0 then redis.call('HINCRBY', key, 'p\\n' .. q.query, q.positionSum) end
  if q.clickedSearches > 0 then redis.call('HINCRBY', key, 'k\\n' .. q.query, q.clickedSearches) end
end
for _, s in ipairs(delta.searches) do
  redis.call('SET', p .. 'req:' .. s.requestId,
    s.day .. '\\n' .. (s.clicked and '1' or '0') .. '\\n' .. s.query, 'PX', ARGV[6])
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`

const METRICS: Record<string, keyof Omit<QueryFigures, "query">> = {
  s: "searches",
  z: "zeroResults",
  c: "clicks",
  p: "positionSum",
  k: "clickedSearches"
}

/** Days one `queries` call reads per round trip. */
const DAYS_PER_PIPELINE = 64

const parsePop = (productId: string, value: string, orders: string | null): ProductStats => {
  const [popularity, recent, at] = value.split(" ").map(Number)
  return { productId, orders: Number(orders ?? 0), popularity, recent, at }
}

export const makeRedisShopperStats = (client: Redis): ShopperStatsService => {
  const call = <A>(what: string, f: () => Promise<A>) =>
    Effect.tryPromise({
      try: f,
      catch: (cause) => new ShopperStatsError({ message: `shopper stats: ${what} failed: ${String(cause)}`, cause })
    })
  const apply = script(client, applyLua)
  const products = async (siteId: number, productIds: ReadonlyArray<string>) => {
    const ids = [...new Set(productIds)]
    if (ids.length === 0) return []
    const p = prefix(siteId)
    const [pops, orders] = await Promise.all([client.hmget(`${p}pop`, ...ids), client.hmget(`${p}orders`, ...ids)])
    return ids.flatMap((id, i) => (pops[i] === null ? [] : [parsePop(id, pops[i]!, orders[i])]))
  }
  return {
    cursor: (siteId) => call("cursor", async () => Number((await client.get(`${prefix(siteId)}cursor`)) ?? 0)),
    apply: (siteId, from, to, delta) =>
      call(
        "apply",
        async () =>
          (await apply(
            [`${prefix(siteId)}cursor`],
            [
              from,
              to,
              prefix(siteId),
              HALF_LIFE_MS.popularity,
              HALF_LIFE_MS.recent,
              SEARCH_MEMORY_MS,
              // cjson decodes an empty JSON array as an object; ipairs over it is empty all the same.
              JSON.stringify(delta)
            ]
          )) === 1
      ),
    boughtWith: (siteId, productId, minTogether, limit) =>
      call("boughtWith", async () => {
        const p = prefix(siteId)
        const all = Object.entries(await client.hgetall(`${p}with:${productId}`))
          .map(([id, n]) => ({ productId: id, together: Number(n) }))
          .filter((x) => x.together >= minTogether)
          .sort((x, y) => y.together - x.together || (x.productId < y.productId ? -1 : 1))
          .slice(0, limit)
        const orders = await client.hmget(`${p}orders`, productId, ...all.map((x) => x.productId))
        return {
          orders: Number(orders[0] ?? 0),
          partners: all.map((x, i) => ({ ...x, orders: Number(orders[i + 1] ?? 0) }))
        }
      }),
    products: (siteId, productIds) => call("products", () => products(siteId, productIds)),
    allProducts: (siteId) =>
      call("allProducts", async () => {
        const p = prefix(siteId)
        const [pops, orders] = await Promise.all([client.hgetall(`${p}pop`), client.hgetall(`${p}orders`)])
        return Object.entries(pops).map(([id, value]) => parsePop(id, value, orders[id] ?? null))
      }),
    searches: (siteId, requestIds) =>
      call("searches", async () => {
        const ids = [...new Set(requestIds)]
        if (ids.length === 0) return []
        const values = await client.mget(ids.map((id) => `${prefix(siteId)}req:${id}`))
        return ids.flatMap((requestId, i): Array<KnownSearch> => {
          const value = values[i]
          if (value === null) return []
          const [day, clicked] = value.split("\n", 2)
          const query = value.slice(day.length + clicked.length + 2)
          return [{ requestId, query, day: Number(day), clicked: clicked === "1" }]
        })
      }),
    queries: (siteId, fromDay, toDay) =>
      call("queries", async () => {
        const figures = new Map<string, { -readonly [K in keyof QueryFigures]: QueryFigures[K] }>()
        for (let start = fromDay; start <= toDay; start += DAYS_PER_PIPELINE) {
          const pipeline = client.pipeline()
          for (let day = start; day <= Math.min(toDay, start + DAYS_PER_PIPELINE - 1); day++)
            pipeline.hgetall(`${prefix(siteId)}q:${day}`)
          for (const [error, reply] of (await pipeline.exec()) ?? []) {
            if (error) throw error
            for (const [field, count] of Object.entries(reply as Record<string, string>)) {
              const metric = METRICS[field.slice(0, 1)]
              const query = field.slice(2)
              let entry = figures.get(query)
              if (entry === undefined) {
                entry = { query, searches: 0, zeroResults: 0, clicks: 0, positionSum: 0, clickedSearches: 0 }
                figures.set(query, entry)
              }
              if (metric !== undefined) entry[metric] += Number(count)
            }
          }
        }
        return [...figures.values()]
      })
  }
}

export const RedisShopperStats = {
  /** Its own fail-fast ioredis connection to `url`, closed with the layer. */
  layer: (url: string): Layer.Layer<ShopperStats, ShopperStatsError> =>
    Layer.scoped(
      ShopperStats,
      connectFailFast(
        url,
        { commandTimeoutMs: 10_000 },
        (cause) =>
          new ShopperStatsError({
            message: `shopper stats: cannot connect to Redis: ${
              cause instanceof Error ? cause.message : String(cause)
            }`,
            cause
          })
      ).pipe(Effect.map(makeRedisShopperStats))
    )
}
