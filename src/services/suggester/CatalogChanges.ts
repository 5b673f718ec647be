import { Schema } from "effect"
import type { FeedEntry } from "../../platform/redis/ChangeFeed.js"
import { ProductText } from "./Phrases.js"

/** One catalog change of the suggester's vocabulary, as it travels through the change feed. */
export type CatalogChange =
  | { readonly _tag: "Index"; readonly siteId: number; readonly productId: string; readonly source: ProductText }
  | { readonly _tag: "Remove"; readonly siteId: number; readonly productId: string }

const Index = Schema.Struct({ siteId: Schema.Number, productId: Schema.String, source: ProductText })
const decodeIndex = Schema.decodeUnknownSync(Schema.parseJson(Index))
const Remove = Schema.Struct({ siteId: Schema.Number, productId: Schema.String })
const decodeRemove = Schema.decodeUnknownSync(Schema.parseJson(Remove))

// Both bodies encode to themselves (no transformation): JSON.stringify of the Encoded type is their encoder.
export const encodeIndex = (siteId: number, productId: string, source: ProductText): FeedEntry => [
  "I",
  JSON.stringify({ siteId, productId, source } satisfies typeof Index.Encoded)
]

export const encodeRemove = (siteId: number, productId: string): FeedEntry => [
  "R",
  JSON.stringify({ siteId, productId } satisfies typeof Remove.Encoded)
]

/** Throws on an entry this codec did not write. */
export const decodeChange = (values: ReadonlyArray<Buffer>): CatalogChange => {
  const [tag, body] = values
  switch (tag?.toString()) {
    case "I":
      return { _tag: "Index", ...decodeIndex(body?.toString()) }
    case "R":
      return { _tag: "Remove", ...decodeRemove(body?.toString()) }
    default:
      throw new Error(`unknown suggester change ${String(tag)}`)
  }
}
