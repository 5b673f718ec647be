import { Context, Effect } from "effect"
import { ANALYSIS_SIZE, type ImageSamples, type ImageViews } from "../model/ImageAnalysis.js"
import { ImageAnalyzer } from "../services/image-analyzer/ImageAnalyzer.js"
import { ImageIntake } from "../services/image-intake/ImageIntake.js"
import { toRgb } from "../services/image-intake/Rgb.js"
import { viewFeatures } from "./PhotoViews.js"
import { inSlices, yieldToIo } from "../platform/YieldToIo.js"
import { fnv1a } from "../platform/Fnv1a.js"
import type { Job } from "../model/Jobs.js"
import type { ProductKey } from "../model/StoredProduct.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { VisualSpaceStore } from "./VisualSpaceStore.js"
import { queueCatchUp } from "../services/job-queue/CatchUp.js"
import { SiteVisualSpaces } from "./SiteVisualSpaces.js"
import { fitVisualSpace, type LabelledVector } from "./VisualSpace.js"

/**
 * When and on what a site's learned visual space is fitted (the FitVisualSpace job), and how the
 * index follows.
 *
 * When: image passes count the photos they analysed per site (VisualSpaceStore.notePhotos). A fit
 * is due once the site has photos of at least MIN_PRODUCTS products and half as many new photos
 * came since the last fit as it counted (so a growing catalog is refitted a few dozen times on its
 * way to 100,000 products, not at every photo), or, once none of the site's photos waits for
 * analysis, 5 % (a catalog that settled is fitted on all of it).
 *
 * On what: the photos of at most SAMPLE_PRODUCTS products, those whose ids hash lowest (a sample
 * that a growing catalog changes little, the same for the same catalog), at most
 * PHOTOS_PER_PRODUCT each and SAMPLE_PHOTOS in all, every photo with its views (its mirror image
 * and its centre: computed by the first fit that samples the photo, then stored): at most 12,288
 * vectors of 1,792 floats, whatever the catalog's size. Views are computed for sampled
 * photos only, so a 100,000-product catalog pays for at most 4,096 photos' views, not for every
 * photo's at analysis. The fit runs in a thread of its own (VisualSpace.ts).
 *
 * Then: the space is stored with a new version, and every product of the site is indexed again
 * with its image vectors projected into it, from the stored features (no model call: text vectors
 * reused, a product whose text waits for its embedding indexed without, as it was; then the site
 * is marked as wholly in that version: a re-indexing cut short by a crash is finished by the next
 * job, which the reconcile pass queues; a few products at a time, with the event loop served
 * between). Api processes see the new version within two seconds
 * (SiteVisualSpaces) and project queries with it.
 */

/**
 * How a fit's re-indexing reaches the index: products indexed again from their stored data (saved
 * text vectors reused, no model call; a product whose text waits for its embedding indexed
 * without one), each image vector projected into the site's current space. The indexing layer
 * provides it (indexing/ImageReindex.ts); the space's home sits below indexing, which projects
 * every image vector it writes through SiteVisualSpaces, so it names only this contract.
 */
export class StoredReindexing extends Context.Tag("StoredReindexing")<
  StoredReindexing,
  { readonly reindex: (keys: ReadonlyArray<ProductKey>) => Effect.Effect<void, unknown> }
>() {}

/**
 * Fewer products with photos than this: no space, the raw features serve (an LDA of a handful of
 * products has a handful of directions).
 */
export const MIN_PRODUCTS = 48
const REFIT_SHARE = 0.5
const SETTLED_SHARE = 0.05
/** How many products' pending image work is read to tell whether a site's analysis is done. */
const SETTLE_LIMIT = 1_000
export const SAMPLE_PRODUCTS = 1_024
const PHOTOS_PER_PRODUCT = 16
const SAMPLE_PHOTOS = 4_096
const ID_PAGE = 5_000
const SAMPLE_PAGE = 100
/**
 * Products re-indexed at a time, the event loop served between: each one's projection and graph
 * insertion are work that the embedded index does on the api's loop.
 */
const REINDEX_SLICE = 8
/** Photos fetched and embedded at once for their views (the model threads are the bottleneck). */
const VIEW_CONCURRENCY = 4

/**
 * After an image pass saved photos (`photos`: how many of each product's were analysed ok):
 * counts them per site and returns the FitVisualSpace jobs now due.
 */
