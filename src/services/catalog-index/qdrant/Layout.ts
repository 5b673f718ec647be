/**
 * Where an IndexDocument lives inside a Qdrant point. Columns are nested under `columns` so
 * a column can never collide with the keys the layer itself needs (a site may well have a
 * column called "text").
 */
export const SITE_KEY = "site_id"
export const PRODUCT_KEY = "product_id"
export const TEXT_KEY = "text"
export const COLUMNS_KEY = "columns"

/** Named vectors of the collection. */
export const TEXT_VECTOR = "text"
export const IMAGE_VECTOR = "image"
/** Hashed stemmed terms with BM25-like weights; Qdrant multiplies in the IDF. */
export const LEXICAL_VECTOR = "lexical"
/** Hashed character trigrams of the terms: the candidate generator for typos and prefixes. */
export const GRAMS_VECTOR = "grams"

/** The site key is a keyword: only keyword (and uuid) indexes take `is_tenant`. */
export const siteValue = (siteId: number): string => String(siteId)

/**
 * Payload path of a column. Qdrant's JSON paths take dots and brackets as syntax, so a name
 * with anything but word characters is quoted.
 */
export const columnKey = (column: string): string =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(column) ? `${COLUMNS_KEY}.${column}` : `${COLUMNS_KEY}.${JSON.stringify(column)}`
