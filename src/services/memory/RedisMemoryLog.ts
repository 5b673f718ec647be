import { Effect, Layer } from "effect"
import { Redis } from "ioredis"
import { type ConversationInfo, MemoryError, type MemoryItem, MemoryLimits, MemoryLog, type MemoryLogService } from "../MemoryLog.js"
import { appendLua, conversationKeys, indexKey, saveSummaryLua, script } from "./RedisScripts.js"
import { emptySummary, foldSummary, renderSummary, type SummaryState } from "./Summary.js"
import {
  checkConversationId,
  checkOffset,
  checkReadSize,
  decodeCursor,
  encodeCursor,
  type PreparedItem,
  prepareAppend,
  rejected,
  storedItem
} from "./Validation.js"

/**
 * The distributed MemoryLog on Redis (layout and atomicity in RedisScripts.ts). Durability is
 * Redis's: with AOF and appendfsync everysec an acknowledged append survives a restart, and a
 * crash of the Redis host may lose about the last second.
 *
 * The summary is folded in JS (shared with the embedded layer), so it cannot live inside the
 * append script. Each append folds its new items into the stored state right after the script
 * commits, and summary() first folds whatever items the stored state has not covered yet (an
 * appender may have died in between), so a summary read reflects every append acknowledged
 * before it.
 */
type StreamEntry = [id: string, fields: Array<string>]

const toItem = ([id, fields]: StreamEntry): MemoryItem => {
  const f: Record<string, string> = {}
  for (let i = 0; i < fields.length; i += 2) f[fields[i]] = fields[i + 1]
  const item: PreparedItem = { role: f.r as PreparedItem["role"], content: f.c, metadataJson: f.m === "" ? null : f.m }
  return storedItem(item, Number(id.split("-")[0]), Number(f.t))
}

const iso = (ms: string | null) => new Date(Number(ms)).toISOString()

