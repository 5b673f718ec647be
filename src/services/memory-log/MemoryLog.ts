import { Context, Data, type Effect, Schema } from "effect"
import { BackendFailure } from "../../platform/BackendFailure.js"

/**
 * Durable conversation memory for agents: per site, per conversation, an append-only ordered log.
 * Positions are assigned by the server (0, 1, 2, …) in one total order per conversation.
 */
export const MemoryRole = Schema.Literal("user", "assistant", "system", "tool")

/** What a client appends. */
export const MemoryItemInput = Schema.Struct({
  role: MemoryRole,
  content: Schema.String,
  metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
export type MemoryItemInput = typeof MemoryItemInput.Type

/** What is stored and returned: the input plus its server-assigned position and time. */
export const MemoryItem = Schema.Struct({
  ...MemoryItemInput.fields,
  position: Schema.Int,
  appendedAt: Schema.String
})
export type MemoryItem = typeof MemoryItem.Type

export const ConversationInfo = Schema.Struct({
  conversationId: Schema.String,
  createdAt: Schema.String,
  lastAppendedAt: Schema.String,
  length: Schema.Int
})
export type ConversationInfo = typeof ConversationInfo.Type

/** The extractive summary kept current as items are appended (no language model is available). */
export const ConversationSummary = Schema.Struct({
  conversationId: Schema.String,
  length: Schema.Int,
  /** What the user is looking for: their latest substantive requests, newest last. */
  lookingFor: Schema.Array(Schema.String),
  /** Product ids mentioned in items (content or metadata.productIds), most recent first. */
  products: Schema.Array(Schema.String),
  /** Filters mentioned in metadata.filters ({column, values}), latest value per column. */
  filters: Schema.Array(Schema.Struct({ column: Schema.String, values: Schema.Array(Schema.String) })),
  /** The latest state: the last user item and the last assistant item. */
  lastUser: Schema.NullOr(Schema.String),
  lastAssistant: Schema.NullOr(Schema.String),
  text: Schema.String,
  updatedAt: Schema.String
})
export type ConversationSummary = typeof ConversationSummary.Type

export const MemoryLimits = {
  /** Characters of one item's content. */
  maxContentChars: 32_000,
  /** Bytes of one item's metadata, as JSON. */
  maxMetadataBytes: 16_000,
  maxBatchItems: 100,
  maxConversationItems: 100_000,
  maxConversationIdChars: 200,
  maxIdempotencyKeyChars: 200,
  maxReadItems: 1_000
} as const

/** A limit or rule the caller broke; maps to JSON-RPC invalid params. */
export class MemoryRejected extends Data.TaggedError("MemoryRejected")<{
  readonly field: string
  readonly message: string
}> {}
export class MemoryError extends BackendFailure("MemoryError") {}

export interface AppendResult {
  /** Positions of the batch's items (the same on a retried append with the same key). */
  readonly positions: ReadonlyArray<number>
  /** True when this key was seen before and nothing new was stored. */
  readonly duplicate: boolean
  readonly length: number
}

export interface MemoryLogService {
  /** Appends the batch atomically; a repeated idempotencyKey returns the first result and stores nothing. */
  readonly append: (
    siteId: number,
    conversationId: string,
    items: ReadonlyArray<MemoryItemInput>,
    idempotencyKey?: string
  ) => Effect.Effect<AppendResult, MemoryRejected | MemoryError>
  /** The last `count` items, oldest first. */
  readonly recall: (
    siteId: number,
    conversationId: string,
    count: number
  ) => Effect.Effect<ReadonlyArray<MemoryItem>, MemoryRejected | MemoryError>
  /** `limit` items from position `offset`, in order. */
  readonly replay: (
    siteId: number,
    conversationId: string,
    offset: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<MemoryItem>, MemoryRejected | MemoryError>
  /** Conversations of the site, most recently appended first; `cursor` comes from the previous page. */
  readonly list: (
    siteId: number,
    limit: number,
    cursor?: string
  ) => Effect.Effect<
    { readonly conversations: ReadonlyArray<ConversationInfo>; readonly next: string | null },
    MemoryRejected | MemoryError
  >
  readonly summary: (
    siteId: number,
    conversationId: string
  ) => Effect.Effect<ConversationSummary | null, MemoryRejected | MemoryError>
}

export class MemoryLog extends Context.Tag("MemoryLog")<MemoryLog, MemoryLogService>() {}
