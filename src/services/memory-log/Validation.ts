import { Effect, Schema } from "effect"
import { type MemoryItem, MemoryLimits, type MemoryItemInput, MemoryRejected, MemoryRole } from "./MemoryLog.js"

/**
 * The limits of conversation memory, checked the same way by every layer before anything
 * is written, so a rejected batch stores nothing. Tool inputs arrive as JSON from agents,
 * so the checks do not trust the TypeScript types (role, content and metadata are re-checked).
 */

/** An item that passed the checks, with its metadata already serialised for storage. */
export interface PreparedItem {
  readonly role: MemoryItemInput["role"]
  readonly content: string
  /** JSON of the metadata object, or null when the item has none. */
  readonly metadataJson: string | null
}

/**
 * A stored item as both layers return it. Metadata goes through JSON on the way in, so every
 * reader (and the summary fold) sees exactly what was stored, whichever layer stored it.
 */
export const storedItem = (item: PreparedItem, position: number, appendedAtMs: number): MemoryItem => ({
  role: item.role,
  content: item.content,
  ...(item.metadataJson === null ? {} : { metadata: JSON.parse(item.metadataJson) }),
  position,
  appendedAt: new Date(appendedAtMs).toISOString()
})

export const rejected = (field: string, message: string) => new MemoryRejected({ field, message })

/**
 * Whether a batch sent again under an idempotency key is the batch the key stored: a retry
 * repeats its items exactly. Different items under a used key would otherwise be dropped
 * while the caller is told they were stored.
 */
export const sameBatch = (stored: ReadonlyArray<MemoryItem>, batch: ReadonlyArray<PreparedItem>): boolean =>
  stored.length === batch.length &&
  stored.every(
    (item, i) =>
      item.role === batch[i].role &&
      item.content === batch[i].content &&
      (item.metadata === undefined ? null : JSON.stringify(item.metadata)) === batch[i].metadataJson
  )

/** A used idempotency key sent with other items. */
export const keyReused = (first: number, count: number) =>
  rejected(
    "idempotencyKey",
    `was already used for a different batch (positions ${first}..${first + count - 1}); ` +
      `a retry must send the same items, a new batch needs a new key`
  )
const reject = (field: string, message: string) => Effect.fail(rejected(field, message))

const conversationIdPattern = /^[A-Za-z0-9._:-]+$/
const isRole = Schema.is(MemoryRole)

export const checkConversationId = (id: string): Effect.Effect<void, MemoryRejected> =>
  typeof id === "string" &&
  id.length >= 1 &&
  id.length <= MemoryLimits.maxConversationIdChars &&
  conversationIdPattern.test(id)
    ? Effect.void
    : reject("conversationId", `must be 1..${MemoryLimits.maxConversationIdChars} characters of [A-Za-z0-9._:-]`)

const serialiseMetadata = (metadata: unknown): string | null | undefined => {
  if (metadata === undefined) return null
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return undefined
  try {
    return JSON.stringify(metadata)
  } catch {
    return undefined // cycles or BigInt: not JSON, so not storable
  }
}

const prepareItem = (item: MemoryItemInput, i: number): Effect.Effect<PreparedItem, MemoryRejected> => {
  if (!isRole(item?.role)) return reject(`items[${i}].role`, "must be one of user, assistant, system, tool")
  if (typeof item.content !== "string") return reject(`items[${i}].content`, "must be a string")
  if (item.content.length > MemoryLimits.maxContentChars) {
    return reject(`items[${i}].content`, `must be at most ${MemoryLimits.maxContentChars} characters`)
  }
  const metadataJson = serialiseMetadata(item.metadata)
  if (metadataJson === undefined) return reject(`items[${i}].metadata`, "must be a JSON object")
  if (metadataJson !== null && Buffer.byteLength(metadataJson) > MemoryLimits.maxMetadataBytes) {
    return reject(`items[${i}].metadata`, `must be at most ${MemoryLimits.maxMetadataBytes} bytes as JSON`)
  }
  return Effect.succeed({ role: item.role, content: item.content, metadataJson })
}

export const prepareAppend = (
  conversationId: string,
  items: ReadonlyArray<MemoryItemInput>,
  idempotencyKey: string | undefined
): Effect.Effect<ReadonlyArray<PreparedItem>, MemoryRejected> =>
  Effect.gen(function* () {
    yield* checkConversationId(conversationId)
    if (
      idempotencyKey !== undefined &&
      (typeof idempotencyKey !== "string" ||
        idempotencyKey.length < 1 ||
        idempotencyKey.length > MemoryLimits.maxIdempotencyKeyChars)
    ) {
      return yield* reject("idempotencyKey", `must be 1..${MemoryLimits.maxIdempotencyKeyChars} characters`)
    }
    if (!Array.isArray(items) || items.length < 1 || items.length > MemoryLimits.maxBatchItems) {
      return yield* reject("items", `a batch must hold 1..${MemoryLimits.maxBatchItems} items`)
    }
    return yield* Effect.forEach(items, prepareItem)
  })

/** The length limit is checked inside each layer's atomic step, where the current length is known. */
export const conversationFull = (current: number, adding: number) =>
  rejected(
    "items",
    `the conversation holds ${current} items; appending ${adding} would exceed ${MemoryLimits.maxConversationItems}`
  )

export const checkReadSize = (field: "count" | "limit", n: number): Effect.Effect<void, MemoryRejected> =>
  Number.isInteger(n) && n >= 1 && n <= MemoryLimits.maxReadItems
    ? Effect.void
    : reject(field, `must be an integer in 1..${MemoryLimits.maxReadItems}`)

export const checkOffset = (n: number): Effect.Effect<void, MemoryRejected> =>
  Number.isInteger(n) && n >= 0 ? Effect.void : reject("offset", "must be an integer ≥ 0")

/**
 * Listing pages by keyset (lastAppendedAt desc, conversationId desc) rather than by offset,
 * so conversations appended to while a client pages are neither skipped nor repeated
 * among the ones it has not reached yet. The cursor is the last row seen, opaque to clients.
 */
export interface ListCursor {
  readonly lastAppendedAt: number
  readonly conversationId: string
}

export const encodeCursor = (c: ListCursor): string =>
  Buffer.from(`${c.lastAppendedAt}:${c.conversationId}`).toString("base64url")

export const decodeCursor = (cursor: string | undefined): Effect.Effect<ListCursor | null, MemoryRejected> => {
  if (cursor === undefined) return Effect.succeed(null)
  const match = /^(\d{1,15}):(.+)$/.exec(Buffer.from(String(cursor), "base64url").toString())
  return match && conversationIdPattern.test(match[2])
    ? Effect.succeed({ lastAppendedAt: Number(match[1]), conversationId: match[2] })
    : reject("cursor", "is not a cursor returned by list_conversations")
}
