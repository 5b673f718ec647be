import { Effect, Schema } from "effect"
import {
  ConversationInfo,
  ConversationSummary,
  type MemoryError,
  MemoryItem,
  MemoryItemInput,
  MemoryLimits,
  MemoryLog,
  type MemoryRejected
} from "../../services/memory-log/MemoryLog.js"
import { defineTool } from "../Tool.js"
import type { ToolFailure } from "../ToolFailure.js"

/** Limit violations name the field (JSON-RPC -32602); backend failures become tool errors. */
const memoryFailure = <A, R>(effect: Effect.Effect<A, MemoryRejected | MemoryError, R>) =>
  Effect.mapError(
    effect,
    (e): ToolFailure =>
      e._tag === "MemoryRejected"
        ? { message: `${e.field}: ${e.message}`, invalidParams: true }
        : { message: e.message }
  )

const withMemory = <A, E, R>(f: (memory: MemoryLog["Type"]) => Effect.Effect<A, E, R>) => Effect.flatMap(MemoryLog, f)

// The tools' inputs publish the limits the memory log enforces (MemoryLimits), so an agent
// sees them in tools/list instead of learning them from refusals.
const ConversationId = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(MemoryLimits.maxConversationIdChars, {
    message: () => `must be at most ${MemoryLimits.maxConversationIdChars} characters`
  }),
  Schema.pattern(/^[A-Za-z0-9._:-]+$/, { message: () => "must use only the characters A-Z a-z 0-9 . _ : -" })
).annotations({
  description: `Your id for the conversation: 1–${
    MemoryLimits.maxConversationIdChars
  } characters of A-Z a-z 0-9 . _ : -`
})

const ItemInput = Schema.Struct({
  role: MemoryItemInput.fields.role.annotations({ description: "Who said it: user, assistant, system or tool" }),
  content: Schema.String.pipe(
    Schema.maxLength(MemoryLimits.maxContentChars, {
      message: () => `must be at most ${MemoryLimits.maxContentChars} characters`
    })
  ).annotations({ description: `The text, at most ${MemoryLimits.maxContentChars} characters` }),
  metadata: Schema.optional(
    MemoryItemInput.fields.metadata.from.annotations({
      description:
        `Any JSON object (at most ${MemoryLimits.maxMetadataBytes} bytes); ` +
        `the summary reads productIds (string[]) and filters ([{column, values}])`
    })
  )
})

const ReadCount = (what: string) =>
  Schema.Int.pipe(
    Schema.between(1, MemoryLimits.maxReadItems, { message: () => `must be 1..${MemoryLimits.maxReadItems}` })
  ).annotations({ description: `${what}, 1–${MemoryLimits.maxReadItems}` })

export const memoryTools = [
  defineTool({
    name: "append_memory",
    title: "Append to a conversation",
    description:
      "Appends a batch of items (role user|assistant|system|tool, content, optional metadata) to a " +
      "conversation's durable log, atomically. Pass an idempotencyKey per batch: " +
      "a retry with the same key and items is stored once and returns the same positions; " +
      "the same key with other items is an error. Metadata conventions used by the summary: " +
      "productIds (string[]), filters ([{column, values}]). Needs site (Basic) credentials.",
    scope: "site",
    effect: "appends",
    input: Schema.Struct({
      conversationId: ConversationId,
      items: Schema.Array(ItemInput)
        .pipe(
          Schema.minItems(1, { message: () => "must hold at least 1 item" }),
          Schema.maxItems(MemoryLimits.maxBatchItems, {
            message: () => `must hold at most ${MemoryLimits.maxBatchItems} items`
          })
        )
        .annotations({
          description: `The batch to append, 1–${MemoryLimits.maxBatchItems} items, stored atomically in this order`
        }),
      idempotencyKey: Schema.optional(
        Schema.String.pipe(
          Schema.minLength(1, { message: () => "must not be empty" }),
          Schema.maxLength(MemoryLimits.maxIdempotencyKeyChars, {
            message: () => `must be at most ${MemoryLimits.maxIdempotencyKeyChars} characters`
          })
        ).annotations({ description: "One key per batch: a retry with the same key and items is stored once" })
      )
    }),
    output: Schema.Struct({
      conversationId: Schema.String,
      positions: Schema.Array(Schema.Int),
      duplicate: Schema.Boolean,
      length: Schema.Int
    }),
    run: (principal, input) =>
      memoryFailure(
        withMemory((m) => m.append(principal.siteId, input.conversationId, input.items, input.idempotencyKey))
      ).pipe(Effect.map((r) => ({ conversationId: input.conversationId, ...r })))
  }),
  defineTool({
    name: "recall_memory",
    title: "Recall recent items",
    description: "The last `count` items of a conversation, oldest first. Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: Schema.Struct({ conversationId: ConversationId, count: ReadCount("How many of the latest items") }),
    output: Schema.Struct({ conversationId: Schema.String, items: Schema.Array(MemoryItem) }),
    run: (principal, input) =>
      memoryFailure(withMemory((m) => m.recall(principal.siteId, input.conversationId, input.count))).pipe(
        Effect.map((items) => ({ conversationId: input.conversationId, items }))
      )
  }),
  defineTool({
    name: "replay_memory",
    title: "Replay items from a position",
    description:
      "`limit` items of a conversation starting at position `offset` (0-based), in order. " +
      "Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: Schema.Struct({
      conversationId: ConversationId,
      offset: Schema.Int.pipe(Schema.nonNegative({ message: () => "must be 0 or more" })).annotations({
        description: "The first position to read (0-based)"
      }),
      limit: ReadCount("How many items")
    }),
    output: Schema.Struct({ conversationId: Schema.String, items: Schema.Array(MemoryItem) }),
    run: (principal, input) =>
      memoryFailure(
        withMemory((m) => m.replay(principal.siteId, input.conversationId, input.offset, input.limit))
      ).pipe(Effect.map((items) => ({ conversationId: input.conversationId, items })))
  }),
  defineTool({
    name: "list_conversations",
    title: "List conversations",
    description:
      "Conversation ids of the site with created and last-appended timestamps and length, " +
      "most recently appended first; pass `cursor` from the previous page. Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: Schema.Struct({
      limit: Schema.optional(ReadCount("Conversations per page (default 50)")),
      cursor: Schema.optional(Schema.String.annotations({ description: "The `next` of the previous page" }))
    }),
    output: Schema.Struct({ conversations: Schema.Array(ConversationInfo), next: Schema.NullOr(Schema.String) }),
    run: (principal, input) =>
      memoryFailure(withMemory((m) => m.list(principal.siteId, input.limit ?? 50, input.cursor)))
  }),
  defineTool({
    name: "summarize_conversation",
    title: "Summarize a conversation",
    description:
      "A condensed, current, extractive summary of a conversation: what the user is looking for, " +
      "products and filters mentioned, and the latest state. Needs site (Basic) credentials.",
    scope: "site",
    effect: "reads",
    input: Schema.Struct({ conversationId: ConversationId }),
    output: ConversationSummary,
    run: (principal, input) =>
      memoryFailure(withMemory((m) => m.summary(principal.siteId, input.conversationId))).pipe(
        Effect.flatMap((s) =>
          s === null ? Effect.fail({ message: `conversation "${input.conversationId}" not found` }) : Effect.succeed(s)
        )
      )
  })
] as const
