import { Schema } from "effect"
import { EncodedCategoryPathList } from "./CategoryPath.js"
import { EnergyClass, nullable, oneOf, optionalField, orNull } from "./Product.js"

/** An absolute URI of any scheme (the spec's "uri" format). */
export const Uri = Schema.String.pipe(
  Schema.filter((s) => URL.canParse(s), { message: () => "must be an absolute URI" })
).annotations({ jsonSchema: { type: "string", format: "uri" } })

export const EntityImage = Schema.Struct({
  original: Uri,
  thumbnail: orNull(Uri)
})
export type EntityImage = typeof EntityImage.Type

const BasePriceAmount = Schema.Struct({
  price: nullable(Schema.Number),
  quantity: optionalField(Schema.Number),
  measure: optionalField(Schema.String)
})

/** Price per standardized unit of measurement (e.g. per 1 kg). */
export const BasePrice = Schema.Struct({
  actual: optionalField(BasePriceAmount),
  sale: optionalField(BasePriceAmount)
})
export type BasePrice = typeof BasePrice.Type

export const EnergyCertification = Schema.Struct({
  certificationClass: nullable(EnergyClass),
  classIconUrls: optionalField(Schema.Struct({ left: Uri, right: Uri })),
  classRange: optionalField(Schema.Struct({ min: nullable(EnergyClass), max: nullable(EnergyClass) })),
  classLabelUrl: optionalField(Uri),
  classDataSheetUrl: optionalField(Uri)
})
export type EnergyCertification = typeof EnergyCertification.Type

/** A result's text with the query's matched words marked (extension): text search only. */
export const Highlight = Schema.Struct({
  title: Schema.String.annotations({
    description: "The title, HTML-escaped, each word matching a query word in <mark>…</mark>"
  }),
  description: optionalField(
    Schema.String.annotations({
      description:
        "On request (`snippet: true`), when the product has a description: about 24 words of its text " +
        "where the most query words meet, HTML-escaped and marked as the title, with … where cut"
    })
  )
}).annotations({
  identifier: "Highlight",
  description:
    "Text search with words: the result's text with the words that matched the query (by stem, a forgiven " +
    "typo, the completion of a word being typed, a model number's base) in <mark>…</mark>, the rest " +
    "HTML-escaped: safe to insert as HTML"
})
export type Highlight = typeof Highlight.Type

export const VariantSummary = Schema.Struct({
  count: Schema.Int,
  colors: Schema.Array(Schema.String),
  sizes: Schema.Array(Schema.String)
}).annotations({ identifier: "VariantSummary" })
export type VariantSummary = typeof VariantSummary.Type

/**
 * A product-like record returned by searches and recommendations. Only what the spec marks
 * required is required. `productType` holds the product_type paths: text on the type side,
 * Base64-URL encoded paths joined by "," on the wire.
 */
/**
 * A listed product's place, explained (text search with `explain`): its score and the parts it
 * adds up from, or the rule (or campaign pin) that placed it.
 */
export const Explanation = Schema.Struct({
  score: Schema.Number,
  /** BM25 share of the query's best match, times the lexical weight (synonyms and typos included). */
  lexical: Schema.Number,
  /** Text (and image) cosine similarity, times their weights. */
  semantic: Schema.Number,
  /** Shoppers' popularity lift. */
  popularity: Schema.Number,
  /** Campaign and rule boosts (negative: buried), and the duplicate-title spread. */
  boosts: Schema.Number,
  /** Placed by a query rule's promotion (its id) or a campaign pin ("campaign pin"), at this position. */
  promoted: optionalField(Schema.Struct({ by: Schema.String, position: Schema.Number }))
}).annotations({ identifier: "Explanation" })
export type Explanation = typeof Explanation.Type

export const ResultEntity = Schema.Struct({
  kind: optionalField(oneOf("product", "content")),
  entityType: optionalField(oneOf("product", "content", "list")),
  groupId: nullable(Schema.String),
  productId: optionalField(Schema.String),
  title: optionalField(Schema.String),
  deeplink: nullable(Uri),
  brand: nullable(Schema.String),
  productType: nullable(EncodedCategoryPathList),
  image: optionalField(EntityImage),
  images: optionalField(Schema.Array(EntityImage)),
  price: optionalField(Schema.Struct({ actual: nullable(Schema.Number), sale: nullable(Schema.Number) })),
  basePrice: optionalField(BasePrice),
  energyEfficiencyClass: nullable(EnergyClass),
  minEnergyEfficiencyClass: nullable(EnergyClass),
  maxEnergyEfficiencyClass: nullable(EnergyClass),
  energyCertifications: optionalField(Schema.Array(EnergyCertification)),
  custom_label_0: nullable(Schema.String),
  custom_label_1: nullable(Schema.String),
  custom_label_2: nullable(Schema.String),
  custom_label_3: nullable(Schema.String),
  custom_label_4: nullable(Schema.String),
  /** What a listing tile shows without a GET per product (extension). */
  availability: optionalField(Schema.String),
  color: optionalField(Schema.String),
  size: optionalField(Schema.String),
  /**
   * The product's item group when a listing shows one product per group (extension): how many
   * variants it has, and their colours and sizes, for swatches.
   */
  variants: optionalField(VariantSummary),
  /** Text search: the title (and on request a description snippet) with the matched words marked (extension). */
  highlight: optionalField(Highlight),
  /** Text search with `explain`: why the product is where it is (extension). */
  explanation: optionalField(Explanation)
}).annotations({ identifier: "ResultEntity" })
export type ResultEntity = typeof ResultEntity.Type
export type ResultEntityEncoded = typeof ResultEntity.Encoded
