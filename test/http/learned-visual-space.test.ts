import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SIGNATURE_BINS } from "../../src/visual-space/ColorSignature.js"
import { learnedProjection } from "../../src/visual-space/SiteVisualSpaces.js"
import { MIN_PRODUCTS, reconcileVisualSpaces } from "../../src/visual-space/VisualSpaceFit.js"
import type { VisualSpace } from "../../src/visual-space/VisualSpace.js"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import { VisualSpaceStore, type VisualSpaceStoreService } from "../../src/visual-space/VisualSpaceStore.js"
import { eventually } from "../support/Eventually.js"
import { call } from "../support/Http.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"
import type { LoopbackHost } from "../support/LoopbackHost.js"
import { startPhotoHost } from "../support/ProductShots.js"
import { shapeShots } from "../support/ShapeShots.js"

/**
 * A site with enough products for a learned visual space (test/support/ShapeShots.ts). The image
 * pass counts the photos, the fit job learns the space once the analysis settled and re-indexes
 * the site in it; visual queries are projected the same way.
 */
const PRODUCTS = MIN_PRODUCTS + 4
const { shelf, studio } = shapeShots(PRODUCTS)

let api: InProcessApi
let photos: LoopbackHost

beforeAll(async () => {
  const files = new Map<string, Buffer>()
  for (let i = 0; i < PRODUCTS; i++) files.set(`/p${i}.jpg`, await studio(i))
  photos = await startPhotoHost(files)
  api = await startInProcessApi({ config: { IMAGE_ALLOWED_CIDRS: "127.0.0.0/8" } })
  // p0's twin: another product with the very same photo (the similar-products check).
  const catalog = [
    ...Array.from({ length: PRODUCTS }, (_, i) => ({ id: `p${i}`, photo: `/p${i}.jpg` })),
    { id: "p0-twin", photo: "/p0.jpg" }
  ]
  for (const p of catalog) {
    const res = await call(api.baseUrl, "PUT", `/product/${p.id}`, {
      auth: api.siteA.basic,
      body: { data: { title: "Wooden shape", product_type: "Toys > Shapes" }, images: [{ url: photos.base + p.photo }] }
    })
    expect(res.status).toBe(200)
  }
}, 120_000)

afterAll(async () => {
  await api?.close()
  await photos?.close()
})

const siteId = () => api.siteA.site.id

/**
 * Every product's index vector is its photo's features projected into `space` with its colour
 * signature, zero beyond.
 */
const expectIndexedIn = (space: VisualSpace) =>
  eventually(async () => {
    const project = learnedProjection(space)
    const { analyses, docs } = await api.run(
      Effect.gen(function* () {
        const store = yield* CatalogStore
        const index = yield* CatalogIndex
        const ids = Array.from({ length: PRODUCTS }, (_, i) => `p${i}`)
        return {
          analyses: yield* Effect.forEach(ids, (id) => store.imageAnalyses(siteId(), id)),
          docs: new Map((yield* index.retrieve(siteId(), ids)).map((d) => [d.productId, d]))
        }
      })
    )
    analyses.forEach((a, i) => {
      const vector = docs.get(`p${i}`)?.vectors.image?.[0]
      expect(vector).toBeDefined()
      expect(a[0].colorSignature?.length).toBe(SIGNATURE_BINS)
      const expected = project(a[0].embedding!, a[0].colorSignature)
      let dot = 0
      for (let k = 0; k < expected.length; k++) dot += expected[k] * vector![k]
      expect(dot).toBeCloseTo(1, 4)
      expect(vector!.subarray(space.outputDims + SIGNATURE_BINS).every((x) => x === 0)).toBe(true)
    })
  }, 60_000)

describe("the learned visual space in the product path", () => {
  it("is fitted once the site's photos are analysed, and every product's image vector is stored in it", async () => {
    const stored = await eventually(async () => {
      const space = await api.run(Effect.flatMap(VisualSpaceStore, (s) => s.get(siteId())))
      // The last fit, once every photo was analysed (a first one may come at MIN_PRODUCTS photos).
      expect(Option.map(space, (s) => s.photos)).toEqual(Option.some(PRODUCTS + 1))
      return Option.getOrThrow(space)
    }, 240_000)
    // Every product's photo (the twin's too): at most classes − 1 directions.
    expect(stored.space.outputDims).toBeGreaterThan(0)
    expect(stored.space.outputDims).toBeLessThanOrEqual(PRODUCTS)
    // Three vectors a photo: its features, its mirror image's, its centre's.
    expect(stored.samples).toBe(3 * (PRODUCTS + 1))
    // The site was re-indexed: each product's vector is its photo's features projected with its
    // colour signature (also products indexed before the fit), zero beyond them.
    await expectIndexedIn(stored.space)
  }, 320_000)

  it("finds a product from a shopper's photo of it: queries are projected into the same space", async () => {
    let first = 0
    const asked = Array.from({ length: 12 }, (_, k) => k * 4)
    for (const i of asked) {
      const res = await call(api.baseUrl, "POST", "/visual-search", {
        auth: api.siteA.bearer,
        body: { query: { image: (await shelf(i)).toString("base64") } }
      })
      expect(res.status).toBe(200)
      const ids = res.body.data.products.map((p: { productId: string }) => p.productId)
      expect(ids.slice(0, 5)).toContain(`p${i}`)
      if (ids[0] === `p${i}`) first++
    }
    // In the learned space nearly every query finds its product first (more than the raw features
    // alone do); a query left in raw features would rarely find it at all.
    expect(first).toBeGreaterThanOrEqual(9)
  })

  it("a re-indexing cut short (new space stored, index not yet in it) is finished by the reconcile pass", async () => {
    const spaces = <A>(f: (store: VisualSpaceStoreService) => Effect.Effect<A, unknown>) =>
      api.run(Effect.flatMap(VisualSpaceStore, f))
    const before = Option.getOrThrow(await spaces((s) => s.get(siteId())))
    // The last fit's re-indexing marks the site at its end.
    await eventually(async () => expect(await spaces((s) => s.indexedVersion(siteId()))).toBe(before.version), 60_000)
    // As if the process died right after storing a new space: its version is ahead of the index.
    const moved: VisualSpace = { ...before.space, mean: before.space.mean.map((x) => x * 0.5) }
    const version = await spaces((s) =>
      s.put(siteId(), { fittedAt: Date.now(), photos: before.photos, samples: before.samples, space: moved }, 0)
    )
    expect(await api.run(reconcileVisualSpaces)).toBe(1)
    await eventually(async () => expect(await spaces((s) => s.indexedVersion(siteId()))).toBe(version), 60_000)
    await expectIndexedIn(moved)
    // Nothing behind any more: the next pass queues nothing.
    expect(await api.run(reconcileVisualSpaces)).toBe(0)
  }, 120_000)

  it("similar products match stored vectors with each other: the product with the same photo comes first", async () => {
    // Every title is the same: only the photos tell the products apart.
    const res = await call(api.baseUrl, "POST", "/similar-products", {
      auth: api.siteA.bearer,
      body: { productId: "p0", resultsCount: 5 }
    })
    expect(res.status).toBe(200)
    expect(res.body.data.products[0].productId).toBe("p0-twin")
  })
})