export const makeRedisMemoryLog = (client: Redis): MemoryLogService => {
  const call = <A>(what: string, f: () => Promise<A>) =>
    Effect.tryPromise({ try: f, catch: (cause) => new MemoryError({ message: `memory: ${what} failed: ${String(cause)}`, cause }) })
  const appendScript = script(client, appendLua)
  const saveSummary = script(client, saveSummaryLua)
  const range = (key: string, offset: number, limit: number) =>
    call("read", () => client.xrange(key, String(offset), "+", "COUNT", limit) as Promise<Array<StreamEntry>>)
      .pipe(Effect.map((entries) => entries.map(toItem)))

  const refreshSummary = (siteId: number, conversationId: string) =>
    Effect.gen(function*() {
      const keys = conversationKeys(siteId, conversationId)
      const [stored, length] = yield* call("summary", () =>
        Promise.all([client.hget(keys.summary, "state"), client.hget(keys.meta, "length")]))
      if (length === null) return null
      const before: SummaryState = stored === null ? emptySummary : JSON.parse(stored)
      let state = before
      while (state.length < Number(length)) {
        const items = yield* range(keys.items, state.length, MemoryLimits.maxReadItems)
        if (items.length === 0) break // meta and stream are written together; guard against spinning anyway
        state = foldSummary(state, items)
      }
      if (state.length > before.length) {
        yield* call("summary", () => saveSummary([keys.summary], [state.length, JSON.stringify(state)]))
      }
      return state
    })

  return {
    append: (siteId, conversationId, items, idempotencyKey) =>
      Effect.gen(function*() {
        const prepared = yield* prepareAppend(conversationId, items, idempotencyKey)
        const keys = conversationKeys(siteId, conversationId)
        const args = [idempotencyKey ?? "", MemoryLimits.maxConversationItems, conversationId,
          ...prepared.flatMap((item) => [item.role, item.content, item.metadataJson ?? ""])]
        const [status, first, count] = (yield* call("append", () =>
          appendScript([keys.items, keys.meta, keys.idem, indexKey(siteId)], args))) as Array<number>
        if (status === 2) {
          return yield* Effect.fail(rejected("items",
            `the conversation holds ${first} items; appending ${prepared.length} would exceed ${MemoryLimits.maxConversationItems}`))
        }
        // The append is committed: a failed summary fold must not report it as failed (a client
        // retrying without a key would store it twice), and summary() catches up anyway.
        if (status === 0) {
          yield* refreshSummary(siteId, conversationId).pipe(
            Effect.catchAll((e) => Effect.logWarning("memory: summary fold after append failed", e)))
        }
        return { positions: Array.from({ length: count }, (_, i) => first + i), duplicate: status === 1, length: first + count }
      }),
    recall: (siteId, conversationId, count) =>
      Effect.zipRight(
        Effect.zip(checkConversationId(conversationId), checkReadSize("count", count)),
        call("recall", () => client.xrevrange(conversationKeys(siteId, conversationId).items, "+", "-", "COUNT", count) as Promise<Array<StreamEntry>>)
          .pipe(Effect.map((entries) => entries.reverse().map(toItem)))
      ),
    replay: (siteId, conversationId, offset, limit) =>
      Effect.zipRight(
        Effect.all([checkConversationId(conversationId), checkOffset(offset), checkReadSize("limit", limit)]),
        range(conversationKeys(siteId, conversationId).items, offset, limit)
      ),
    list: (siteId, limit, cursor) =>
      Effect.gen(function*() {
        yield* checkReadSize("limit", limit)
        const after = yield* decodeCursor(cursor)
        const index = indexKey(siteId)
        const rows = yield* call("list", async () => {
          // Keyset order is (score desc, id desc); ZREVRANGEBYSCORE orders ties by id desc too.
          const ties = after === null ? [] : (await client.zrevrangebyscore(index, after.lastAppendedAt, after.lastAppendedAt))
            .filter((id) => id < after.conversationId).slice(0, limit + 1).map((id) => [id, after.lastAppendedAt] as const)
          const older = await client.zrevrangebyscore(index, after === null ? "+inf" : `(${after.lastAppendedAt}`, "-inf",
            "WITHSCORES", "LIMIT", 0, limit + 1 - ties.length)
          const pairs = Array.from({ length: older.length / 2 }, (_, i) => [older[2 * i], Number(older[2 * i + 1])] as const)
          return [...ties, ...pairs]
        })
        const page = rows.slice(0, limit)
        const metas = yield* call("list", () =>
          Promise.all(page.map(([id]) => client.hmget(conversationKeys(siteId, id).meta, "createdAt", "lastAppendedAt", "length"))))
        const conversations = page.map(([conversationId], i): ConversationInfo => ({
          conversationId, createdAt: iso(metas[i][0]), lastAppendedAt: iso(metas[i][1]), length: Number(metas[i][2])
        }))
        const last = page.at(-1)
        return { conversations, next: rows.length > limit && last ? encodeCursor({ conversationId: last[0], lastAppendedAt: last[1] }) : null }
      }),
    summary: (siteId, conversationId) =>
      Effect.zipRight(
        checkConversationId(conversationId),
        refreshSummary(siteId, conversationId).pipe(Effect.map((state) => state && renderSummary(conversationId, state)))
      )
  }
}

export const RedisMemoryLog = {
  /** Its own ioredis connection to `url`, closed with the layer. */
  layer: (url: string): Layer.Layer<MemoryLog, MemoryError> =>
    Layer.scoped(
      MemoryLog,
      Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            const client = new Redis(url, { lazyConnect: true })
            await client.connect().catch((e) => (client.disconnect(), Promise.reject(e)))
            return client
          },
          catch: (cause) => new MemoryError({ message: `memory: cannot connect to Redis: ${String(cause)}`, cause })
        }),
        (client) => Effect.promise(() => client.quit().catch(() => client.disconnect()))
      ).pipe(Effect.map(makeRedisMemoryLog))
    )
}
