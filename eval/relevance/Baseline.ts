import MiniSearch from "minisearch"
import type { EvalProduct, EvalQuery } from "./Dataset.js"

/** The same HTML stripping the indexer applies, so both systems see the same words. */
export const stripHtml = (s: string) =>
  s
    .replace(/<[^>]*>/g, " ")
    .replace(/&[a-z#0-9]+;/gi, " ")
    .replace(/\s+/g, " ")
    .trim()

/**
 * The peer the data README names: MiniSearch BM25 over title and description with
 * `searchOptions: { boost: { title: 2 } }` and its default tokenizer (lower-casing, BM25+ with
 * k 1.2 / b 0.7 / d 0.5, OR combination, no fuzzy, no prefix, no stemming).
 */
export const baselineRankings = (
  products: ReadonlyArray<EvalProduct>,
  queries: ReadonlyArray<EvalQuery>,
  hasDescription: boolean,
  limit: number
) => {
  const started = performance.now()
  const index = new MiniSearch<{ id: string; title: string; description: string }>({
    fields: hasDescription ? ["title", "description"] : ["title"],
    searchOptions: { boost: { title: 2 } }
  })
  index.addAll(products.map((p) => ({ id: p.id, title: p.title, description: stripHtml(p.description ?? "") })))
  const indexMs = performance.now() - started
  const rankings = new Map<string, ReadonlyArray<string>>()
  const totals = new Map<string, number>()
  const searchStarted = performance.now()
  for (const q of queries) {
    const results = index.search(q.text)
    rankings.set(
      q.id,
      results.slice(0, limit).map((r) => String(r.id))
    )
    totals.set(q.id, results.length)
  }
  const searchMs = performance.now() - searchStarted
  /** How many products a free-text query matches (OR of its words, as MiniSearch combines them). */
  const matches = (text: string) => index.search(text).length
  return { rankings, totals, indexMs, searchMs, matches }
}