export const photosAnalysed = (saved: ReadonlyArray<ProductKey & { readonly photos: number }>) =>
  Effect.gen(function* () {
    const spaces = yield* VisualSpaceStore
    const catalog = yield* CatalogStore
    const bySite = new Map<number, number>()
    for (const s of saved) if (s.photos > 0) bySite.set(s.siteId, (bySite.get(s.siteId) ?? 0) + s.photos)
    const due: Array<Job> = []
    let waiting: ReadonlyArray<ProductKey> | undefined
    for (const [siteId, added] of bySite) {
      const { atFit, since } = yield* spaces.notePhotos(siteId, added)
      if (atFit + since < MIN_PRODUCTS) continue
      let now = since >= Math.max(1, REFIT_SHARE * atFit)
      if (!now && since >= SETTLED_SHARE * atFit) {
        // Settled: no product of the site waits for analysis (when the list is complete).
        waiting ??= (yield* catalog.pendingImageWork(SETTLE_LIMIT)).analyze
        now = waiting.length < SETTLE_LIMIT && !waiting.some((k) => k.siteId === siteId)
      }
      if (now) due.push({ _tag: "FitVisualSpace", siteId })
    }
    return due
  })

/** The product ids of the site's sample: the lowest hashes, read in pages, at most twice the sample held. */
const sampleIds = (siteId: number) =>
  Effect.gen(function* () {
    const catalog = yield* CatalogStore
    let chosen: Array<readonly [number, string]> = []
    const keep = () => {
      chosen.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1))
      chosen = chosen.slice(0, SAMPLE_PRODUCTS)
    }
    let after = ""
    for (;;) {
      const ids = yield* catalog.productIds(siteId, after, ID_PAGE)
      if (ids.length === 0) break
      for (const id of ids) chosen.push([fnv1a(id), id])
      if (chosen.length > 2 * SAMPLE_PRODUCTS) keep()
      after = ids[ids.length - 1]
    }
    keep()
    return chosen.map(([, id]) => id)
  })

/**
 * The sampled photos with their views: those without (the first fit that samples a photo) are
 * fetched again, their mirror image and centre embedded at the image threads' lowest priority,
 * and the views saved beside the analysis for later fits. A photo whose host or model fails now
 * counts once.
 */
const withViews = (siteId: number, photos: ReadonlyArray<ImageSamples>) =>
  Effect.gen(function* () {
    const catalog = yield* CatalogStore
    const intake = yield* ImageIntake
    const analyzer = yield* ImageAnalyzer
    const computed = yield* Effect.forEach(
      photos,
      (photo) =>
        photo.vectors.length > 1
          ? Effect.succeed(undefined)
          : Effect.gen(function* () {
              const decoded = yield* intake.fromUrl(photo.url, "images.url")
              const rgb = yield* toRgb(decoded, { size: ANALYSIS_SIZE, fit: "contain" })
              return yield* viewFeatures(analyzer, decoded, rgb, { size: ANALYSIS_SIZE, priority: "background" })
            }).pipe(
              Effect.catchAll((e: { readonly message?: string }) =>
                Effect.as(
                  Effect.logDebug("photo views not computed", {
                    siteId,
                    url: photo.url,
                    reason: e.message ?? String(e)
                  }),
                  undefined
                )
              )
            ),
      { concurrency: VIEW_CONCURRENCY }
    )
    const byProduct = new Map<string, Array<ImageViews>>()
    photos.forEach((photo, i) => {
      const views = computed[i]
      if (views !== undefined)
        byProduct.set(photo.productId, [...(byProduct.get(photo.productId) ?? []), { imageId: photo.imageId, views }])
    })
    for (const [productId, views] of byProduct) yield* catalog.saveImageViews(siteId, productId, views)
    return photos.map((photo, i) =>
      computed[i] === undefined ? photo : { ...photo, vectors: [photo.vectors[0], ...computed[i]!] }
    )
  })

/**
 * Fits the site's space when it has enough products with photos, stores it and re-indexes the
 * site. `views: false` fits on the stored samples as they are (photos that cannot be fetched).
 */
