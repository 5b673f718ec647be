import type { Explanation, ResultEntity } from "../domain/ResultEntity.js"
import type { SearchHit, SearchQuery } from "../services/catalog-index/CatalogIndex.js"
import type { QuerySynonyms } from "../text/TextAnalysis.js"
import { typedWordKeys } from "./Synonyms.js"

/**
 * Why each listed product is where it is (text search with `explain`): the score the index
 * gave it split into the parts it adds up from, or the promotion that placed it. The index
 * reports its fusion weights with each hit; popularity is the ranking's own signal boost; what
 * remains of the score is boosts (campaign and rule boosts, and the duplicate-title spread).
 */
export const explainListing = (
  products: ReadonlyArray<ResultEntity>,
  hits: ReadonlyArray<SearchHit>,
  query: Pick<SearchQuery, "signals" | "signalBoosts">,
  promoted: ReadonlyArray<{ readonly productId: string; readonly by: string }>,
  offset: number
): Array<ResultEntity> => {
  const byId = new Map(hits.map((hit) => [hit.productId, hit]))
  const promoters = new Map(promoted.map((p) => [p.productId, p.by]))
  return products.map((product, i) => {
    const id = product.productId ?? ""
    const hit = byId.get(id)
    const popularity = (query.signalBoosts ?? []).reduce(
      (sum, { signal, weight }) => sum + weight * (query.signals?.get(signal)?.get(id) ?? 0),
      0
    )
    const score = hit?.score ?? 0
    const lexical = hit?.weights === undefined ? 0 : hit.weights.lexical * hit.lexical
    const semantic = hit?.weights === undefined ? 0 : hit.weights.text * hit.text + hit.weights.image * hit.image
    const by = promoters.get(id)
    const explanation: Explanation = {
      score: round(score),
      lexical: round(lexical),
      semantic: round(semantic),
      popularity: round(popularity),
      boosts: round(hit === undefined ? 0 : score - lexical - semantic - popularity),
      ...(by === undefined ? {} : { promoted: { by, position: offset + i } })
    }
    return { ...product, explanation }
  })
}

const round = (n: number) => Math.round(n * 10_000) / 10_000

/** The synonyms a query's words were matched with, as the shopper typed them. */
export const appliedSynonyms = (
  text: string,
  synonyms: QuerySynonyms | undefined
): Array<{ readonly words: string; readonly alternatives: ReadonlyArray<string> }> => {
  if (synonyms === undefined) return []
  const typed = text.trim().split(/\s+/)
  const words = typedWordKeys(text)
  const single = words.flatMap((word, group) => {
    const alternatives = synonyms.terms.get(word.stem)?.map((a) => a.term) ?? []
    return alternatives.length === 0 ? [] : [{ words: typed[group] ?? word.stem, alternatives }]
  })
  const phrases = synonyms.phrases.map((p) => ({
    words: typed.slice(p.group, p.group + p.span).join(" "),
    alternatives: [p.term]
  }))
  return [...single, ...phrases]
}
