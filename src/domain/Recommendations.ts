import { ParseResult, Schema } from "effect"
import { EncodedCategoryPath } from "./CategoryPath.js"
import { DynamicFilters, LegacyExcludedFilters, StaticFilters } from "./Filters.js"
import { Interactions } from "./Interactions.js"
import { ResultEntity } from "./ResultEntity.js"
import { CampaignId, RequestId, ResultsCount } from "./Search.js"
import { optionalField } from "./Product.js"

export const SourceProductId = Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }))

/** Replace the source product's own attributes for this request only. */
export const Substitutions = Schema.Struct({
  category: optionalField(Schema.Array(EncodedCategoryPath)),
  price: optionalField(
    Schema.Number.pipe(
      Schema.filter((n) => Number.isFinite(n) && n >= 0, { message: () => "must be a finite number >= 0" })
    )
  )
})
export type Substitutions = typeof Substitutions.Type

const recommendationRequest = {
  requestId: optionalField(RequestId),
  productId: SourceProductId,
  resultsCount: optionalField(ResultsCount),
  campaigns: optionalField(Schema.Array(CampaignId)),
  staticFilters: optionalField(StaticFilters),
  dynamicFilters: optionalField(DynamicFilters)
}

export const SimilarProductsRequest = Schema.Struct({
  ...recommendationRequest,
  substitutions: optionalField(Substitutions)
}).annotations({ identifier: "SimilarProductsRequest" })
export type SimilarProductsRequest = typeof SimilarProductsRequest.Type

export const CrossSellingRequest = Schema.Struct(recommendationRequest).annotations({
  identifier: "CrossSellingRequest"
})
export type CrossSellingRequest = typeof CrossSellingRequest.Type

const RecommendationData = Schema.Struct({
  sourceProduct: ResultEntity,
  products: Schema.Array(ResultEntity)
})

/** The substitution the service applied, so a client can show and undo it. */
export const AppliedSubstitution = Schema.Struct({
  column: Schema.String,
  value: Schema.Struct({ value: Schema.Array(EncodedCategoryPath), label: Schema.String })
})
export type AppliedSubstitution = typeof AppliedSubstitution.Type

export const SimilarProductsResponse = Schema.Struct({
  requestId: optionalField(Schema.String),
  data: RecommendationData,
  interactions: optionalField(Interactions),
  substitutions: optionalField(Schema.Array(AppliedSubstitution))
}).annotations({ identifier: "SimilarProductsResponse" })
export type SimilarProductsResponse = typeof SimilarProductsResponse.Type

export const CrossSellingResponse = Schema.Struct({
  requestId: optionalField(Schema.String),
  data: RecommendationData,
  interactions: optionalField(Interactions)
}).annotations({ identifier: "CrossSellingResponse" })
export type CrossSellingResponse = typeof CrossSellingResponse.Type

// Deprecated GET endpoints: every query parameter is a string (or repeated strings) on the wire.

const LegacyCount = Schema.String.pipe(
  Schema.pattern(/^\d+$/, { message: () => "must be an integer from 1 to 1000" }),
  Schema.compose(Schema.NumberFromString),
  Schema.compose(ResultsCount)
)

const LegacyCampaigns = Schema.transformOrFail(Schema.String, Schema.Array(CampaignId), {
  strict: true,
  decode: (s, _, ast) => {
    const ids = s
      .split(",")
      .map((id) => id.trim())
      .filter((id) => id.length > 0)
    return ids.every((id) => /^\d+$/.test(id))
      ? ParseResult.succeed(ids.map(Number))
      : ParseResult.fail(new ParseResult.Type(ast, s, "must be comma-separated integer campaign ids"))
  },
  encode: (ids) => ParseResult.succeed(ids.join(","))
})

const LegacyCategories = Schema.transform(
  Schema.Union(Schema.String, Schema.Array(Schema.String)),
  Schema.Array(EncodedCategoryPath),
  { strict: true, decode: (v) => (typeof v === "string" ? [v] : v), encode: (v) => v }
)

const legacyQuery = {
  campaigns: optionalField(LegacyCampaigns),
  imageCode: optionalField(Schema.String).pipe(Schema.fromKey("image-code")),
  /** Deprecated: a colour to match, RRGGBB. */
  color: optionalField(
    Schema.String.pipe(Schema.pattern(/^[0-9a-fA-F]{6}$/, { message: () => "must be 6 hexadecimal digits (RRGGBB)" }))
  ),
  excluded: optionalField(LegacyExcludedFilters).pipe(Schema.fromKey("excluded[]"))
}

/** Query of GET /product/{id}/similar-products, renamed to camelCase on the type side. */
export const LegacySimilarProductsQuery = Schema.Struct({
  ...legacyQuery,
  count: optionalField(LegacyCount).pipe(Schema.fromKey("similar-products-count")),
  category: optionalField(LegacyCategories).pipe(Schema.fromKey("category[]"))
})
export type LegacySimilarProductsQuery = typeof LegacySimilarProductsQuery.Type

/** Query of GET /product/{id}/cross-selling-products. */
export const LegacyCrossSellingQuery = Schema.Struct({
  ...legacyQuery,
  count: optionalField(LegacyCount).pipe(Schema.fromKey("cross-selling-products-count"))
})
export type LegacyCrossSellingQuery = typeof LegacyCrossSellingQuery.Type

export type QueryParams = Readonly<Record<string, string | ReadonlyArray<string>>>

// Unknown parameters are ignored: old clients add cache busters and tracking parameters.
export const parseLegacySimilarProductsQuery = (params: QueryParams) =>
  Schema.decodeUnknownEither(LegacySimilarProductsQuery, { errors: "all" })(params)

export const parseLegacyCrossSellingQuery = (params: QueryParams) =>
  Schema.decodeUnknownEither(LegacyCrossSellingQuery, { errors: "all" })(params)

export const LegacyRecommendations = Schema.Struct({
  bestFits: Schema.Array(Schema.String),
  extended: Schema.Array(ResultEntity)
}).annotations({ identifier: "LegacyRecommendations" })
export type LegacyRecommendations = typeof LegacyRecommendations.Type
