import { Data, Effect } from "effect"
import type { Redis } from "ioredis"
import { connectFailFast } from "./FailFastRedis.js"

/**
 * What the distributed topology needs from its Redis, checked once at startup:
 * - `maxmemory-policy noeviction`: any other policy lets Redis delete keys when it is full, and
 *   the keys it picks may be BullMQ's (jobs vanish, or a queue is left half-written) or a
 *   conversation's memory. With noeviction a full Redis fails writes, which callers see.
 * - `appendonly yes`: without the AOF, everything written since the last RDB snapshot (queued
 *   jobs, conversation memory, catalog records) is gone after a Redis restart, although the
 *   api acknowledged it.
 * A misconfigured Redis still works until the day it loses data, so this warns rather than
 * refusing to start.
 */
export type RedisSettingsFinding = Data.TaggedEnum<{
  /** maxmemory-policy is not noeviction. */
  Evicting: { readonly policy: string }
  /** The append-only file is off. */
  // biome-ignore lint/complexity/noBannedTypes: a TaggedEnum case without fields is written {}
  NotAppendOnly: {}
  /** Neither CONFIG nor INFO answered (a managed Redis may deny both), or Redis was unreachable. */
  Unverified: { readonly reason: string }
}>
export const RedisSettingsFinding = Data.taggedEnum<RedisSettingsFinding>()

interface Observed {
  readonly policy: string
  readonly appendOnly: boolean
}

/** The warning to log for a finding: what is at risk and what to set. */
export const describeFinding = RedisSettingsFinding.$match({
  Evicting: ({ policy }) =>
    `Redis maxmemory-policy is "${policy}": when Redis fills up it will evict keys, including BullMQ jobs and ` +
    `conversation memory. Set "maxmemory-policy noeviction" (redis.conf, or CONFIG SET maxmemory-policy noeviction).`,
  NotAppendOnly: () =>
    `Redis persistence without AOF (appendonly no): conversation memory, queued jobs and catalog writes acknowledged ` +
    `since the last snapshot are lost when Redis restarts. Set "appendonly yes" with "appendfsync everysec".`,
  Unverified: ({ reason }) =>
    `Could not verify the Redis settings (${reason}). Make sure the server runs with "maxmemory-policy noeviction" ` +
    `(otherwise BullMQ jobs and conversation memory can be evicted) and "appendonly yes" ` +
    `(otherwise they can be lost on restart).`
})

const judge = ({ appendOnly, policy }: Observed): ReadonlyArray<RedisSettingsFinding> => [
  ...(policy === "noeviction" ? [] : [RedisSettingsFinding.Evicting({ policy })]),
  ...(appendOnly ? [] : [RedisSettingsFinding.NotAppendOnly()])
]

/** `key:value` lines of an INFO reply. */
const infoFields = (text: string): Record<string, string> =>
  Object.fromEntries(
    text.split("\r\n").flatMap((line) => {
      const at = line.indexOf(":")
      return at > 0 && !line.startsWith("#") ? [[line.slice(0, at), line.slice(at + 1)] as const] : []
    })
  )

const required = (value: string | undefined, what: string): string => {
  if (value === undefined) throw new Error(`${what} not reported`)
  return value
}

const attempt = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: (cause) => `${what}: ${cause instanceof Error ? cause.message : String(cause)}` })

/** CONFIG GET answers [name, value] pairs; a name the server does not know is simply absent. */
const fromConfig = (client: Redis) =>
  attempt("CONFIG GET", async () => {
    const [policy, aof] = await Promise.all([
      client.config("GET", "maxmemory-policy"),
      client.config("GET", "appendonly")
    ])
    return {
      policy: required((policy as Array<string>)[1], "maxmemory-policy"),
      appendOnly: required((aof as Array<string>)[1], "appendonly") === "yes"
    }
  })

/** Managed Redis services often disable CONFIG but still answer INFO, which reports both settings. */
const fromInfo = (client: Redis) =>
  attempt("INFO", async () => {
    const fields = infoFields(`${await client.info("memory")}\r\n${await client.info("persistence")}`)
    return {
      policy: required(fields.maxmemory_policy, "maxmemory_policy"),
      appendOnly: required(fields.aof_enabled, "aof_enabled") === "1"
    }
  })

/** The settings as CONFIG reports them, else as INFO does; the error names why each failed. */
const observe = (client: Redis) =>
  Effect.catchAll(fromConfig(client), (configError) =>
    Effect.mapError(fromInfo(client), (infoError) => `${configError}; ${infoError}`)
  )

/**
 * Connects to `url`, reads the settings, logs a warning per finding and returns the findings
 * (empty when Redis is set up as the topology needs). Never fails: an unreachable Redis is
 * reported as Unverified, and the services that need it fail with their own errors.
 */
export const checkRedisSettings = (url: string): Effect.Effect<ReadonlyArray<RedisSettingsFinding>> =>
  Effect.scoped(
    Effect.flatMap(
      connectFailFast(
        url,
        { commandTimeoutMs: 2_000 },
        (cause) => `cannot connect: ${cause instanceof Error ? cause.message : String(cause)}`
      ),
      (client) => Effect.map(observe(client), judge)
    )
  ).pipe(
    Effect.catchAll((reason) => Effect.succeed([RedisSettingsFinding.Unverified({ reason })])),
    Effect.tap((findings) =>
      Effect.forEach(findings, (finding) => Effect.logWarning(describeFinding(finding)), { discard: true })
    )
  )
