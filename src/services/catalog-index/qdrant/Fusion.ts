import type { SearchHit } from "../CatalogIndex.js"
import { phraseFactor, requiredWords } from "../../../text/TextAnalysis.js"
import type { Condition } from "../../../model/Filter.js"
import type { PayloadValue } from "../../../model/IndexDocument.js"
import type { SignalWeights } from "../embedded/EmbeddedIndexOptions.js"
import { conditionHolds } from "../ColumnValues.js"
import { byCodeUnits } from "../ColumnValues.js"

/**
 * The embedded index's score, computed client-side over the candidates Qdrant returned. A
 * server-side fusion cannot give it: RRF and DBSF rank by positions or by per-list statistics,
 * and a formula query cannot divide by the query's best BM25 score; nor does Qdrant return
 * each signal's part, which SearchHit carries.
 */

/** One query word's scores: exact matches, and variant-only matches with their raw scores. */
export interface WordScores {
  readonly exact: ReadonlyMap<string, number>
  readonly variants: ReadonlyMap<string, number>
  /** Matches only through a typo of a word the site knows: they count unless `refused` (see lexicalScores). */
  readonly gated?: ReadonlyMap<string, number> | undefined
  /** The typed word it is a form of (see QueryWord): forms of one hyphenated word count once. */
  readonly group: number
  /** How many typed words from `group` on it stands for (2 for a joined word). */
  readonly span: number
}

/** The documents whose title holds each of the query's neighbouring word pairs (see `queryPairs`). */
export interface PhraseHolders {
  readonly pairs: ReadonlyArray<ReadonlySet<string>>
  readonly weight: number
}

/**
 * A document's lexical score: the sum of its words' scores times the share of query words it
 * matches, times its phrase factor; only documents matching enough of the words (`requiredWords`,
 * as in the embedded index) have one. Variant-only scores are scaled so the best is worth at most `fuzzyWeight`
 * of the weakest exact match of the same word: exact matches always outrank typos and prefixes.
 * A document `refused` (the text model disagrees: the embedded index's variant gate) keeps what
 * it has without its gated words, if that is still enough of the words. Documents holding too
 * few of the words, the head word among them, go to `partial.into` with the score they would
 * have (the embedded index's partial matches, which the text model may admit).
 */
export const lexicalScores = (
  words: ReadonlyArray<WordScores>,
  fuzzyWeight: number,
  phrases?: PhraseHolders,
  refused: (id: string) => boolean = () => false,
  partial?: { readonly into: Map<string, number>; readonly head: number | null }
): Map<string, number> => {
  const totals = new Map<string, number>()
  const gatedParts = new Map<string, number>()
  for (const { exact, variants, gated = new Map() } of words) {
    const variantOnly = [...variants].filter(([id]) => !exact.has(id))
    const gatedOnly = [...gated].filter(([id]) => !exact.has(id) && !variants.has(id))
    let factor = 1
    if (exact.size > 0 && variantOnly.length + gatedOnly.length > 0) {
      const ceiling = fuzzyWeight * Math.min(...exact.values())
      factor = Math.min(1, ceiling / Math.max(...[...variantOnly, ...gatedOnly].map(([, score]) => score)))
    }
    for (const [id, score] of exact) totals.set(id, (totals.get(id) ?? 0) + score)
    for (const [id, score] of variantOnly) totals.set(id, (totals.get(id) ?? 0) + score * factor)
    for (const [id, score] of gatedOnly) {
      totals.set(id, (totals.get(id) ?? 0) + score * factor)
      gatedParts.set(id, (gatedParts.get(id) ?? 0) + score * factor)
    }
  }
  const { typed, held, ungated, required } = wordCoverage(words)
  for (const [id, total] of totals) {
    const gatedPart = gatedParts.get(id)
    const turnedDown = gatedPart !== undefined && refused(id)
    const count = turnedDown ? (ungated.get(id) ?? 0) : held.get(id)!
    if (count >= required && (!turnedDown || total > gatedPart)) {
      totals.set(id, ((turnedDown ? total - gatedPart : total) * count) / typed)
    } else {
      if (partial !== undefined && held.get(id)! < required && holdsGroup(words, id, partial.head))
        partial.into.set(id, (total * held.get(id)!) / typed)
      totals.delete(id)
    }
  }
  if (phrases !== undefined && phrases.pairs.length > 0) {
    for (const [id, total] of totals) {
      let held = 0
      for (const holders of phrases.pairs) if (holders.has(id)) held++
      if (held > 0) totals.set(id, total * phraseFactor(held, phrases.pairs.length, phrases.weight))
    }
  }
  return totals
}

/** Whether a document is listed for the typed word `group` (any, when null). */
const holdsGroup = (words: ReadonlyArray<WordScores>, id: string, group: number | null): boolean =>
  group === null ||
  words.some(
    (word) =>
      word.group <= group &&
      group < word.group + word.span &&
      (word.exact.has(id) || word.variants.has(id) || (word.gated?.has(id) ?? false))
  )

