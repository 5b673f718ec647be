import { Effect, Layer } from "effect"
import type { Redis } from "ioredis"
import { type ConversationInfo, MemoryError, MemoryLimits, MemoryLog, type MemoryLogService } from "./MemoryLog.js"
import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { script } from "../../platform/redis/LuaScript.js"
import { appendLua, conversationKeys, indexKey, saveSummaryLua, type StreamEntry, toItem } from "./RedisLayout.js"
import { emptySummary, foldSummary, renderSummary, type SummaryState } from "./Summary.js"
import {
  checkConversationId,
  checkOffset,
  checkReadSize,
  conversationFull,
  decodeCursor,
  encodeCursor,
  keyReused,
  prepareAppend,
  sameBatch,
  storedItem
} from "./Validation.js"

/**
 * The distributed MemoryLog on Redis (layout and atomicity in RedisLayout.ts). Durability is
 * Redis's: with AOF and appendfsync everysec an acknowledged append survives a restart, and a
 * crash of the Redis host may lose about the last second.
 *
 * The summary is folded in JS (shared with the embedded layer), so it cannot live inside the
 * append script. Each append folds its new items into the stored state right after the script
 * commits, and summary() first folds whatever items the stored state has not covered yet (an
 * appender may have died in between), so a summary read reflects every append acknowledged
 * before it.
 */
const iso = (ms: string | null) => new Date(Number(ms)).toISOString()

