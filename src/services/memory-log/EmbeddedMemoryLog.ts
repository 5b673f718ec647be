import { Effect, Layer } from "effect"
import {
  type AppendResult,
  type ConversationInfo,
  MemoryError,
  MemoryLimits,
  MemoryLog,
  MemoryRejected
} from "./MemoryLog.js"
import { Sqlite } from "../../platform/Sqlite.js"
import { emptySummary, foldSummary, renderSummary, type SummaryState } from "./Summary.js"
import {
  checkConversationId,
  checkOffset,
  checkReadSize,
  conversationFull,
  decodeCursor,
  encodeCursor,
  keyReused,
  type PreparedItem,
  prepareAppend,
  sameBatch,
  storedItem
} from "./Validation.js"

/**
 * The embedded MemoryLog: tables in the process's SQLite file (WAL, synchronous=NORMAL, so a
 * committed append survives SIGKILL). Each append is one IMMEDIATE transaction; better-sqlite3
 * runs it synchronously, so appends within a process are serialised and, across processes
 * sharing the file, the write lock serialises them: positions form one total order.
 * Idempotency keys are kept as long as the conversation (it is never deleted; a key costs a
 * few dozen bytes per batch), so a retry is recognised however late it comes.
 * Times are stored as epoch milliseconds; the summary state lives on the conversation row and
 * is folded in the same transaction, so it is always exactly as current as the log.
 */
const schema = `
CREATE TABLE IF NOT EXISTS memory_conversations (
  site_id INTEGER NOT NULL,
  conversation_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_appended_at INTEGER NOT NULL,
  length INTEGER NOT NULL,
  summary TEXT NOT NULL,
  PRIMARY KEY (site_id, conversation_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS memory_conversations_recent
  ON memory_conversations (site_id, last_appended_at, conversation_id);
CREATE TABLE IF NOT EXISTS memory_items (
  site_id INTEGER NOT NULL,
  conversation_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  metadata TEXT,
  appended_at INTEGER NOT NULL,
  PRIMARY KEY (site_id, conversation_id, position)
);
CREATE TABLE IF NOT EXISTS memory_idempotency (
  site_id INTEGER NOT NULL,
  conversation_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  first_position INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (site_id, conversation_id, idempotency_key)
) WITHOUT ROWID;
`

interface ConversationRow {
  conversation_id: string
  created_at: number
  last_appended_at: number
  length: number
  summary: string
}
interface ItemRow {
  role: PreparedItem["role"]
  content: string
  metadata: string | null
  position: number
  appended_at: number
}

const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i)
const toItem = (r: ItemRow) =>
  storedItem({ role: r.role, content: r.content, metadataJson: r.metadata }, r.position, r.appended_at)
const toInfo = (r: ConversationRow): ConversationInfo => ({
  conversationId: r.conversation_id,
  createdAt: new Date(r.created_at).toISOString(),
  lastAppendedAt: new Date(r.last_appended_at).toISOString(),
  length: r.length
})

const attempt = <A>(what: string, f: () => A) =>
  Effect.try({
    try: f,
    // A rejection thrown inside a transaction has already rolled it back; pass it through.
    catch: (cause) =>
      cause instanceof MemoryRejected
        ? cause
        : new MemoryError({ message: `memory: ${what} failed: ${String(cause)}`, cause })
  })

