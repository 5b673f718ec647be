import { Config } from "effect"
import { TEXT_MODEL } from "../../text-embedder/TextModel.js"
import {
  defaultOptions,
  type FieldWeights,
  type SignalWeights,
  type VectorName
} from "../embedded/EmbeddedIndexOptions.js"

export interface QdrantIndexOptions {
  readonly url: string
  readonly apiKey?: string | undefined
  /** One collection holds every site (default "catalog"). */
  readonly collection?: string | undefined
  /** Dense sizes, fixed when the collection is created (default: the text model's 384, 1792 image). */
  readonly textDimension?: number | undefined
  readonly imageDimension?: number | undefined
  /**
   * How image vectors are stored (fixed at creation): "float16" halves their memory, the bulk
   * of the collection (3 images of 1792 dimensions: 21 KB a product as float32), for cosines
   * that move slightly; "float32" keeps them exact. Unset, a new collection gets float16 and an
   * existing one keeps its own (collections made before this setting are float32); set, an
   * existing collection must have it.
   */
  readonly imageDatatype?: "float32" | "float16" | undefined
  /**
   * Image vectors memory-mapped from disk (default true): a catalog's images outgrow RAM long
   * before its text does, and the page cache keeps the ones searched. Changeable on restart.
   * Qdrant pairs this with an int8 copy in RAM, which is left out: unless a query asks for
   * rescoring, searches then return the copy's coarser scores, and recall suffers.
   */
  readonly imageOnDisk?: boolean | undefined
  /**
   * Largest upsert request body in bytes (default 8 MiB): Qdrant refuses bodies over its
   * service.max_request_size_mb (32 MiB by default), so upserts are chunked by encoded size.
   */
  readonly maxRequestBytes?: number | undefined
  /** Ranking knobs, defaulting to the embedded index's so both backends rank alike. */
  readonly fieldWeights?: Partial<FieldWeights> | undefined
  readonly weights?: Partial<SignalWeights> | undefined
  readonly minSimilarity?: Partial<Record<VectorName, number>> | undefined
  readonly denseCandidates?: number | undefined
  readonly fuzzyWeight?: number | undefined
  readonly prefixWeight?: number | undefined
  readonly phraseWeight?: number | undefined
  readonly variantGate?: number | undefined
  readonly partialGate?: number | undefined
  readonly partialCandidates?: number | undefined
  /**
   * Most ids `matchIds` gathers (per word for text; the first by product id for a browse, also
   * what a browse with boosts or `near` ranks): Qdrant has no "all matches" query. Totals are
   * exact counts regardless. Default 10,000. Also bounds the members whose values a numeric
   * facet reads (at most 1,000, one page; a larger set is counted per candidate edge instead).
   */
  readonly matchCap?: number | undefined
  /**
   * Request timeouts in milliseconds: searches, counts and reads (default 5,000: a user is
   * waiting, and a slower answer is better replaced by a retry), and upserts, deletes and the
   * collection's setup (default 120,000: building a payload index over a large collection
   * waits for the whole build). A timed-out request is retried like a refused one.
   */
  readonly queryTimeoutMs?: number | undefined
  readonly writeTimeoutMs?: number | undefined
  /**
   * How a new collection spreads over a Qdrant cluster (fixed when it is created; a single
   * node ignores them): shards (default 1; 6–12 for a cluster of 3–6 nodes, so nodes can be
   * added and shards moved), copies of each shard on different nodes (default 1; 2 keeps every
   * shard answering while one node is down), and how many copies acknowledge a write before it
   * counts (default 1: writes go on while a copy is down; the copy catches up when it returns).
   */
  readonly shards?: number | undefined
  readonly replicationFactor?: number | undefined
  readonly writeConsistencyFactor?: number | undefined
}

export interface ResolvedOptions {
  readonly collection: string
  readonly textDimension: number
  readonly imageDimension: number
  /** For a new collection; after setup, the collection's own. */
  readonly imageDatatype: "float32" | "float16"
  /** Whether an existing collection must have `imageDatatype` (it was set explicitly). */
  readonly imageDatatypeRequired: boolean
  readonly imageOnDisk: boolean
  readonly maxRequestBytes: number
  readonly fieldWeights: FieldWeights
  readonly weights: SignalWeights
  readonly minSimilarity: Record<VectorName, number>
  readonly denseCandidates: number
  readonly fuzzyWeight: number
  readonly prefixWeight: number
  readonly phraseWeight: number
  readonly variantGate: number
  readonly partialGate: number
  readonly partialCandidates: number
  readonly matchCap: number
  readonly queryTimeoutMs: number
  readonly writeTimeoutMs: number
  readonly shards: number
  readonly replicationFactor: number
  readonly writeConsistencyFactor: number
}

