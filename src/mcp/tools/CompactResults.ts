import { Schema } from "effect"
import { FilterValue, type Interactions } from "../../domain/Interactions.js"
import { nullable, optionalField } from "../../domain/Product.js"
import type { CrossSellingResponse, SimilarProductsResponse } from "../../domain/Recommendations.js"
import type { ResultEntity } from "../../domain/ResultEntity.js"
import type { SearchResponse } from "../../domain/Search.js"

/**
 * The compact form of search and recommendation results, for agents: every token of a tool
 * result lands in the model's context, and a full result entity (energy labels, base prices,
 * five custom labels, every image) is mostly nulls an agent never reads. A compact product
 * keeps what an answer to a shopper needs; get_item reads the full record of one.
 */
export const Detail = Schema.Literal("full", "compact").annotations({
  description:
    '"compact": each product as {productId, title, brand, price, url, image, category, groupId} and the ' +
    "top facet values, " +
    'about a tenth of the size; "full" (default): the REST response'
})

export const CompactProduct = Schema.Struct({
  productId: optionalField(Schema.String),
  title: optionalField(Schema.String),
  brand: nullable(Schema.String),
  price: optionalField(Schema.Struct({ actual: nullable(Schema.Number), sale: nullable(Schema.Number) })),
  url: nullable(Schema.String),
  image: optionalField(Schema.String),
  /** The product_type paths as text ("Tools > Drills"), not encoded. */
  category: optionalField(Schema.String),
  groupId: nullable(Schema.String)
}).annotations({ identifier: "CompactProduct" })

/** Facet values an agent can pass back as filters: the wire value, its label, how many products have it. */
const CompactFacet = Schema.Struct({
  column: Schema.String,
  label: Schema.String,
  values: Schema.Array(Schema.Struct({ value: FilterValue.fields.value, label: Schema.String, count: Schema.Number })),
  /** Values left out beyond the first FACET_VALUES. */
  more: optionalField(Schema.Number)
})

export const CompactSearchResponse = Schema.Struct({
  requestId: optionalField(Schema.String),
  total: optionalField(Schema.Number),
  products: Schema.Array(CompactProduct),
  facets: optionalField(Schema.Array(CompactFacet)),
  redirect: optionalField(Schema.String),
  /** The query rules that fired and their data (a banner the agent may pass on). */
  appliedRules: optionalField(Schema.Array(Schema.String)),
  userData: optionalField(Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
}).annotations({ identifier: "CompactSearchResponse" })

export const CompactRecommendations = Schema.Struct({
  requestId: optionalField(Schema.String),
  sourceProduct: CompactProduct,
  products: Schema.Array(CompactProduct)
}).annotations({ identifier: "CompactRecommendations" })

/** Facet values kept per column: the most frequent, as the search ordered them. */
const FACET_VALUES = 10

export const compactProduct = (entity: ResultEntity): typeof CompactProduct.Type => ({
  productId: entity.productId,
  title: entity.title,
  brand: entity.brand,
  price: entity.price,
  url: entity.deeplink,
  image: entity.image === undefined ? undefined : (entity.image.thumbnail ?? entity.image.original),
  category: entity.productType === null || entity.productType === "" ? undefined : entity.productType,
  groupId: entity.groupId
})

const compactFacets = (interactions: Interactions | undefined) =>
  interactions?.dynamicFilters.map((facet) => ({
    column: facet.column,
    label: facet.label,
    values: facet.values.slice(0, FACET_VALUES).map((v) => ({ value: v.value, label: v.label, count: v.count })),
    more: facet.values.length > FACET_VALUES ? facet.values.length - FACET_VALUES : undefined
  }))

export const compactSearch = (response: SearchResponse): typeof CompactSearchResponse.Type => {
  const interactions = response.data.interactions ?? response.interactions
  return {
    requestId: response.requestId,
    total: response.data.total,
    products: response.data.products.map(compactProduct),
    facets: compactFacets(interactions),
    redirect: interactions?.redirect?.url,
    appliedRules: response.data.appliedRules,
    userData: response.data.userData
  }
}

export const compactRecommendations = (
  response: SimilarProductsResponse | CrossSellingResponse
): typeof CompactRecommendations.Type => ({
  requestId: response.requestId,
  sourceProduct: compactProduct(response.data.sourceProduct),
  products: response.data.products.map(compactProduct)
})