const layer: Layer.Layer<MemoryLog, never, Sqlite> = Layer.effect(
  MemoryLog,
  Effect.gen(function* () {
    const db = yield* Sqlite
    db.exec(schema)
    const selectConversation = db.prepare<[number, string], ConversationRow>(
      "SELECT * FROM memory_conversations WHERE site_id = ? AND conversation_id = ?"
    )
    const selectKey = db.prepare<[number, string, string], { first_position: number; count: number }>(
      "SELECT first_position, count FROM memory_idempotency " +
        "WHERE site_id = ? AND conversation_id = ? AND idempotency_key = ?"
    )
    const insertItem = db.prepare("INSERT INTO memory_items VALUES (?, ?, ?, ?, ?, ?, ?)")
    const saveConversation = db.prepare(`INSERT INTO memory_conversations VALUES (?, ?, @now, @now, ?, ?)
      ON CONFLICT DO UPDATE SET last_appended_at = excluded.last_appended_at, length = excluded.length,
        summary = excluded.summary`)
    const insertKey = db.prepare("INSERT INTO memory_idempotency VALUES (?, ?, ?, ?, ?)")
    const selectLast = db.prepare<[number, string, number], ItemRow>(`SELECT * FROM memory_items
      WHERE site_id = ? AND conversation_id = ? ORDER BY position DESC LIMIT ?`)
    const selectFrom = db.prepare<[number, string, number, number], ItemRow>(`SELECT * FROM memory_items
      WHERE site_id = ? AND conversation_id = ? AND position >= ? ORDER BY position LIMIT ?`)
    const selectPage = db.prepare<
      [number, number, number, string, number],
      ConversationRow
    >(`SELECT * FROM memory_conversations
      WHERE site_id = ? AND (last_appended_at < ? OR (last_appended_at = ? AND conversation_id < ?))
      ORDER BY last_appended_at DESC, conversation_id DESC LIMIT ?`)

    const appendTx = db.transaction(
      (
        siteId: number,
        conversationId: string,
        items: ReadonlyArray<PreparedItem>,
        key: string | undefined
      ): AppendResult => {
        const seen = key === undefined ? undefined : selectKey.get(siteId, conversationId, key)
        if (seen) {
          const stored = selectFrom.all(siteId, conversationId, seen.first_position, seen.count).map(toItem)
          if (!sameBatch(stored, items)) throw keyReused(seen.first_position, seen.count)
          return {
            positions: range(seen.first_position, seen.count),
            duplicate: true,
            length: seen.first_position + seen.count
          }
        }
        const conversation = selectConversation.get(siteId, conversationId)
        const length = conversation?.length ?? 0
        if (length + items.length > MemoryLimits.maxConversationItems) throw conversationFull(length, items.length)
        // Never before the previous append, so appendedAt follows positions even if the clock steps back.
        const now = Math.max(Date.now(), conversation?.last_appended_at ?? 0)
        const stored = items.map((item, i) => {
          insertItem.run(siteId, conversationId, length + i, item.role, item.content, item.metadataJson, now)
          return storedItem(item, length + i, now)
        })
        const state: SummaryState = conversation ? JSON.parse(conversation.summary) : emptySummary
        saveConversation.run(
          siteId,
          conversationId,
          length + items.length,
          JSON.stringify(foldSummary(state, stored)),
          { now }
        )
        if (key !== undefined) insertKey.run(siteId, conversationId, key, length, items.length)
        return { positions: range(length, items.length), duplicate: false, length: length + items.length }
      }
    )

    return {
      append: (siteId, conversationId, items, idempotencyKey) =>
        prepareAppend(conversationId, items, idempotencyKey).pipe(
          Effect.flatMap((prepared) =>
            attempt("append", () => appendTx.immediate(siteId, conversationId, prepared, idempotencyKey))
          )
        ),
      recall: (siteId, conversationId, count) =>
        Effect.zipRight(
          Effect.zip(checkConversationId(conversationId), checkReadSize("count", count)),
          attempt("recall", () => selectLast.all(siteId, conversationId, count).reverse().map(toItem))
        ),
      replay: (siteId, conversationId, offset, limit) =>
        Effect.zipRight(
          Effect.all([checkConversationId(conversationId), checkOffset(offset), checkReadSize("limit", limit)]),
          attempt("replay", () => selectFrom.all(siteId, conversationId, offset, limit).map(toItem))
        ),
      list: (siteId, limit, cursor) =>
        Effect.gen(function* () {
          yield* checkReadSize("limit", limit)
          const after = (yield* decodeCursor(cursor)) ?? { lastAppendedAt: Number.MAX_SAFE_INTEGER, conversationId: "" }
          const rows = yield* attempt("list", () =>
            selectPage.all(siteId, after.lastAppendedAt, after.lastAppendedAt, after.conversationId, limit + 1)
          )
          const page = rows.slice(0, limit)
          const last = page.at(-1)
          return {
            conversations: page.map(toInfo),
            next:
              rows.length > limit && last
                ? encodeCursor({ lastAppendedAt: last.last_appended_at, conversationId: last.conversation_id })
                : null
          }
        }),
      summary: (siteId, conversationId) =>
        Effect.zipRight(
          checkConversationId(conversationId),
          attempt("summary", () => {
            const row = selectConversation.get(siteId, conversationId)
            return row ? renderSummary(conversationId, JSON.parse(row.summary)) : null
          })
        )
    }
  })
)

export const EmbeddedMemoryLog = { layer }