export const fitSite = (siteId: number, options: { readonly views: boolean } = { views: true }) =>
  Effect.gen(function* () {
    const catalog = yield* CatalogStore
    const spaces = yield* VisualSpaceStore
    // A re-indexing cut short (a crash after the space was stored) is finished first.
    const current = yield* spaces.version(siteId)
    if (current > (yield* spaces.indexedVersion(siteId))) return yield* reindexSite(siteId, current)
    const { atFit, since } = yield* spaces.notePhotos(siteId, 0)
    // A second job for photos a fit already counted.
    if (atFit > 0 && since === 0) return
    const ids = yield* sampleIds(siteId)
    const samples: Array<LabelledVector> = []
    const products = new Set<string>()
    let photos = 0
    for (let i = 0; i < ids.length && photos < SAMPLE_PHOTOS; i += SAMPLE_PAGE) {
      const perProduct = new Map<string, number>()
      const page: Array<ImageSamples> = []
      for (const photo of yield* catalog.imageSamples(siteId, ids.slice(i, i + SAMPLE_PAGE))) {
        const taken = perProduct.get(photo.productId) ?? 0
        if (taken >= PHOTOS_PER_PRODUCT || photos >= SAMPLE_PHOTOS) continue
        perProduct.set(photo.productId, taken + 1)
        photos++
        page.push(photo)
      }
      for (const photo of options.views ? yield* withViews(siteId, page) : page) {
        products.add(photo.productId)
        for (const vector of photo.vectors) samples.push({ label: photo.productId, vector })
      }
    }
    if (products.size < MIN_PRODUCTS) {
      yield* Effect.logDebug("visual space not fitted: too few products with photos", {
        siteId,
        products: products.size
      })
      return
    }
    const started = Date.now()
    // A fit that fails (arithmetic on odd data) leaves the space as it is; the next photos queue another.
    const space = yield* Effect.tryPromise(() => fitVisualSpace(samples)).pipe(
      Effect.catchAll((e) =>
        Effect.as(Effect.logWarning("visual space fit failed", { siteId, error: String(e.cause ?? e) }), undefined)
      )
    )
    if (space === undefined) return
    const version = yield* spaces.put(
      siteId,
      { fittedAt: Date.now(), photos: atFit + since, samples: samples.length, space },
      since
    )
    yield* Effect.logInfo("visual space fitted", {
      siteId,
      version,
      products: products.size,
      samples: samples.length,
      dims: space.outputDims,
      ms: Date.now() - started
    })
    yield* reindexSite(siteId, version)
  })

/**
 * Every product of the site indexed again (image vectors in the site's current space), then the
 * site marked as wholly in that version.
 */
const reindexSite = (siteId: number, version: number) =>
  Effect.gen(function* () {
    const catalog = yield* CatalogStore
    yield* Effect.flatMap(SiteVisualSpaces, (s) => s.invalidate(siteId))
    let after = ""
    for (;;) {
      const ids = yield* catalog.productIds(siteId, after, ID_PAGE)
      if (ids.length === 0) return yield* Effect.flatMap(VisualSpaceStore, (s) => s.markIndexed(siteId, version))
      yield* inSlices(ids, REINDEX_SLICE, (slice) =>
        Effect.flatMap(StoredReindexing, (indexing) =>
          indexing.reindex(slice.map((productId) => ({ siteId, productId })))
        )
      )
      after = ids[ids.length - 1]
      yield* yieldToIo
    }
  })

/**
 * The reconcile pass's part (startup, every minute): a site whose index is not wholly in its
 * current space (a fit's re-indexing cut short by a crash) gets a FitVisualSpace job, which
 * finishes the re-indexing. Returns how many it queued.
 */
export const reconcileVisualSpaces = Effect.gen(function* () {
  const spaces = yield* VisualSpaceStore
  return yield* queueCatchUp(
    (siteId) =>
      Effect.zipWith(spaces.version(siteId), spaces.indexedVersion(siteId), (version, indexed) => version > indexed),
    (siteId) => ({ _tag: "FitVisualSpace", siteId })
  )
})

/** The FitVisualSpace jobs of a batch, one fit per site. */
export const fitJobs = (jobs: ReadonlyArray<Job>) =>
  Effect.forEach(
    new Set(jobs.flatMap((j) => (j._tag === "FitVisualSpace" ? [j.siteId] : []))),
    (siteId) => fitSite(siteId),
    { discard: true }
  )
