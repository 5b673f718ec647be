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

/**
 * A shop's apparel, priced as shops are: 40 T-shirts at 15–90 (item groups of two, adjacent
 * prices), 5 coats at 250–400, and two garden products outside the apparel. Equal price steps
 * over 15–400 would put 40 of the 45 in one bucket.
 */
export const skewedApparel: ReadonlyArray<IndexDocument> = [
  ...Array.from({ length: 40 }, (_, i) =>
    titled(`tee-${String(i).padStart(2, "0")}`, "cotton tee", {
      text: { category: "apparel" },
      payload: { price: 15 + Math.round((75 * i) / 39), category: ["Apparel"], item_group_id: `tee-${i >> 1}` }
    })
  ),
  ...[250, 288, 325, 363, 400].map((price, i) =>
    titled(`coat-${i}`, "wool coat", { text: { category: "apparel" }, payload: { price, category: ["Apparel"] } })
  ),
  titled("hose", "garden hose", { payload: { price: 5, category: ["Garden"] } }),
  titled("shed", "garden shed", { payload: { price: 1200, category: ["Garden"] } })
]

/** The price intervals of the 45 apparel products: a fair share each, the coats their own. */
export const skewedApparelPrices = { min: 15, max: 400, edges: [15, 30, 50, 75, 100, 500], counts: [8, 10, 13, 9, 5] }
