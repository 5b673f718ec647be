import { Context, type Effect, type Option, Schema } from "effect"
import type { VisualSpace } from "./VisualSpace.js"
import { BackendFailure } from "../platform/BackendFailure.js"

export class VisualSpaceStoreError extends BackendFailure("VisualSpaceStoreError") {}

/** A site's fitted visual space (visual-space/VisualSpace.ts), as the store keeps it. */
export interface StoredVisualSpace {
  /** Per site, 1 for the first space put, +1 for each later one. */
  readonly version: number
  /** When it was fitted (epoch ms). */
  readonly fittedAt: number
  /** The site's analysed photos when it was fitted (the refit rule compares new photos with it). */
  readonly photos: number
  /** Labelled feature vectors it was fitted on. */
  readonly samples: number
  readonly space: VisualSpace
}

/** Photos analysed since the site's last fit, and the photos that fit counted (0 before the first). */
export interface PhotoCount {
  readonly since: number
  readonly atFit: number
}

/**
 * Per site, the learned visual space in use: one record, replaced whole by each refit. A space
 * is stored as bytes (the mean as Float64, the projection as Float32: up to 256 × 1792 floats,
 * ~1.8 MB), never as JSON numbers.
 */
export interface VisualSpaceStoreService {
  readonly get: (siteId: number) => Effect.Effect<Option.Option<StoredVisualSpace>, VisualSpaceStoreError>
  /** The current version, 0 when none: a cheap read for caches that check whether to reload. */
  readonly version: (siteId: number) => Effect.Effect<number, VisualSpaceStoreError>
  /**
   * Stores a new space for the site, replacing the previous one atomically; returns its version.
   * A space whose arrays do not match its dims is refused (and nothing changes). Takes
   * `counted` off the photos noted since the last fit, in the same step.
   */
  readonly put: (
    siteId: number,
    fit: Omit<StoredVisualSpace, "version">,
    counted: number
  ) => Effect.Effect<number, VisualSpaceStoreError>
  /**
   * Counts photos analysed for the site (a refit is due when enough came since the last fit);
   * returns the count since then, and the photos of the last fit. `put` takes off the `counted`
   * photos its fit read the count as (photos noted while a fit ran count towards the next one).
   */
  readonly notePhotos: (siteId: number, added: number) => Effect.Effect<PhotoCount, VisualSpaceStoreError>
  /**
   * The version of the site's space its index is wholly in (0 before any): a fit stores a space,
   * re-indexes the site, then marks it; a version ahead of this one is a re-indexing cut short
   * (a crash), which the reconcile pass has finished.
   */
  readonly indexedVersion: (siteId: number) => Effect.Effect<number, VisualSpaceStoreError>
  readonly markIndexed: (siteId: number, version: number) => Effect.Effect<void, VisualSpaceStoreError>
}

export class VisualSpaceStore extends Context.Tag("VisualSpaceStore")<VisualSpaceStore, VisualSpaceStoreService>() {}

/*
 * How both backends write a space: its figures as numbers, its arrays as raw bytes (native
 * order, as model/Vector.ts's VectorFromBytes). Encoding and decoding throw when a space is not
 * whole; each backend turns that into a VisualSpaceStoreError like any other failure.
 */

const PositiveInt = Schema.Int.pipe(Schema.positive())

/** A fit's figures, checked on the way in and on the way out. */
const FitFigures = Schema.Struct({
  fittedAt: Schema.Finite,
  photos: Schema.NonNegativeInt,
  samples: Schema.NonNegativeInt,
  inputDims: PositiveInt,
  outputDims: Schema.NonNegativeInt
})
const StoredFigures = Schema.Struct({ version: PositiveInt, ...FitFigures.fields })
export type StoredFigures = typeof StoredFigures.Type

const decodeFitFigures = Schema.decodeUnknownSync(FitFigures)
const decodeStoredFigures = Schema.decodeUnknownSync(StoredFigures)

export interface EncodedFit extends Omit<StoredFigures, "version"> {
  /** inputDims Float64 values. */
  readonly mean: Buffer
  /** outputDims × inputDims Float32 values, row-major. */
  readonly projection: Buffer
}

const bytesOf = (a: Float32Array | Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength)

/** A fit as stored (its arrays' bytes without a copy); throws when its arrays do not match its dims. */
export const encodeFit = (fit: Omit<StoredVisualSpace, "version">): EncodedFit => {
  const { inputDims, mean, outputDims, projection } = fit.space
  const figures = decodeFitFigures({
    fittedAt: fit.fittedAt,
    photos: fit.photos,
    samples: fit.samples,
    inputDims,
    outputDims
  })
  if (!(mean instanceof Float64Array) || mean.length !== inputDims) {
    throw new Error(`the mean has ${mean.length} values, not inputDims = ${inputDims}`)
  }
  if (!(projection instanceof Float32Array) || projection.length !== outputDims * inputDims) {
    throw new Error(`the projection has ${projection.length} values, not ${outputDims} × ${inputDims}`)
  }
  return { ...figures, mean: bytesOf(mean), projection: bytesOf(projection) }
}

/**
 * `count` floats of `width` bytes from `bytes`, copied: a typed array needs an aligned offset,
 * which a slice of a socket buffer may not have.
 */
const floats = <A>(bytes: unknown, width: 4 | 8, count: number, make: (buffer: ArrayBuffer) => A, what: string): A => {
  if (!Buffer.isBuffer(bytes)) throw new Error(`the ${what} is missing or not bytes`)
  if (bytes.byteLength !== count * width)
    throw new Error(`the ${what} has ${bytes.byteLength} bytes, not ${count} × ${width}`)
  const copy = new ArrayBuffer(bytes.byteLength)
  new Uint8Array(copy).set(bytes)
  return make(copy)
}

/** A stored space from its figures and bytes; throws (naming what is wrong) when the record is not whole. */
export const decodeStored = (figures: unknown, mean: unknown, projection: unknown): StoredVisualSpace => {
  const f = decodeStoredFigures(figures)
  return {
    version: f.version,
    fittedAt: f.fittedAt,
    photos: f.photos,
    samples: f.samples,
    space: {
      inputDims: f.inputDims,
      outputDims: f.outputDims,
      mean: floats(mean, 8, f.inputDims, (b) => new Float64Array(b), "mean"),
      projection: floats(projection, 4, f.outputDims * f.inputDims, (b) => new Float32Array(b), "projection")
    }
  }
}
