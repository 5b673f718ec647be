import { Context, Effect, Layer, Option } from "effect"
import { VisualSpaceStore, type VisualSpaceStoreError } from "./VisualSpaceStore.js"
import { SIGNATURE_BINS, signatureVector } from "./ColorSignature.js"
import { project, type VisualSpace } from "./VisualSpace.js"

/**
 * How a photo's raw feature vector (and its colour signature, when it has one) goes into the
 * index, and how a query's is matched against it.
 */
export type ImageProjection = (vector: Float32Array, colorSignature?: Uint8Array) => Float32Array

/** A site without a learned space indexes and searches the backbone's features as they are. */
export const RAW_FEATURES: ImageProjection = (vector) => vector

/**
 * How much the colours count beside the learned features: the cosine of two photos' vectors is
 * (learned cosine + COLOR_WEIGHT × colour similarity) / (1 + COLOR_WEIGHT). Chosen on the
 * grocery evaluation's val photos, across catalogs with one to eleven photos a product.
 */
export const COLOR_WEIGHT = 1

/**
 * A photo in the learned space: its projected features (unit length) and, after them, its colour
 * signature's vector scaled by √COLOR_WEIGHT, all scaled to unit length, then zero-padded to the
 * raw vector's length: the index keeps one layout for image vectors (the embedded index, its
 * replicas and the Qdrant collection), and one cosine weighs both parts. A photo without a
 * signature (analysed before they were kept) has the learned part alone.
 */
export const learnedProjection =
  (space: VisualSpace): ImageProjection =>
  (vector, colorSignature) => {
    if (vector.length !== space.inputDims || space.outputDims + SIGNATURE_BINS > vector.length) return vector
    const out = new Float32Array(vector.length)
    out.set(project(space, vector))
    if (colorSignature === undefined || colorSignature.length !== SIGNATURE_BINS) return out
    const colors = signatureVector(colorSignature)
    const scale = 1 / Math.sqrt(1 + COLOR_WEIGHT)
    for (let i = 0; i < space.outputDims; i++) out[i] *= scale
    const colorScale = Math.sqrt(COLOR_WEIGHT) * scale
    for (let i = 0; i < SIGNATURE_BINS; i++) out[space.outputDims + i] = colors[i] * colorScale
    return out
  }

/** How often a process asks the store whether a site's space changed (another process may fit it). */
const CHECK_MS = 2_000

/**
 * The learned visual spaces this process indexes and searches with, per site: read from the
 * VisualSpaceStore and kept while its version is unchanged (checked at most every two seconds).
 * Every image vector that goes into the index and every visual query goes through the
 * projection of its site, so both sides are in the same space.
 */
export class SiteVisualSpaces extends Context.Tag("SiteVisualSpaces")<
  SiteVisualSpaces,
  {
    /** The projections of these sites now (raw features for a site with no space). */
    readonly projections: (
      siteIds: Iterable<number>
    ) => Effect.Effect<(siteId: number) => ImageProjection, VisualSpaceStoreError>
    /**
     * Runs `write` (index writes) with the sites' projections as the store has them now, and again
     * if a site's space changed while it ran: a fit elsewhere (another process, or another lane of
     * this one) may have stored a new space and re-indexed past the products `write` then wrote in
     * the old one. So a writer never leaves a product in a space its site no longer has.
     */
    readonly writing: <A, E, R>(
      siteIds: ReadonlyArray<number>,
      write: (spaceOf: (siteId: number) => ImageProjection) => Effect.Effect<A, E, R>
    ) => Effect.Effect<A, E | VisualSpaceStoreError, R>
    /** The site's space changed (this process fitted it): the next call reads the store. */
    readonly invalidate: (siteId: number) => Effect.Effect<void>
  }
>() {}

/** How many times a write runs again when the space keeps changing under it (fits are minutes apart). */
const WRITE_ATTEMPTS = 3

interface Cached {
  readonly version: number
  readonly projection: ImageProjection
  checkedAt: number
}

export const SiteVisualSpacesLive = Layer.effect(
  SiteVisualSpaces,
  Effect.gen(function* () {
    const store = yield* VisualSpaceStore
    const cache = new Map<number, Cached>()

    const current = (siteId: number, fresh = false) =>
      Effect.gen(function* () {
        const now = Date.now()
        const cached = cache.get(siteId)
        if (!fresh && cached !== undefined && now - cached.checkedAt < CHECK_MS) return cached.projection
        const version = yield* store.version(siteId)
        if (cached !== undefined && cached.version === version) {
          cached.checkedAt = now
          return cached.projection
        }
        const stored = version === 0 ? undefined : Option.getOrUndefined(yield* store.get(siteId))
        const loaded: Cached = {
          version: stored?.version ?? 0,
          projection:
            stored === undefined || stored.space.outputDims === 0 ? RAW_FEATURES : learnedProjection(stored.space),
          checkedAt: now
        }
        cache.set(siteId, loaded)
        return loaded.projection
      })

    const projections = (siteIds: Iterable<number>, fresh = false) =>
      Effect.gen(function* () {
        const found = new Map<number, ImageProjection>()
        for (const siteId of new Set(siteIds)) found.set(siteId, yield* current(siteId, fresh))
        return (siteId: number) => found.get(siteId) ?? RAW_FEATURES
      })
    const versions = (siteIds: ReadonlyArray<number>) => Effect.forEach(siteIds, (siteId) => store.version(siteId))

    return {
      projections: (siteIds) => projections(siteIds),
      writing: (siteIds, write) =>
        Effect.gen(function* () {
          const sites = [...new Set(siteIds)]
          for (let attempt = 1; ; attempt++) {
            const before = yield* versions(sites)
            const result = yield* write(yield* projections(sites, true))
            const after = yield* versions(sites)
            if (attempt >= WRITE_ATTEMPTS || after.every((v, i) => v === before[i])) return result
          }
        }),
      invalidate: (siteId) => Effect.sync(() => void cache.delete(siteId))
    }
  })
)
