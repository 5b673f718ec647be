/**
 * Conversation memory benchmark: `npx tsx bench/memory.ts` (set REDIS_URL to add the Redis
 * layer; it writes under a fresh site id and leaves other keys alone). Append throughput for
 * batches of 1 and 10 items, each with an idempotency key as agents send them, then latency of
 * recall (last 20), replay (20 from the middle) and summary on the long conversation.
 */
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { performance } from "node:perf_hooks"
import { settings } from "../test/support/Settings.js"
import { MemoryLog, type MemoryItemInput } from "../src/services/memory-log/MemoryLog.js"
import { RedisMemoryLog } from "../src/services/memory-log/RedisMemoryLog.js"
import { EmbeddedMemoryLog } from "../src/services/memory-log/EmbeddedMemoryLog.js"
import { Sqlite } from "../src/platform/Sqlite.js"
import { ms, summarize } from "./catalog/stats.js"

const READS = 2_000
const site = Date.now() % 1_000_000_000

const item = (n: number): MemoryItemInput =>
  n % 2 === 0
    ? {
        role: "user",
        content: `Looking for a waterproof hiking jacket, size ${(n % 5) + 1}, under ${50 + (n % 7) * 10} euros`,
        metadata: { filters: [{ column: "size", values: [String((n % 5) + 1)] }] }
      }
    : {
        role: "assistant",
        content: `Here are three jackets that fit (request ${n}).`,
        metadata: { productIds: [`p${n}`, `p${n + 1}`, `p${n + 2}`] }
      }

const appendRate = (conversation: string, batchSize: number, items: number) =>
  Effect.gen(function* () {
    const log = yield* MemoryLog
    const start = performance.now()
    for (let n = 0; n < items; n += batchSize) {
      yield* log.append(
        site,
        conversation,
        Array.from({ length: batchSize }, (_, i) => item(n + i)),
        `${conversation}-${n}`
      )
    }
    return items / ((performance.now() - start) / 1000)
  })

const latency = (run: (i: number) => Effect.Effect<unknown, unknown, MemoryLog>) =>
  Effect.gen(function* () {
    const samples: Array<number> = []
    for (let i = 0; i < READS; i++) {
      const start = performance.now()
      yield* run(i)
      samples.push(performance.now() - start)
    }
    return summarize(samples)
  })

const measure = (name: string, scale: number) =>
  Effect.gen(function* () {
    const single = yield* appendRate("batch-1", 1, 20_000 * scale)
    const tens = yield* appendRate("batch-10", 10, 50_000 * scale)
    const log = yield* MemoryLog
    const recall = yield* latency(() => log.recall(site, "batch-10", 20))
    const replay = yield* latency((i) => log.replay(site, "batch-10", (i * 7919) % (50_000 * scale - 20), 20))
    const summary = yield* latency(() => log.summary(site, "batch-10"))
    console.log(
      `| ${name} | ${single.toFixed(0)} | ${tens.toFixed(0)} | ${ms(recall.p50)} / ${ms(recall.p99)} | ` +
        `${ms(replay.p50)} / ${ms(replay.p99)} | ${ms(summary.p50)} / ${ms(summary.p99)} |`
    )
  })

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-memory-bench-"))
const embedded = EmbeddedMemoryLog.layer.pipe(
  Layer.provide(Sqlite.layer),
  Layer.provide(settings({ DATA_DIR: dataDir, SITES_FILE: path.join(dataDir, "sites.json") }))
)

console.log(
  "| layer | append items/s (batch 1) | append items/s (batch 10) | recall 20 p50/p99 ms | replay 20 " +
    "p50/p99 ms | summary p50/p99 ms |"
)
console.log("|---|---|---|---|---|---|")
await Effect.runPromise(measure("embedded (SQLite)", 1).pipe(Effect.provide(embedded)))
const redisUrl = process.env.REDIS_URL
if (redisUrl) await Effect.runPromise(measure("Redis", 0.25).pipe(Effect.provide(RedisMemoryLog.layer(redisUrl))))
fs.rmSync(dataDir, { recursive: true, force: true })
