import type { Schemas } from "@qdrant/js-client-rest"
import type { IndexDocument, PayloadValue } from "../../../model/IndexDocument.js"

/**
 * Where an IndexDocument lives inside a Qdrant point. Columns are nested under `columns` so
 * a column can never collide with the keys the layer itself needs (a site may well have a
 * column called "text").
 */
export const SITE_KEY = "site_id"
export const PRODUCT_KEY = "product_id"
export const TEXT_KEY = "text"
export const COLUMNS_KEY = "columns"
/** The lexical vector's indices (field-term keys) as an integer array: per-site statistics count over its index. */
export const TERMS_KEY = "terms"
/** The record version the document was made from (IndexDocument.version), when it has one. */
export const VERSION_KEY = "version"
/** A number in product-id order (see IdOrder.ts): Qdrant's `order_by` takes numbers only. */
export const ORDER_KEY = "id_order"

/** Named vectors of the collection. */
export const TEXT_VECTOR = "text"
export const IMAGE_VECTOR = "image"
/** Hashed (field, stemmed term) keys with BM25 term-frequency parts; IDF and field weights come with the query. */
export const LEXICAL_VECTOR = "lexical"

/** The site key is a keyword: only keyword (and uuid) indexes take `is_tenant`. */
export const siteValue = (siteId: number): string => String(siteId)

/**
 * Payload path of a column. Qdrant's JSON paths take dots and brackets as syntax, so a name
 * with anything but word characters is quoted.
 */
export const columnKey = (column: string): string =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(column) ? `${COLUMNS_KEY}.${column}` : `${COLUMNS_KEY}.${JSON.stringify(column)}`

/**
 * Product ids order by code units, but Qdrant's `order_by` needs a numeric index. This key is
 * a number that never decreases along that order: the first 8 code units in base 97 (end of
 * id 0, up to a space 1, printable ASCII 2–95, the rest 96), below 2^53 so JSON keeps it exact.
 * Ids sharing the key (a long common prefix, non-ASCII) tie and are ordered client-side.
 */
const DIGITS = 8
const BASE = 97

const digit = (code: number): number => (code <= 32 ? 1 : code < 127 ? code - 31 : 96)

export const idOrder = (productId: string): number => {
  let key = 0
  for (let i = 0; i < DIGITS; i++) key = key * BASE + (i < productId.length ? digit(productId.charCodeAt(i)) : 0)
  return key
}

/** A point's payload read back: its product id, columns and text. */
export const productIdOf = (payload: Schemas["Payload"] | null | undefined): string => String(payload?.[PRODUCT_KEY])

export const columnsOf = (payload: Schemas["Payload"] | null | undefined): Readonly<Record<string, PayloadValue>> =>
  (payload?.[COLUMNS_KEY] as Record<string, PayloadValue> | undefined) ?? {}

export const textOf = (payload: Schemas["Payload"] | null | undefined): IndexDocument["text"] =>
  payload?.[TEXT_KEY] as IndexDocument["text"]
