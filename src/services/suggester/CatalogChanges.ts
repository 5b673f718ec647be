import type { FeedEntry } from "../../platform/redis/ChangeFeed.js"
import type { ProductText } from "./Phrases.js"

/** One catalog change of the suggester's vocabulary, as it travels through the change feed. */
export type CatalogChange =
  | { readonly _tag: "Index"; readonly siteId: number; readonly productId: string; readonly source: ProductText }
  | { readonly _tag: "Remove"; readonly siteId: number; readonly productId: string }

export const encodeIndex = (siteId: number, productId: string, source: ProductText): FeedEntry => [
  "I",
  JSON.stringify({ siteId, productId, source })
]

export const encodeRemove = (siteId: number, productId: string): FeedEntry => ["R", JSON.stringify({ siteId, productId })]

/** Throws on an entry this codec did not write. */
export const decodeChange = (values: ReadonlyArray<Buffer>): CatalogChange => {
  const [tag, json] = values
  switch (tag?.toString()) {
    case "I": {
      const { siteId, productId, source } = JSON.parse(json.toString()) as { siteId: number; productId: string; source: ProductText }
      return { _tag: "Index", siteId, productId, source }
    }
    case "R": {
      const { siteId, productId } = JSON.parse(json.toString()) as { siteId: number; productId: string }
      return { _tag: "Remove", siteId, productId }
    }
    default:
      throw new Error(`unknown suggester change ${String(tag)}`)
  }
}
