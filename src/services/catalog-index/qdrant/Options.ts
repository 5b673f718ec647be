import { defaultOptions, type FieldWeights, type SignalWeights, type VectorName } from "../embedded/Options.js"

export interface QdrantIndexOptions {
  readonly url: string
  readonly apiKey?: string | undefined
  /** One collection holds every site (default "catalog"). */
  readonly collection?: string | undefined
  /** Dense sizes, fixed when the collection is created (default 512 text, 1792 image). */
  readonly textDimension?: number | undefined
  readonly imageDimension?: number | undefined
  /** Ranking knobs, defaulting to the embedded index's so both backends rank alike. */
  readonly fieldWeights?: Partial<FieldWeights> | undefined
  readonly weights?: Partial<SignalWeights> | undefined
  readonly minSimilarity?: Partial<Record<VectorName, number>> | undefined
  readonly denseCandidates?: number | undefined
  readonly fuzzyWeight?: number | undefined
  readonly prefixWeight?: number | undefined
  /**
   * Most ids `matchIds` gathers (per word for text; the first by product id for a browse, also
   * what a browse with boosts or `near` ranks): Qdrant has no "all matches" query. Totals are
   * exact counts regardless. Default 10,000.
   */
  readonly matchCap?: number | undefined
  /** Per-request timeout in milliseconds (default 10,000). */
  readonly timeoutMs?: number | undefined
}

export interface ResolvedOptions {
  readonly collection: string
  readonly textDimension: number
  readonly imageDimension: number
  readonly fieldWeights: FieldWeights
  readonly weights: SignalWeights
  readonly minSimilarity: Record<VectorName, number>
  readonly denseCandidates: number
  readonly fuzzyWeight: number
  readonly prefixWeight: number
  readonly matchCap: number
}

export const resolveOptions = (options: QdrantIndexOptions): ResolvedOptions => ({
  collection: options.collection ?? "catalog",
  textDimension: options.textDimension ?? 512,
  imageDimension: options.imageDimension ?? 1792,
  fieldWeights: { ...defaultOptions.fieldWeights, ...options.fieldWeights },
  weights: { ...defaultOptions.weights, ...options.weights },
  minSimilarity: { ...defaultOptions.minSimilarity, ...options.minSimilarity },
  denseCandidates: options.denseCandidates ?? defaultOptions.denseCandidates,
  fuzzyWeight: options.fuzzyWeight ?? defaultOptions.fuzzyWeight,
  prefixWeight: options.prefixWeight ?? defaultOptions.prefixWeight,
  matchCap: options.matchCap ?? 10_000
})
