import { Effect } from "effect"
import { CatalogIndex, type SearchQuery } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter, type Filter } from "../../../src/model/Filter.js"
import type { IndexDocument, PayloadValue } from "../../../src/model/IndexDocument.js"

const noText: IndexDocument["text"] = {
  title: "",
  brand: "",
  productType: "",
  category: "",
  description: "",
  highlights: "",
  details: "",
  extra: ""
}

export interface DocSpec {
  readonly site?: number
  readonly text?: Partial<IndexDocument["text"]>
  readonly payload?: Record<string, PayloadValue>
  readonly vector?: ReadonlyArray<number>
  readonly images?: ReadonlyArray<ReadonlyArray<number>>
}

/** A small hand-made document: site 1 unless told, 4-d vectors. */
export const doc = (productId: string, spec: DocSpec = {}): IndexDocument => ({
  siteId: spec.site ?? 1,
  productId,
  text: { ...noText, ...spec.text },
  payload: spec.payload ?? {},
  vectors: {
    text: spec.vector ? Float32Array.from(spec.vector) : undefined,
    image: spec.images?.map((image) => Float32Array.from(image))
  }
})

export const titled = (productId: string, title: string, spec: DocSpec = {}) =>
  doc(productId, { ...spec, text: { title, ...spec.text } })

export const vec = (...values: ReadonlyArray<number>) => Float32Array.from(values)

export const must = (...conditions: Filter["must"]): Filter => ({ must: conditions, mustNot: [] })

export const upsert = (...docs: ReadonlyArray<IndexDocument>) =>
  Effect.flatMap(CatalogIndex, (index) => index.upsert(docs))

/** Ids of the hits of a site-1 query, best first. */
export const searchIds = (query: Partial<SearchQuery>) =>
  Effect.flatMap(CatalogIndex, (index) => index.search({ siteId: 1, filter: emptyFilter, limit: 24, ...query })).pipe(
    Effect.map((result) => result.hits.map((hit) => hit.productId))
  )

/** Ids matching a site-1 filter (browse: no words, no vectors), sorted. */
export const filteredIds = (filter: Filter) =>
  Effect.flatMap(CatalogIndex, (index) => index.matchIds({ siteId: 1, filter })).pipe(
    Effect.map((ids) => [...ids].sort())
  )