/**
 * How many typed words (groups) each listed document holds, with and without its gated
 * matches, and how many a match needs (`requiredWords`, as in the embedded index, from the
 * count with them).
 */
export const wordCoverage = (words: ReadonlyArray<WordScores>) => {
  const typed = words.length === 0 ? 0 : Math.max(...words.map((word) => word.group + word.span))
  const groups = new Map<string, Set<number>>()
  const ungatedGroups = new Map<string, Set<number>>()
  const cover = (into: Map<string, Set<number>>, id: string, group: number, span: number) => {
    let of = into.get(id)
    if (of === undefined) into.set(id, (of = new Set()))
    for (let covered = group; covered < group + span; covered++) of.add(covered)
  }
  for (const { exact, variants, gated = new Map(), group, span } of words) {
    for (const id of [...exact.keys(), ...variants.keys()]) {
      cover(groups, id, group, span)
      cover(ungatedGroups, id, group, span)
    }
    for (const id of gated.keys()) cover(groups, id, group, span)
  }
  const held = new Map<string, number>()
  const ungated = new Map<string, number>()
  let most = 0
  for (const [id, of] of groups) {
    held.set(id, of.size)
    ungated.set(id, ungatedGroups.get(id)?.size ?? 0)
    most = Math.max(most, of.size)
  }
  return { typed, held, ungated, required: requiredWords(typed, most) }
}

export interface Candidate {
  readonly productId: string
  readonly columns: Readonly<Record<string, PayloadValue>>
  /** Raw lexical score (0 when none), cosines (absent: no such query vector). */
  readonly lexical: number
  readonly text?: number | undefined
  readonly image?: number | undefined
}

export interface Ranking {
  readonly weights: SignalWeights
  readonly boosts: ReadonlyArray<{ readonly condition: Condition; readonly weight: number }>
  readonly near?: { readonly column: string; readonly value: number; readonly weight: number } | undefined
  /** Per-product numbers (SearchQuery.signalBoosts), weighted. */
  readonly signalBoosts: ReadonlyArray<{ readonly values: ReadonlyMap<string, number>; readonly weight: number }>
}

/**
 * Whether a ranking reads a point's columns or product id (boosts, `near`, per-product numbers):
 * any point may be lifted.
 */
export const byColumns = (ranking: Ranking): boolean =>
  ranking.boosts.length > 0 || ranking.near !== undefined || ranking.signalBoosts.length > 0

/** The embedded `near` bonus: full weight at the value, none from a relative distance of 1. */
export const nearBonus = (near: NonNullable<Ranking["near"]>, value: PayloadValue | undefined): number =>
  typeof value === "number"
    ? near.weight * (1 - Math.min(1, Math.abs(value - near.value) / (Math.abs(near.value) || 1)))
    : 0

/** A candidate's score without its boosts and `near` bonus (which need its columns). */
export const signalScore = (
  candidate: Omit<Candidate, "productId" | "columns">,
  weights: SignalWeights,
  best: number
): number =>
  weights.lexical * (best === 0 ? 0 : candidate.lexical / best) +
  weights.text * Math.max(0, candidate.text ?? 0) +
  weights.image * Math.max(0, candidate.image ?? 0)

/** The best raw lexical score among candidates: lexical scores are divided by it. */
export const bestLexical = (candidates: ReadonlyArray<Pick<Candidate, "lexical">>): number =>
  candidates.reduce((max, candidate) => Math.max(max, candidate.lexical), 0)

/**
 * score = wL·(lexical / best lexical) + wT·text cosine + wI·image cosine + boosts + near,
 * negative cosines counting as 0; the best `limit` by score, then product id. `best` is the
 * best lexical score of every candidate when only some are passed (see Query.ts).
 */
export const fuse = (
  candidates: ReadonlyArray<Candidate>,
  ranking: Ranking,
  limit: number,
  best = bestLexical(candidates)
): Array<SearchHit> => {
  const { weights, boosts, near, signalBoosts } = ranking
  const hits = candidates.map((candidate): SearchHit => {
    const lexical = best === 0 ? 0 : candidate.lexical / best
    const text = Math.max(0, candidate.text ?? 0)
    const image = Math.max(0, candidate.image ?? 0)
    let score = signalScore(candidate, weights, best)
    for (const boost of boosts)
      if (conditionHolds(boost.condition, candidate.columns[boost.condition.column])) score += boost.weight
    if (near !== undefined) score += nearBonus(near, candidate.columns[near.column])
    for (const { values, weight } of signalBoosts) score += weight * (values.get(candidate.productId) ?? 0)
    return { productId: candidate.productId, score, lexical, text, image, weights, columns: candidate.columns }
  })
  hits.sort((a, b) => b.score - a.score || byCodeUnits(a.productId, b.productId))
  return hits.slice(0, Math.max(0, limit))
}