export const makeRedisMemoryLog = (client: Redis): MemoryLogService => {
  const call = <A>(what: string, f: () => Promise<A>) =>
    Effect.tryPromise({
      try: f,
      catch: (cause) => new MemoryError({ message: `memory: ${what} failed: ${String(cause)}`, cause })
    })
  const appendScript = script(client, appendLua)
  const saveSummary = script(client, saveSummaryLua)
  const range = (key: string, offset: number, limit: number) =>
    call("read", () => client.xrange(key, String(offset), "+", "COUNT", limit) as Promise<Array<StreamEntry>>).pipe(
      Effect.map((entries) => entries.map(toItem))
    )

  /** Folds the stream's items from state.length up to position `upTo` (exclusive). */
  const catchUp = (items: string, from: SummaryState, upTo: number) =>
    Effect.gen(function* () {
      let state = from
      while (state.length < upTo) {
        const page = yield* range(items, state.length, Math.min(MemoryLimits.maxReadItems, upTo - state.length))
        if (page.length === 0) break // meta and stream are written together; guard against spinning anyway
        state = foldSummary(state, page)
      }
      return state
    })
  const parseState = (json: string | null): SummaryState =>
    json === null || json === "" ? emptySummary : JSON.parse(json)
  const save = (summaryKey: string, state: SummaryState) =>
    call("summary", () => saveSummary([summaryKey], [state.length, JSON.stringify(state)]))

  return {
    append: (siteId, conversationId, items, idempotencyKey) =>
      Effect.gen(function* () {
        const prepared = yield* prepareAppend(conversationId, items, idempotencyKey)
        const keys = conversationKeys(siteId, conversationId)
        const args = [
          idempotencyKey ?? "",
          MemoryLimits.maxConversationItems,
          conversationId,
          ...prepared.flatMap((item) => [item.role, item.content, item.metadataJson ?? ""])
        ]
        const [status, first, count, time, stored] = (yield* call("append", () =>
          appendScript([keys.items, keys.meta, keys.idem, indexKey(siteId), keys.summary], args)
        )) as [number, number, number, string, string]
        if (status === 2) {
          return yield* Effect.fail(conversationFull(first, prepared.length))
        }
        // Appended items never change, so reading the key's batch after the script is safe.
        if (status === 1 && !sameBatch(yield* range(keys.items, first, count), prepared)) {
          return yield* Effect.fail(keyReused(first, count))
        }
        // The append is committed: a failed summary fold must not report it as failed (a client
        // retrying without a key would store it twice), and summary() catches up anyway.
        if (status === 0) {
          yield* catchUp(keys.items, parseState(stored), first).pipe(
            Effect.map((state) =>
              foldSummary(
                state,
                prepared.map((item, i) => storedItem(item, first + i, Number(time)))
              )
            ),
            Effect.flatMap((state) => save(keys.summary, state)),
            Effect.catchAll((e) => Effect.logWarning("memory: summary fold after append failed", e))
          )
        }
        return {
          positions: Array.from({ length: count }, (_, i) => first + i),
          duplicate: status === 1,
          length: first + count
        }
      }),
    recall: (siteId, conversationId, count) =>
      Effect.zipRight(
        Effect.zip(checkConversationId(conversationId), checkReadSize("count", count)),
        call(
          "recall",
          () =>
            client.xrevrange(conversationKeys(siteId, conversationId).items, "+", "-", "COUNT", count) as Promise<
              Array<StreamEntry>
            >
        ).pipe(Effect.map((entries) => entries.reverse().map(toItem)))
      ),
    replay: (siteId, conversationId, offset, limit) =>
      Effect.zipRight(
        Effect.all([checkConversationId(conversationId), checkOffset(offset), checkReadSize("limit", limit)]),
        range(conversationKeys(siteId, conversationId).items, offset, limit)
      ),
    list: (siteId, limit, cursor) =>
      Effect.gen(function* () {
        yield* checkReadSize("limit", limit)
        const after = yield* decodeCursor(cursor)
        const index = indexKey(siteId)
        const rows = yield* call("list", async () => {
          // Keyset order is (score desc, id desc); ZREVRANGEBYSCORE orders ties by id desc too.
          const ties =
            after === null
              ? []
              : (await client.zrevrangebyscore(index, after.lastAppendedAt, after.lastAppendedAt))
                  .filter((id) => id < after.conversationId)
                  .slice(0, limit + 1)
                  .map((id) => [id, after.lastAppendedAt] as const)
          const older = await client.zrevrangebyscore(
            index,
            after === null ? "+inf" : `(${after.lastAppendedAt}`,
            "-inf",
            "WITHSCORES",
            "LIMIT",
            0,
            limit + 1 - ties.length
          )
          const pairs = Array.from(
            { length: older.length / 2 },
            (_, i) => [older[2 * i], Number(older[2 * i + 1])] as const
          )
          return [...ties, ...pairs]
        })
        const page = rows.slice(0, limit)
        const metas = yield* call("list", () =>
          Promise.all(
            page.map(([id]) => client.hmget(conversationKeys(siteId, id).meta, "createdAt", "lastAppendedAt", "length"))
          )
        )
        const conversations = page.map(
          ([conversationId], i): ConversationInfo => ({
            conversationId,
            createdAt: iso(metas[i][0]),
            lastAppendedAt: iso(metas[i][1]),
            length: Number(metas[i][2])
          })
        )
        const last = page.at(-1)
        return {
          conversations,
          next: rows.length > limit && last ? encodeCursor({ conversationId: last[0], lastAppendedAt: last[1] }) : null
        }
      }),
    summary: (siteId, conversationId) =>
      Effect.zipRight(
        checkConversationId(conversationId),
        Effect.gen(function* () {
          const keys = conversationKeys(siteId, conversationId)
          const [stored, length] = yield* call("summary", () =>
            Promise.all([client.hget(keys.summary, "state"), client.hget(keys.meta, "length")])
          )
          if (length === null) return null
          const before = parseState(stored)
          const state = yield* catchUp(keys.items, before, Number(length))
          if (state.length > before.length) yield* save(keys.summary, state)
          return renderSummary(conversationId, state)
        })
      )
  }
}

export const RedisMemoryLog = {
  /**
   * Its own fail-fast ioredis connection to `url` (a dead server fails a call, never holds it),
   * closed with the layer.
   */
  layer: (url: string): Layer.Layer<MemoryLog, MemoryError> =>
    Layer.scoped(
      MemoryLog,
      connectFailFast(
        url,
        { commandTimeoutMs: 5_000 },
        (cause) =>
          new MemoryError({
            message: `memory: cannot connect to Redis: ${cause instanceof Error ? cause.message : String(cause)}`,
            cause
          })
      ).pipe(Effect.map(makeRedisMemoryLog))
    )
}
