import { Effect, Layer, Option } from "effect"
import type { Redis } from "ioredis"
import { StoreError } from "../catalog-store/CatalogStore.js"
import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { script } from "../../platform/redis/LuaScript.js"
import { PredictionStore, type PredictionStoreService } from "./PredictionStore.js"
import type { StoredPrediction } from "../../model/Prediction.js"
import { decodeResult, encodeResult } from "./PredictionCodec.js"

/**
 * The distributed PredictionStore: whichever worker computed a prediction, every api replica
 * reads it. One hash per product, keyed by site (the hash tag, like the other Redis layouts):
 *   pred:{site}:<product>   hash: version, inputs, result (PredictionResult JSON), computed (epoch ms)
 * There is one kind of key per site, so product ids (which may contain ':') cannot collide.
 */
const predictionKey = (siteId: number, productId: string) => `pred:{${siteId}}:${productId}`
const fields = ["version", "inputs", "result", "computed"] as const

/**
 * Compare-and-set in one step, as the SQLite upsert does: two workers may finish predictions of
 * different versions in any order, and the older must never replace the newer (an equal version
 * does replace: it is a recomputation, e.g. after more images were analysed).
 * KEYS: prediction. ARGV: version, inputs, result JSON, computed. Returns 1 saved, 0 kept the stored one.
 */
const saveLua = `
local stored = redis.call('HGET', KEYS[1], 'version')
if stored and tonumber(stored) > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'inputs', ARGV[2], 'result', ARGV[3], 'computed', ARGV[4])
return 1
`

const call = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({
    try: f,
    catch: (cause) => new StoreError({ message: `prediction store: ${what} failed: ${String(cause)}`, cause })
  })

const make = (client: Redis): PredictionStoreService => {
  const saveScript = script(client, saveLua)
  return {
    get: (siteId, productId) =>
      call("get", async () => {
        const [version, inputs, result, computed] = await client.hmget(predictionKey(siteId, productId), ...fields)
        return version === null || inputs === null || result === null || computed === null
          ? Option.none()
          : Option.some<StoredPrediction>({
              siteId,
              productId,
              version: Number(version),
              inputs,
              result: decodeResult(result),
              computedAt: Number(computed)
            })
      }),
    save: (p) =>
      call("save", () =>
        saveScript([predictionKey(p.siteId, p.productId)], [p.version, p.inputs, encodeResult(p.result), p.computedAt])
      ).pipe(Effect.asVoid),
    remove: (siteId, productId) =>
      call("remove", () => client.del(predictionKey(siteId, productId))).pipe(Effect.asVoid)
  }
}

export const RedisPredictionStore = {
  /** Its own ioredis connection to `url`, closed with the layer; commands fail fast while Redis is down. */
  layer: (url: string): Layer.Layer<PredictionStore, StoreError> =>
    Layer.scoped(
      PredictionStore,
      // A prediction is a few kilobytes of JSON: 2 s is ample and keeps a waiting request short.
      connectFailFast(
        url,
        { commandTimeoutMs: 2_000 },
        (cause) => new StoreError({ message: `prediction store: cannot connect to Redis: ${String(cause)}`, cause })
      ).pipe(Effect.map(make))
    )
}
