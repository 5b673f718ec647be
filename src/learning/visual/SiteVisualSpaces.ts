import { Context, Effect, Layer, Option } from "effect"
import { VisualSpaceStore, type VisualSpaceStoreError } from "../../services/visual-space/VisualSpaceStore.js"
import { project, type VisualSpace } from "./VisualSpace.js"

/** How a raw image feature vector goes into the index (and how a query's is matched against it). */
export type ImageProjection = (vector: Float32Array) => Float32Array

/** A site without a learned space indexes and searches the backbone's features as they are. */
export const RAW_FEATURES: ImageProjection = (vector) => vector

/**
 * A vector in the learned space, zero-padded to the raw vector's length: the index keeps one
 * layout for image vectors (the embedded index, its replicas and the Qdrant collection), and
 * cosine is unchanged by the padding.
 */
export const learnedProjection = (space: VisualSpace): ImageProjection => (vector) => {
  if (vector.length !== space.inputDims) return vector
  const out = new Float32Array(vector.length)
  out.set(project(space, vector))
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
export class SiteVisualSpaces extends Context.Tag("SiteVisualSpaces")<SiteVisualSpaces, {
  /** The projections of these sites now (raw features for a site with no space). */
  readonly projections: (siteIds: Iterable<number>) => Effect.Effect<(siteId: number) => ImageProjection, VisualSpaceStoreError>
  /** The site's space changed (this process fitted it): the next call reads the store. */
  readonly invalidate: (siteId: number) => Effect.Effect<void>
}>() {}

interface Cached {
  readonly version: number
  readonly projection: ImageProjection
  checkedAt: number
}

export const SiteVisualSpacesLive = Layer.effect(
  SiteVisualSpaces,
  Effect.gen(function*() {
    const store = yield* VisualSpaceStore
    const cache = new Map<number, Cached>()

    const current = (siteId: number) =>
      Effect.gen(function*() {
        const now = Date.now()
        const cached = cache.get(siteId)
        if (cached !== undefined && now - cached.checkedAt < CHECK_MS) return cached.projection
        const version = yield* store.version(siteId)
        if (cached !== undefined && cached.version === version) {
          cached.checkedAt = now
          return cached.projection
        }
        const stored = version === 0 ? undefined : Option.getOrUndefined(yield* store.get(siteId))
        const fresh: Cached = {
          version: stored?.version ?? 0,
          projection: stored === undefined || stored.space.outputDims === 0 ? RAW_FEATURES : learnedProjection(stored.space),
          checkedAt: now
        }
        cache.set(siteId, fresh)
        return fresh.projection
      })

    return {
      projections: (siteIds) =>
        Effect.gen(function*() {
          const found = new Map<number, ImageProjection>()
          for (const siteId of new Set(siteIds)) found.set(siteId, yield* current(siteId))
          return (siteId: number) => found.get(siteId) ?? RAW_FEATURES
        }),
      invalidate: (siteId) => Effect.sync(() => void cache.delete(siteId))
    }
  })
)
