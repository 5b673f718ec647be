import { Effect } from "effect"
import type { IndexError } from "../CatalogIndex.js"
import type { Qdrant } from "./Client.js"
import { call } from "./Request.js"
import { toQdrantFilter, andAlso } from "./FilterTranslation.js"
import { emptyFilter } from "../../../model/Filter.js"
import { TERMS_KEY } from "./Layout.js"
import { INDEX_TEXT_FIELDS } from "../../../model/IndexDocument.js"
import { fieldTermKey } from "./SparseText.js"

/**
 * Per-site BM25 statistics. Qdrant's IDF modifier counts document frequencies over the whole
 * collection, so one site's catalog would move another's ranking (and reveal its vocabulary).
 * The site's document count and each term's document frequency per field are exact counts
 * over the `terms` index (the lexical keys of each point) under the site filter instead, and
 * the query carries fieldWeight × IDF per key: the embedded index's per-site, per-field IDF.
 * Counts are index lookups (one small request each, run concurrently), remembered for a
 * short time per site (see StatisticsCache.ts).
 */
const idf = (documents: number, frequency: number): number =>
  Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))

/** Per term: fieldWeight × IDF of each of its field keys that some document of the site holds. */
export type KeyWeights = ReadonlyMap<string, ReadonlyMap<number, number>>

export const keyWeights = (
  q: Qdrant,
  siteId: number,
  terms: ReadonlyArray<string>
): Effect.Effect<KeyWeights, IndexError> => {
  if (terms.length === 0) return Effect.succeed(new Map())
  const site = toQdrantFilter(siteId, emptyFilter)
  const count = (filter: typeof site) =>
    call("count", () => q.client.count(q.collection, { filter, exact: true })).pipe(
      Effect.map((result) => result.count)
    )
  const keys = terms.flatMap((term) =>
    INDEX_TEXT_FIELDS.map((field) => ({ term, field, key: fieldTermKey(field, term) }))
  )
  return q.statistics
    .counts(siteId, [
      { name: "documents", count: count(site) },
      ...keys.map(({ key }) => ({
        name: String(key),
        count: count(andAlso(site, { key: TERMS_KEY, match: { value: key } }))
      }))
    ])
    .pipe(
      Effect.map(([documents, ...frequencies]) => {
        const weights = new Map<string, Map<number, number>>(terms.map((term) => [term, new Map()]))
        keys.forEach(({ term, field, key }, i) => {
          if (frequencies[i] > 0)
            weights.get(term)!.set(key, q.options.fieldWeights[field] * idf(documents, frequencies[i]))
        })
        return weights
      })
    )
}

/** Every field key of `term`, held by the site or not: the condition "holds the term". */
export const termKeys = (term: string): Array<number> => INDEX_TEXT_FIELDS.map((field) => fieldTermKey(field, term))
