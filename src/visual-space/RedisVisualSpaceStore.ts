import { Effect, Layer, Option } from "effect"
import type { Redis } from "ioredis"
import { connectFailFast } from "../platform/redis/FailFastRedis.js"
import { execAll } from "../platform/redis/Transaction.js"
import {
  decodeStored,
  encodeFit,
  VisualSpaceStore,
  VisualSpaceStoreError,
  type VisualSpaceStoreService
} from "./VisualSpaceStore.js"

/**
 * The distributed VisualSpaceStore on Redis: one hash per site, `vspace:{site}`, with the fields
 * `version`, `fittedAt`, `photos`, `samples`, `inputDims`, `outputDims` (decimal numbers),
 * `mean` (Float64 bytes) and `projection` (Float32 bytes). A put is one MULTI that bumps
 * `version` (HINCRBY) and writes every other field, so a reader (one HGETALL) sees the old space
 * or the new one, never a mix. `vspace:{site}:photos` counts the photos analysed since the last
 * fit; the put's MULTI takes its fit's count off it (a script keeps it from going below zero).
 * `vspace:{site}:indexed` holds the version the site's index is wholly in (only ever raised).
 */
const key = (siteId: number) => `vspace:{${siteId}}`
/** Photos analysed since the last fit (a site may have a count before it has a space). */
const photosKey = (siteId: number) => `vspace:{${siteId}}:photos`
/** The version of its space the site's index is wholly in. */
const indexedKey = (siteId: number) => `vspace:{${siteId}}:indexed`

/** Sets the key to ARGV[1] unless it holds a larger number already. */
const RAISE = `local now = tonumber(redis.call("GET", KEYS[1])) or 0
if tonumber(ARGV[1]) > now then redis.call("SET", KEYS[1], ARGV[1]) end
return 0`

/** Takes ARGV[1] off the count, not below zero. */
const CONSUME = `local left = (tonumber(redis.call("GET", KEYS[1])) or 0) - tonumber(ARGV[1])
if left < 0 then left = 0 end
redis.call("SET", KEYS[1], left)
return left`

const FIGURES = ["version", "fittedAt", "photos", "samples", "inputDims", "outputDims"] as const

const exec = execAll

/** A stored number; a field that is not one reads as NaN, which decoding then refuses. */
const numberOf = (field: Buffer | string | undefined | null) =>
  field === undefined || field === null ? undefined : Number(field.toString())

export const makeRedisVisualSpaceStore = (client: Redis): VisualSpaceStoreService => {
  const call = <A>(what: string, f: () => Promise<A>) =>
    Effect.tryPromise({
      try: f,
      catch: (cause) =>
        new VisualSpaceStoreError({ message: `visual space store: ${what} failed: ${String(cause)}`, cause })
    })
  return {
    get: (siteId) =>
      call("get", async () => {
        const fields = await client.hgetallBuffer(key(siteId))
        if (Object.keys(fields).length === 0) return Option.none()
        const figures = Object.fromEntries(FIGURES.map((name) => [name, numberOf(fields[name])]))
        return Option.some(decodeStored(figures, fields.mean, fields.projection))
      }),
    version: (siteId) =>
      call("version", async () => {
        const version = numberOf(await client.hget(key(siteId), "version")) ?? 0
        if (!Number.isSafeInteger(version) || version < 0)
          throw new Error(`the stored version ${version} is not a whole number`)
        return version
      }),
    put: (siteId, fit, counted) =>
      call("put", async () => {
        const f = encodeFit(fit)
        const [version] = await exec(
          client
            .multi()
            .hincrby(key(siteId), "version", 1)
            .hset(key(siteId), {
              fittedAt: f.fittedAt,
              photos: f.photos,
              samples: f.samples,
              inputDims: f.inputDims,
              outputDims: f.outputDims,
              mean: f.mean,
              projection: f.projection
            })
            .eval(CONSUME, 1, photosKey(siteId), counted)
        )
        return Number(version)
      }),
    indexedVersion: (siteId) => call("indexedVersion", async () => numberOf(await client.get(indexedKey(siteId))) ?? 0),
    markIndexed: (siteId, version) =>
      call("markIndexed", async () => void (await client.eval(RAISE, 1, indexedKey(siteId), version))),
    notePhotos: (siteId, added) =>
      call("notePhotos", async () => {
        const [since, atFit] = await exec(client.multi().incrby(photosKey(siteId), added).hget(key(siteId), "photos"))
        return { since: Number(since), atFit: numberOf(atFit as string | null) ?? 0 }
      })
  }
}

export const RedisVisualSpaceStore = {
  /** Its own fail-fast ioredis connection to `url`, closed with the layer. */
  layer: (url: string): Layer.Layer<VisualSpaceStore, VisualSpaceStoreError> =>
    Layer.scoped(
      VisualSpaceStore,
      connectFailFast(
        url,
        { commandTimeoutMs: 10_000 },
        (cause) =>
          new VisualSpaceStoreError({
            message: `visual space store: cannot connect to Redis: ${
              cause instanceof Error ? cause.message : String(cause)
            }`,
            cause
          })
      ).pipe(Effect.map(makeRedisVisualSpaceStore))
    )
}
