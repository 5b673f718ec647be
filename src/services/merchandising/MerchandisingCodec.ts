import { Schema } from "effect"
import { Rule, Synonym } from "../../domain/Merchandising.js"
import { Campaign } from "../../domain/Site.js"
import type { EntryKind, EntryKinds } from "./MerchandisingStore.js"

/**
 * An entry's value as stored JSON, shared by the SQLite and the Redis backend. A decoding
 * failure throws; each backend turns it into a StoreError like any other failed read.
 */
const codecs = {
  synonym: Schema.parseJson(Synonym),
  rule: Schema.parseJson(Rule),
  campaign: Schema.parseJson(Campaign)
} as const

export const encodeEntry = <K extends EntryKind>(kind: K, value: EntryKinds[K]): string =>
  Schema.encodeSync(codecs[kind] as unknown as Schema.Schema<EntryKinds[K], string>)(value)

export const decodeEntry = <K extends EntryKind>(kind: K, json: string): EntryKinds[K] =>
  Schema.decodeUnknownSync(codecs[kind] as unknown as Schema.Schema<EntryKinds[K], string>)(json)