export const resolveOptions = (options: QdrantIndexOptions): ResolvedOptions => ({
  collection: options.collection ?? "catalog",
  textDimension: options.textDimension ?? TEXT_MODEL.dimensions,
  imageDimension: options.imageDimension ?? 1792,
  imageDatatype: options.imageDatatype ?? "float16",
  imageDatatypeRequired: options.imageDatatype !== undefined,
  imageOnDisk: options.imageOnDisk ?? true,
  maxRequestBytes: options.maxRequestBytes ?? 8 * 1024 * 1024,
  fieldWeights: { ...defaultOptions.fieldWeights, ...options.fieldWeights },
  weights: { ...defaultOptions.weights, ...options.weights },
  minSimilarity: { ...defaultOptions.minSimilarity, ...options.minSimilarity },
  denseCandidates: options.denseCandidates ?? defaultOptions.denseCandidates,
  fuzzyWeight: options.fuzzyWeight ?? defaultOptions.fuzzyWeight,
  prefixWeight: options.prefixWeight ?? defaultOptions.prefixWeight,
  phraseWeight: options.phraseWeight ?? defaultOptions.phraseWeight,
  variantGate: options.variantGate ?? defaultOptions.variantGate,
  partialGate: options.partialGate ?? defaultOptions.partialGate,
  partialCandidates: options.partialCandidates ?? defaultOptions.partialCandidates,
  matchCap: options.matchCap ?? 10_000,
  queryTimeoutMs: options.queryTimeoutMs ?? 5_000,
  writeTimeoutMs: options.writeTimeoutMs ?? 120_000,
  shards: options.shards ?? 1,
  replicationFactor: options.replicationFactor ?? 1,
  writeConsistencyFactor: options.writeConsistencyFactor ?? 1
})

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be a positive whole number`, validation: (n) => n > 0 }),
    Config.withDefault(fallback)
  )

type Tuning = Pick<
  QdrantIndexOptions,
  | "imageDatatype"
  | "imageOnDisk"
  | "maxRequestBytes"
  | "queryTimeoutMs"
  | "writeTimeoutMs"
  | "shards"
  | "replicationFactor"
  | "writeConsistencyFactor"
>

/**
 * The Qdrant index's operational settings (config/settings.env), read once by its layer;
 * options given to the layer in code take precedence. QDRANT_IMAGE_DATATYPE empty: a new
 * collection gets float16, an existing one keeps its own.
 */
export const QdrantTuning: Config.Config<Tuning> = Config.all({
  imageDatatype: Config.literal(
    "float32",
    "float16",
    ""
  )("QDRANT_IMAGE_DATATYPE").pipe(
    Config.withDefault(""),
    Config.map((value) => (value === "" ? undefined : value))
  ),
  imageOnDisk: Config.boolean("QDRANT_IMAGE_ON_DISK").pipe(Config.withDefault(true)),
  maxRequestBytes: positive("QDRANT_MAX_REQUEST_BYTES", 8 * 1024 * 1024),
  queryTimeoutMs: positive("QDRANT_QUERY_TIMEOUT_MS", 5_000),
  writeTimeoutMs: positive("QDRANT_WRITE_TIMEOUT_MS", 120_000),
  shards: positive("QDRANT_SHARDS", 1),
  replicationFactor: positive("QDRANT_REPLICATION_FACTOR", 1),
  writeConsistencyFactor: positive("QDRANT_WRITE_CONSISTENCY_FACTOR", 1)
})

/** The layer's options over the settings: an option left undefined keeps the setting. */
export const withTuning = (tuning: Tuning, options: QdrantIndexOptions): QdrantIndexOptions => {
  const merged: Record<string, unknown> = { ...tuning }
  for (const [key, value] of Object.entries(options)) if (value !== undefined) merged[key] = value
  return merged as unknown as QdrantIndexOptions
}
