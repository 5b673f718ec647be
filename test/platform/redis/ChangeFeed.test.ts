import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { makeChangeFeed } from "../../../src/platform/redis/ChangeFeed.js"
import { redisForThisFile } from "../../support/RedisSuite.js"

const redis = redisForThisFile()

describe("ChangeFeed", () => {
  it.scoped("applies a publish of thousands of entries once each, in order, text and bytes as sent", () =>
    Effect.gen(function* () {
      const feed = yield* makeChangeFeed({ redisUrl: redis.url, key: `test:${randomUUID()}`, maxLen: 100_000 })
      const applied: Array<ReadonlyArray<Buffer>> = []
      const following = yield* feed.follow({
        rebuild: Effect.void,
        apply: (entries) => Effect.sync(() => void applied.push(...entries))
      })
      yield* following.synced
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
      // More entries than one append call takes, with entries of one, two and three values.
      const entries = Array.from({ length: 2_500 }, (_, i) =>
        i % 3 === 0 ? [String(i)] : i % 3 === 1 ? [String(i), bytes] : [String(i), "é ✓", ""]
      )
      const last = yield* feed.publish(entries)
      expect(last).toBe("0-2500")
      expect(yield* following.awaitApplied(last, "30 seconds")).toBe(true)
      expect(applied.length).toBe(2_500)
      applied.forEach((values, i) => {
        expect(values[0].toString()).toBe(String(i))
        if (i % 3 === 1) expect(values[1].equals(bytes)).toBe(true)
        if (i % 3 === 2) expect(values.slice(1).map(String)).toEqual(["é ✓", ""])
        expect(values.length).toBe(entries[i].length)
      })
      // A second publish goes on right after the first.
      expect(yield* feed.publish([["next"]])).toBe("0-2501")
    })
  )
})
