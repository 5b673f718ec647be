import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { Effect, Logger } from "effect"
import { checkRedisSettings, RedisSettingsFinding } from "../../../src/platform/redis/RedisSettingsCheck.js"
import { startRedis } from "../../support/RedisServer.js"
import { freePort } from "../../support/ServerProcess.js"

/** A redis-server started with `extraArgs` over the production settings, stopped with the scope. */
const redisWith = (...extraArgs: Array<string>) =>
  Effect.acquireRelease(
    Effect.promise(() => startRedis({ extraArgs })),
    (s) => Effect.promise(s.stop)
  )

/** Runs the check and collects the warnings it logs. */
const checked = (url: string) =>
  Effect.gen(function* () {
    const warnings: Array<string> = []
    const capture = Logger.make(({ logLevel, message }) => {
      if (logLevel.label === "WARN") warnings.push(Array.isArray(message) ? message.join(" ") : String(message))
    })
    const findings = yield* checkRedisSettings(url).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)))
    return { findings, warnings }
  })

const wrongSettings = ["--maxmemory-policy", "allkeys-lru", "--appendonly", "no"]

describe("checkRedisSettings", () => {
  it.scopedLive("finds nothing and stays quiet on the production settings (noeviction, AOF on)", () =>
    Effect.gen(function* () {
      const redis = yield* redisWith()
      expect(yield* checked(redis.url)).toEqual({ findings: [], warnings: [] })
    })
  )

  it.scopedLive("reports an evicting policy and a missing AOF, and warns with what to set", () =>
    Effect.gen(function* () {
      const redis = yield* redisWith(...wrongSettings)
      const { findings, warnings } = yield* checked(redis.url)
      expect(findings).toEqual([
        RedisSettingsFinding.Evicting({ policy: "allkeys-lru" }),
        RedisSettingsFinding.NotAppendOnly()
      ])
      expect(warnings).toHaveLength(2)
      expect(warnings[0]).toContain("allkeys-lru")
      expect(warnings[0]).toContain("maxmemory-policy noeviction")
      expect(warnings[0]).toContain("BullMQ")
      expect(warnings[1]).toContain("appendonly yes")
      expect(warnings[1]).toContain("conversation memory")
    })
  )

  it.scopedLive("each setting is judged on its own", () =>
    Effect.gen(function* () {
      const volatile = yield* redisWith("--maxmemory-policy", "volatile-lru")
      expect((yield* checked(volatile.url)).findings).toEqual([
        RedisSettingsFinding.Evicting({ policy: "volatile-lru" })
      ])
      const noAof = yield* redisWith("--appendonly", "no")
      expect((yield* checked(noAof.url)).findings).toEqual([RedisSettingsFinding.NotAppendOnly()])
    })
  )

  it.scopedLive("without CONFIG (renamed away, as managed services do) it still reads both settings from INFO", () =>
    Effect.gen(function* () {
      const redis = yield* redisWith(...wrongSettings, "--rename-command", "CONFIG", "")
      const { findings } = yield* checked(redis.url)
      expect(findings).toEqual([
        RedisSettingsFinding.Evicting({ policy: "allkeys-lru" }),
        RedisSettingsFinding.NotAppendOnly()
      ])
      const right = yield* redisWith("--rename-command", "CONFIG", "")
      expect((yield* checked(right.url)).findings).toEqual([])
    })
  )

  it.scopedLive("when neither CONFIG nor INFO is permitted it warns that the settings could not be verified", () =>
    Effect.gen(function* () {
      // An ACL like a locked-down managed Redis: everything except CONFIG and INFO.
      const redis = yield* redisWith("--user", "default", "on", "nopass", "~*", "&*", "+@all", "-config", "-info")
      // ioredis says on the console that its ready check (INFO) is refused; that is this case.
      const consoleWarnings: Array<unknown> = []
      const consoleWarn = vi.spyOn(console, "warn").mockImplementation((...args) => void consoleWarnings.push(...args))
      const { findings, warnings } = yield* checked(redis.url).pipe(
        Effect.ensuring(Effect.sync(() => consoleWarn.mockRestore()))
      )
      expect(consoleWarnings.join(" ")).toContain("INFO")
      expect(findings).toHaveLength(1)
      expect(findings[0]._tag).toBe("Unverified")
      const { reason } = findings[0] as Extract<RedisSettingsFinding, { _tag: "Unverified" }>
      expect(reason).toMatch(/^CONFIG GET: NOPERM.*; INFO: NOPERM/)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain("Could not verify the Redis settings")
      expect(warnings[0]).toContain("maxmemory-policy noeviction")
      expect(warnings[0]).toContain("appendonly yes")
    })
  )

  it.live("an unreachable Redis is reported as unverified, quickly, instead of failing", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(freePort)
      const { findings } = yield* checked(`redis://127.0.0.1:${port}`)
      expect(findings).toHaveLength(1)
      expect(findings[0]).toMatchObject({ _tag: "Unverified", reason: expect.stringContaining("cannot connect") })
    }).pipe(Effect.timeout("5 seconds"))
  )
})
