import { Schema } from "effect"
import { DynamicFilters, StaticFilters } from "./Filters.js"
import { Interactions } from "./Interactions.js"
import { maxChars, oneOf, optionalField } from "./Product.js"
import { ResultEntity } from "./ResultEntity.js"
import { Stream } from "./Stream.js"

/** Chosen by the client; a repeated id lets a visual search reuse the image stored for it. */
export const RequestId = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  maxChars(200)
).annotations({ description: "Your id for this request (1–200 characters), echoed in the answer" })

/** The campaign's own result count caps this further at run time. */
export const ResultsCount = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= 1000, {
    message: () => "must be an integer from 1 to 1000",
    // The description goes with the JSON Schema: Effect publishes a refinement's jsonSchema as it is.
    jsonSchema: {
      type: "integer",
      minimum: 1,
      maximum: 1000,
      description: "How many products to return (1–1000; the campaign may cap it)"
    }
  })
)

export const CampaignId = Schema.Number.pipe(
  Schema.filter((n) => Number.isSafeInteger(n), {
    message: () => "must be an integer campaign id",
    jsonSchema: {
      type: "integer",
      description: "The campaign whose boosts, pins and filters apply (default: the site's)"
    }
  })
)

/** Empty (or omitted) in a text search: the request browses its scope, e.g. a category page. */
export const TextQuery = Schema.String.pipe(maxChars(500)).annotations({
  description: "What the shopper typed (at most 500 characters); empty or omitted browses the filtered scope"
})

/** How deep a page may start: deeper pages of a listing are a crawl, not a shopper. */
export const MAX_OFFSET = 10_000

export const Offset = Schema.Number.pipe(
  Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= MAX_OFFSET, {
    message: () => `must be an integer from 0 to ${MAX_OFFSET}`,
    jsonSchema: {
      type: "integer",
      minimum: 0,
      maximum: MAX_OFFSET,
      description: `How many results to skip, for the next page (0–${MAX_OFFSET})`
    }
  })
)

/**
 * How a listing may be ordered (see Columns.sortColumns): the effective price, the title, the
 * time a product was added; shoppers' popularity and trend (learning/ShopperSignals.ts:
 * products without any events come after those with some, either order).
 */
export const SortColumn = oneOf("price", "title", "newest", "popular", "trending")

export const SortOrder = oneOf("asc", "desc")

export const SortKey = Schema.Struct({ column: SortColumn, order: SortOrder })

/** Keys in priority order; relevance breaks the ties that remain. */
export const Sort = Schema.Array(SortKey).pipe(
  Schema.maxItems(3, { message: () => "must have at most 3 keys" }),
  Schema.filter((keys) => new Set(keys.map((k) => k.column)).size === keys.length || "must not name a column twice", {
    jsonSchema: {
      description:
        "Up to 3 sort keys in priority order (price, title, newest, popular, trending); omitted: by relevance"
    }
  })
)

export const TextSearchRequest = Schema.Struct({
  requestId: optionalField(RequestId),
  query: optionalField(TextQuery),
  resultsCount: optionalField(ResultsCount),
  offset: optionalField(Offset),
  sort: optionalField(Sort),
  /** One product per item group (its best-placed variant); counts and totals then count groups. */
  collapseVariants: optionalField(
    Schema.Boolean.annotations({
      description: "One product per item group (its best-placed variant); counts and totals then count groups"
    })
  ),
  /**
   * The query is being typed (search as you type): its last word also matches the words it
   * begins ("cordl" → "cordless"). A submitted search matches whole words only.
   */
  asYouType: optionalField(
    Schema.Boolean.annotations({
      description:
        "The query is being typed (search as you type): its last word also matches the words it begins. " +
        "Absent or false: a submitted search, whole words only"
    })
  ),
  /** Each result's `highlight` also holds a snippet of its description where the matched words are. */
  snippet: optionalField(
    Schema.Boolean.annotations({
      description:
        "Each result's highlight also holds `description`: about 24 words of the product's description " +
        "where the most query words meet, matched words in <mark>. Absent or false: the title only"
    })
  ),
  campaign: optionalField(CampaignId),
  staticFilters: optionalField(StaticFilters),
  dynamicFilters: optionalField(DynamicFilters),
  /** false: the search is not recorded for search analytics (a merchant's preview, a test); default true. */
  analytics: optionalField(
    Schema.Boolean.annotations({
      description:
        "false: this search is left out of search analytics (a merchant's preview, a monitoring probe); default true"
    })
  ),
  /** Each result carries `explanation` (its score's parts, or the rule that placed it), and `data.explanation` the query's. */
  explain: optionalField(
    Schema.Boolean.annotations({
      description:
        "Each result carries `explanation`: its score and the parts it adds up from (lexical, semantic, " +
        "popularity, boosts) or the rule that promoted it; `data.explanation` the words searched and the synonyms applied"
    })
  )
}).annotations({ identifier: "TextSearchRequest" })
export type TextSearchRequest = typeof TextSearchRequest.Type

/** The answer of text and visual search. */
export const SearchResponse = Schema.Struct({
  requestId: optionalField(Schema.String),
  data: Schema.Struct({
    products: Schema.Array(ResultEntity),
    /** How many products (or variant groups) the search matched in all (text search; pages are slices of them). */
    total: optionalField(Schema.Number),
    interactions: optionalField(Interactions),
    /** The ids of the query rules that fired, in the order they fired (see /rules). */
    appliedRules: optionalField(
      Schema.Array(Schema.String).annotations({ description: "The query rules that fired, in order" })
    ),
    /** With `explain`: the words searched (after the rules' edits) and the synonyms applied to them. */
    explanation: optionalField(
      Schema.Struct({
        searched: Schema.String,
        synonyms: Schema.Array(Schema.Struct({ words: Schema.String, alternatives: Schema.Array(Schema.String) }))
      })
    ),
    /** The fired rules' `userData` (a banner, a message), in the same order. */
    userData: optionalField(
      Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })).annotations({
        description: "The fired rules' userData, in their order"
      })
    )
  }),
  interactions: optionalField(Interactions),
  stream: optionalField(Stream)
}).annotations({ identifier: "SearchResponse" })
export type SearchResponse = typeof SearchResponse.Type

export const TextSearchResponse = SearchResponse
export type TextSearchResponse = SearchResponse
