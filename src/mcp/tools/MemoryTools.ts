import { Effect, Schema } from "effect"
import {
  ConversationInfo,
  ConversationSummary,
  type MemoryError,
  MemoryItem,
  MemoryItemInput,
  MemoryLog,
  type MemoryRejected
} from "../../services/memory-log/MemoryLog.js"
import { defineTool } from "../Tool.js"
import type { ToolFailure } from "../ToolFailure.js"

/** Limit violations name the field (JSON-RPC -32602); backend failures become tool errors. */
const memoryFailure = <A, R>(effect: Effect.Effect<A, MemoryRejected | MemoryError, R>) =>
  Effect.mapError(effect, (e): ToolFailure =>
    e._tag === "MemoryRejected" ? { message: `${e.field}: ${e.message}`, invalidParams: true } : { message: e.message })

const withMemory = <A, E, R>(f: (memory: MemoryLog["Type"]) => Effect.Effect<A, E, R>) => Effect.flatMap(MemoryLog, f)

const ConversationId = Schema.String

export const memoryTools = [
  defineTool({
    name: "append_memory",
    title: "Append to a conversation",
    description: "Appends a batch of items (role user|assistant|system|tool, content, optional metadata) to a conversation's durable log, atomically. Pass an idempotencyKey per batch: a retry with the same key and items is stored once and returns the same positions; the same key with other items is an error. Metadata conventions used by the summary: productIds (string[]), filters ([{column, values}]). Needs site (Basic) credentials.",
    scope: "site",
    effect: "appends",
    input: Schema.Struct({ conversationId: ConversationId, items: Schema.Array(MemoryItemInput), idempotencyKey: Schema.optional(Schema.String) }),
    output: Schema.Struct({ conversationId: Schema.String, positions: Schema.Array(Schema.Int), duplicate: Schema.Boolean, length: Schema.Int }),
    run: (principal, input) =>
      memoryFailure(withMemory((m) => m.append(principal.siteId, input.conversationId, input.items, input.idempotencyKey))).pipe(
        Effect.map((r) => ({ conversationId: input.conversationId, ...r }))
      )
  }),
  defineTool({
    name: "recall_memory",
    title: "Recall recent items",
    description: "The last `count` items of a conversation, oldest first. Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: Schema.Struct({ conversationId: ConversationId, count: Schema.Int }),
    output: Schema.Struct({ conversationId: Schema.String, items: Schema.Array(MemoryItem) }),
    run: (principal, input) =>
      memoryFailure(withMemory((m) => m.recall(principal.siteId, input.conversationId, input.count))).pipe(
        Effect.map((items) => ({ conversationId: input.conversationId, items }))
      )
  }),
  defineTool({
    name: "replay_memory",
    title: "Replay items from a position",
    description: "`limit` items of a conversation starting at position `offset` (0-based), in order. Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: Schema.Struct({ conversationId: ConversationId, offset: Schema.Int, limit: Schema.Int }),
    output: Schema.Struct({ conversationId: Schema.String, items: Schema.Array(MemoryItem) }),
    run: (principal, input) =>
      memoryFailure(withMemory((m) => m.replay(principal.siteId, input.conversationId, input.offset, input.limit))).pipe(
        Effect.map((items) => ({ conversationId: input.conversationId, items }))
      )
  }),
  defineTool({
    name: "list_conversations",
    title: "List conversations",
    description: "Conversation ids of the site with created and last-appended timestamps and length, most recently appended first; pass `cursor` from the previous page. Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: Schema.Struct({ limit: Schema.optional(Schema.Int), cursor: Schema.optional(Schema.String) }),
    output: Schema.Struct({ conversations: Schema.Array(ConversationInfo), next: Schema.NullOr(Schema.String) }),
    run: (principal, input) => memoryFailure(withMemory((m) => m.list(principal.siteId, input.limit ?? 50, input.cursor)))
  }),
  defineTool({
    name: "summarize_conversation",
    title: "Summarize a conversation",
    description: "A condensed, current, extractive summary of a conversation: what the user is looking for, products and filters mentioned, and the latest state. Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: Schema.Struct({ conversationId: ConversationId }),
    output: ConversationSummary,
    run: (principal, input) =>
      memoryFailure(withMemory((m) => m.summary(principal.siteId, input.conversationId))).pipe(
        Effect.flatMap((s) => (s === null ? Effect.fail({ message: `conversation "${input.conversationId}" not found` }) : Effect.succeed(s)))
      )
  })
] as const
