import type { IndexDocument } from "../../../model/IndexDocument.js"

/** Lexical weight of each text field of an IndexDocument. */
export type FieldWeights = { readonly [K in keyof IndexDocument["text"]]: number }

export type VectorName = "text" | "image"

/** Weights of the three signals in the fused score. */
export interface SignalWeights {
  readonly lexical: number
  readonly text: number
  readonly image: number
}

export interface EmbeddedIndexOptions {
  readonly fieldWeights: FieldWeights
  /** Default fusion weights; a query's own `weights` override them per signal. */
  readonly weights: SignalWeights
  /** Default `minSimilarity` per vector kind for dense-only matches. */
  readonly minSimilarity: { readonly [K in VectorName]: number }
  /** Dense candidates per query vector: max(denseCandidates, 4 × limit). */
  readonly denseCandidates: number
  /** MiniSearch weights of fuzzy and prefix term variants relative to an exact term. */
  readonly fuzzyWeight: number
  readonly prefixWeight: number
  /** How much a title holding the query's words side by side adds (see `phraseFactor`). */
  readonly phraseWeight: number
  /**
   * The text cosine above which a product matching a known word only through another word one
   * edit away ("philips" for "phillips") still matches: the dense model says it means what the
   * query means. Below it, "speakers" stays out of "sneakers".
   */
  readonly variantGate: number
  /**
   * The text cosine above which a product holding some of the query's words, but fewer than a
   * match needs ("water bottle" of "tupperware water bottle lime"), matches still; the best
   * `partialCandidates` of them by their words' score are asked.
   */
  readonly partialGate: number
  readonly partialCandidates: number
  readonly hnsw: { readonly m: number; readonly efConstruction: number; readonly efSearch: number }
  /**
   * Below this many allowed documents, filtered kNN scans the allowed documents exactly:
   * HNSW with a selective filter walks most of the graph and may return too few results.
   */
  readonly exactScanBelow: number
}

export const defaultOptions: EmbeddedIndexOptions = {
  fieldWeights: {
    title: 3,
    brand: 2,
    productType: 1.5,
    category: 2,
    description: 0.6,
    highlights: 1,
    details: 0.8,
    extra: 1
  },
  weights: { lexical: 1, text: 1, image: 1 },
  // A text neighbour matches on meaning alone only above what made-up words reach: made-up
  // queries of one to three pronounceable words ("ruge hada falaca") come about as close to a
  // catalog title as judged-relevant titles do to their queries: below 0.6 the text model
  // cannot tell a shopper's meaning from noise, so there it only ranks the lexical matches.
  // Image features (MobileNet) are non-negative, so unrelated images are rarely far apart;
  // visual search sets its own threshold.
  minSimilarity: { text: 0.6, image: 0.35 },
  denseCandidates: 200,
  fuzzyWeight: 0.45,
  prefixWeight: 0.3,
  phraseWeight: 0.75,
  variantGate: 0.5,
  partialGate: 0.4,
  partialCandidates: 200,
  // M 12 / efConstruction 64 keeps text-vector inserts cheap on a large catalog (M 16 / 100
  // builds far slower); queries use ef = max(efSearch, candidates) anyway.
  hnsw: { m: 12, efConstruction: 64, efSearch: 64 },
  // Below this, exact text-vector dot products cost less than an HNSW walk under a selective filter.
  exactScanBelow: 15_000
}

/** Partial options, merged one level deep over the defaults. */
export type EmbeddedIndexOverrides = {
  readonly [K in keyof EmbeddedIndexOptions]?: EmbeddedIndexOptions[K] extends number
    ? number
    : Partial<EmbeddedIndexOptions[K]>
}

export const resolveOptions = (overrides: EmbeddedIndexOverrides = {}): EmbeddedIndexOptions => ({
  fieldWeights: { ...defaultOptions.fieldWeights, ...overrides.fieldWeights },
  weights: { ...defaultOptions.weights, ...overrides.weights },
  minSimilarity: { ...defaultOptions.minSimilarity, ...overrides.minSimilarity },
  denseCandidates: overrides.denseCandidates ?? defaultOptions.denseCandidates,
  fuzzyWeight: overrides.fuzzyWeight ?? defaultOptions.fuzzyWeight,
  prefixWeight: overrides.prefixWeight ?? defaultOptions.prefixWeight,
  phraseWeight: overrides.phraseWeight ?? defaultOptions.phraseWeight,
  variantGate: overrides.variantGate ?? defaultOptions.variantGate,
  partialGate: overrides.partialGate ?? defaultOptions.partialGate,
  partialCandidates: overrides.partialCandidates ?? defaultOptions.partialCandidates,
  hnsw: { ...defaultOptions.hnsw, ...overrides.hnsw },
  exactScanBelow: overrides.exactScanBelow ?? defaultOptions.exactScanBelow
})
