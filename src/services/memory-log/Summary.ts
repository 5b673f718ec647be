import type { ConversationSummary, MemoryItem } from "./MemoryLog.js"

/**
 * The extractive summary of a conversation (no language model is available): a small state
 * folded item by item, so each append costs O(batch) and the summary is current the moment
 * an append commits. The fold is deterministic in the item sequence (updatedAt is the last
 * item's appendedAt, not the clock), so any process that folds the same items reaches the
 * same state, and re-folding already-counted positions changes nothing.
 *
 * Metadata conventions an agent can use to make the summary precise (all optional):
 * - `metadata.productIds: string[]` — the products an item is about (results shown, a product
 *   viewed or added to cart), in the item's own order of importance.
 * - `metadata.filters: [{ column: string, values: string[] }]` — filters asked for or applied.
 *   The latest mention of a column wins; `values: []` clears that column.
 * Only when an item's metadata names no products are ids taken from its content, and only
 * tokens shaped like SKUs (letters, `-` or `_`, then at least 3 digits: "SKU-1234", "p_000123"),
 * because model names such as "RTX 4090" or "iPhone 15" are not product ids.
 */

type Filter = { readonly column: string; readonly values: ReadonlyArray<string> }

export interface SummaryState {
  /** Items folded so far: positions 0..length-1. */
  readonly length: number
  readonly lookingFor: ReadonlyArray<string>
  readonly products: ReadonlyArray<string>
  readonly filters: ReadonlyArray<Filter>
  readonly lastUser: string | null
  readonly lastAssistant: string | null
  readonly updatedAt: string | null
}

export const emptySummary: SummaryState = {
  length: 0,
  lookingFor: [],
  products: [],
  filters: [],
  lastUser: null,
  lastAssistant: null,
  updatedAt: null
}

const maxRequests = 3
const requestChars = 200
const lastChars = 300
const maxProducts = 20
const maxFilters = 20

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
}

const chitChat = new Set(
  (
    "thanks thank you ty thx ok okay k yes yeah yep no nope sure hi hello hey bye goodbye great cool " +
    "nice perfect awesome good fine alright got it so much very lol hmm please"
  ).split(" ")
)
/** A request says something beyond courtesy words: "thanks, ok" is not, "ok, in red" is. */
const isSubstantive = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .some((word) => word !== "" && !chitChat.has(word))

const skuPattern = /\b[A-Za-z]{1,10}[-_]\d{3,}[A-Za-z0-9]*\b/g
const strings = (value: unknown): Array<string> =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : []

const productsOf = (item: MemoryItem) => {
  const fromMetadata = strings(item.metadata?.productIds)
  return fromMetadata.length > 0 ? fromMetadata : (item.content.match(skuPattern) ?? [])
}

const filtersOf = (item: MemoryItem): Array<Filter> => {
  const raw = item.metadata?.filters
  if (!Array.isArray(raw)) return []
  return raw.flatMap((f) => {
    if (typeof f !== "object" || f === null || typeof f.column !== "string" || f.column === "") return []
    const values = Array.isArray(f.values)
      ? f.values.filter((v: unknown) => ["string", "number", "boolean"].includes(typeof v)).map(String)
      : []
    return [{ column: f.column, values }]
  })
}

/** Each mention moves its column to the front with its new values, or drops it when cleared. */
const applyFilters = (current: ReadonlyArray<Filter>, mentioned: ReadonlyArray<Filter>) =>
  mentioned
    .reduce((acc, f) => [...(f.values.length > 0 ? [f] : []), ...acc.filter((g) => g.column !== f.column)], current)
    .slice(0, maxFilters)

const foldItem = (state: SummaryState, item: MemoryItem): SummaryState => {
  const request = clip(item.content, requestChars)
  const asks = item.role === "user" && isSubstantive(request) && state.lookingFor.at(-1) !== request
  return {
    length: item.position + 1,
    lookingFor: asks ? [...state.lookingFor, request].slice(-maxRequests) : state.lookingFor,
    // A Set keeps first insertion order: this item's ids first, then older ones, no repeats.
    products: [...new Set([...productsOf(item), ...state.products])].slice(0, maxProducts),
    filters: applyFilters(state.filters, filtersOf(item)),
    lastUser: item.role === "user" ? clip(item.content, lastChars) : state.lastUser,
    lastAssistant: item.role === "assistant" ? clip(item.content, lastChars) : state.lastAssistant,
    updatedAt: item.appendedAt
  }
}

/** Folds items (in position order) into the state; positions already folded are skipped. */
export const foldSummary = (state: SummaryState, items: ReadonlyArray<MemoryItem>): SummaryState =>
  items.reduce((s, item) => (item.position < s.length ? s : foldItem(s, item)), state)

const quoted = (xs: ReadonlyArray<string>) => xs.map((x) => `“${x}”`).join("; ")

const paragraph = (s: SummaryState): string => {
  const parts = [
    s.lookingFor.length > 0 ? `The user asked for: ${quoted(s.lookingFor)} (latest last).` : "",
    s.products.length > 0 ? `Products mentioned (most recent first): ${s.products.slice(0, 10).join(", ")}.` : "",
    s.filters.length > 0 ? `Filters: ${s.filters.map((f) => `${f.column} = ${f.values.join(", ")}`).join("; ")}.` : "",
    s.lastUser !== null ? `Last from the user: ${quoted([s.lastUser])}.` : "",
    s.lastAssistant !== null ? `Last from the assistant: ${quoted([s.lastAssistant])}.` : ""
  ].filter((p) => p !== "")
  return parts.length > 0 ? parts.join(" ") : "Nothing from the user or the assistant yet."
}

export const renderSummary = (conversationId: string, s: SummaryState): ConversationSummary => ({
  conversationId,
  length: s.length,
  lookingFor: s.lookingFor,
  products: s.products,
  filters: s.filters,
  lastUser: s.lastUser,
  lastAssistant: s.lastAssistant,
  text: paragraph(s),
  updatedAt: s.updatedAt ?? new Date(0).toISOString()
})
