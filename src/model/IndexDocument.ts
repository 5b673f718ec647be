import { Schema } from "effect"
import { Vector } from "./Vector.js"

/**
 * A filterable/facetable column value of one product: a single string (brand, availability),
 * a set of strings (category paths, colours), a number or a boolean. Strings are normalised
 * as stored (see Columns).
 */
export const PayloadValue = Schema.Union(
  Schema.String,
  Schema.Array(Schema.String),
  Schema.Number,
  Schema.Boolean,
  Schema.Null
)
export type PayloadValue = typeof PayloadValue.Type

/** Text fields for lexical retrieval; weights are the index's concern (see FieldWeights). */
export const IndexText = Schema.Struct({
  title: Schema.String,
  brand: Schema.String,
  productType: Schema.String,
  category: Schema.String,
  description: Schema.String,
  highlights: Schema.String,
  details: Schema.String,
  /** Other searchable words: colour, material, pattern, gtin, mpn, image-derived labels. */
  extra: Schema.String
})
export type IndexText = typeof IndexText.Type
export type IndexTextField = keyof IndexText

/** The text fields in one fixed order: both indexes keep per-field statistics in it. */
export const INDEX_TEXT_FIELDS: ReadonlyArray<IndexTextField> = Object.keys(IndexText.fields) as Array<IndexTextField>

/** Filter/facet columns by name (see Columns). */
export const Payload = Schema.Record({ key: Schema.String, value: PayloadValue })
export type Payload = typeof Payload.Type

/** The searchable, derived view of one product, as the catalog index holds it. */
export const IndexDocument = Schema.Struct({
  siteId: Schema.Number,
  productId: Schema.String,
  /**
   * The record version the document was made from (StoredProduct.version). An index never
   * replaces a document by one made from an older version: a job that read the record before
   * a newer write was applied to the index cannot undo it. Absent: always replaces.
   */
  version: Schema.optional(Schema.Number),
  text: IndexText,
  /**
   * Category columns hold text-form paths, each ancestor included ("A", "A > B", "A > B > C"),
   * so a filter on a parent matches its descendants.
   */
  payload: Payload,
  vectors: Schema.Struct({
    text: Schema.optional(Vector),
    image: Schema.optional(Schema.Array(Vector))
  })
})
export type IndexDocument = typeof IndexDocument.Type

/**
 * New values of some columns of a held document (a price or stock change), made from record
 * `version` by changing version `basedOn`: an index applies it only over the document of that
 * very version, so words and vectors it keeps are the ones that version had.
 */
export const ColumnsUpdate = Schema.Struct({
  siteId: Schema.Number,
  productId: Schema.String,
  version: Schema.Number,
  basedOn: Schema.Number,
  columns: Payload
})
export type ColumnsUpdate = typeof ColumnsUpdate.Type
