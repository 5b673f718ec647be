/**
 * The visual-search part of `npm run bench`.
 *
 * 1. Precomputed image vectors: every product of the bench catalog gets one photo whose
 *    analysis is written straight through the api's store and index (no model run per
 *    product). The vectors live in the model's own feature space: a few dozen real
 *    MobileNetV2 embeddings of synthetic photos serve as anchors, one per group of leaf
 *    categories, and each product's vector is its anchor with multiplicative noise (kept
 *    non-negative, as the model's pooled ReLU features are), normalised.
 * 2. POST /visual-search over HTTP with real JPEG and PNG query images of varied size, some
 *    with a search area, one request at a time, and the same queries' stages timed one by one
 *    in-process with the api's services: decode (base64, intake checks, resize), embed (model
 *    thread, colours) and search (the index's kNN and scoring).
 */
import { Effect, Option } from "effect"
import { fitSite, SAMPLE_PRODUCTS, StoredReindexing } from "../../src/visual-space/VisualSpaceFit.js"
import { storedReindexing } from "../../src/indexing/ImageReindex.js"
import { ProductIndexerLive } from "../../src/indexing/ProductIndexer.js"
import { VisualSpaceStore } from "../../src/visual-space/VisualSpaceStore.js"
import { addStages } from "./server-timing.js"
import { nearestColorName } from "../../src/model/ColorNames.js"
import { toIndexDocument } from "../../src/model/ProductDocument.js"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../src/model/Filter.js"
import type { IndexDocument } from "../../src/model/IndexDocument.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import type { DerivedProduct, StoredImage } from "../../src/model/StoredProduct.js"
import type { ProductRecord } from "../../src/domain/Product.js"
import type { ImageAnalysisRecord } from "../../src/model/ImageAnalysis.js"
import { ImageAnalyzer } from "../../src/services/image-analyzer/ImageAnalyzer.js"
import { ImageIntake } from "../../src/services/image-intake/ImageIntake.js"
import { toRgb } from "../../src/services/image-intake/Rgb.js"
import { check, fmtRate, log, memory, type SectionReport } from "./common.js"
import type { GeneratedProduct } from "./generator.js"
import type { Client } from "./http.js"
import { syntheticImages } from "./images.js"
import { mulberry32, type Random } from "./random.js"
import type { InProcessApi } from "../../test/support/InProcessApi.js"
import { ms, summarize } from "./stats.js"

export interface VisualOptions {
  readonly seed: number
  readonly queries: number
  readonly page: number
}

/** Anchor embeddings: enough groups that a query's neighbours are a small share of the catalog. */
const ANCHORS = 48
/** Spread of each feature around its anchor (log-normal): products of a group end up at cosine ≈ 0.8–0.9. */
const NOISE = 0.45
const PAGE = 500
/** The query image's side in the analysis, as rankByImage uses it. */
const QUERY_SIZE = 512

const hashOf = (s: string) => {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h >>> 0
}

const productVector = (anchor: Float32Array, random: Random) => {
  const v = new Float32Array(anchor.length)
  let sum = 0
  for (let i = 0; i < v.length; i++) {
    v[i] = anchor[i] * Math.exp(NOISE * random.normal())
    sum += v[i] * v[i]
  }
  const norm = Math.sqrt(sum) || 1
  for (let i = 0; i < v.length; i++) v[i] /= norm
  return v
}

const hex = (r: number, g: number, b: number) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`

/** One or two named colours, as the analyser reports them. */
const productColors = (random: Random) => {
  const colour = () => {
    const [r, g, b] = [random.int(0, 255), random.int(0, 255), random.int(0, 255)]
    return { name: nearestColorName(r, g, b), hex: hex(r, g, b) }
  }
  const main = random.next() * 0.4 + 0.5
  return random.chance(0.5)
    ? [
        { ...colour(), share: main },
        { ...colour(), share: 1 - main }
      ]
    : [{ ...colour(), share: 1 }]
}

/** Runs an effect where the image models are (the in-process api's, or the bench process's own). */
export type RunWithImageModels = <A, E>(effect: Effect.Effect<A, E, ImageIntake | ImageAnalyzer>) => Promise<A>

/** Real embeddings of synthetic photos, through the image intake and analyser. */
const anchorVectors = async (run: RunWithImageModels, random: Random): Promise<ReadonlyArray<Float32Array>> => {
  const photos = await syntheticImages(random, ANCHORS)
  return run(
    Effect.gen(function* () {
      const intake = yield* ImageIntake
      const analyzer = yield* ImageAnalyzer
      return yield* Effect.forEach(photos, (photo) =>
        intake.decode(photo.bytes, "anchor").pipe(
          Effect.flatMap((decoded) => toRgb(decoded, { size: QUERY_SIZE, fit: "contain" })),
          Effect.flatMap((rgb) => analyzer.embed(rgb, { priority: "batch" }))
        )
      )
    })
  )
}

/**
 * Precomputed analyses of product photos, in the model's feature space: `anchors` are real
 * embeddings, and each photo gets the anchor of its product's leaf category with noise.
 */
export const makePhotoAnalyses = async (run: RunWithImageModels, seed: number) => {
  const started = performance.now()
  const random = mulberry32(seed).fork(50)
  const anchors = await anchorVectors(run, random.fork(1))
  log(`image vectors: ${anchors.length} anchor embeddings in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  const vectors = random.fork(2)
  /** The analysis of `image`, the stored first photo of the product with `data`. */
  return (data: ProductRecord, image: StoredImage): ImageAnalysisRecord => {
    const leaf = data.product_type ?? data.shopping_product_category ?? ""
    return {
      imageId: image.id,
      url: image.url,
      status: "ok",
      reason: null,
      embedding: productVector(anchors[hashOf(leaf) % anchors.length], vectors),
      adult: vectors.next() * 0.05,
      colors: productColors(vectors),
      objects: [],
      analyzedAt: Date.now()
    }
  }
}

/**
 * Gives each product its first photo with a precomputed analysis: the record is stored with that
 * image, the analysis saved, the derived data kept current (with the text vector the index
 * already holds, if any) and the product re-indexed with its image vector. Returns seconds taken.
 */
export const seedImageVectors = async (
  server: InProcessApi,
  products: Iterable<GeneratedProduct>,
  options: VisualOptions
) => {
  const started = performance.now()
  const photoAnalysis = await makePhotoAnalyses(server.run, options.seed)
  const siteId = server.siteA.site.id
  let done = 0
  const spent = { store: 0, index: 0 }
  const writePage = (page: ReadonlyArray<GeneratedProduct>) =>
    server.run(
      Effect.gen(function* () {
        const store = yield* CatalogStore
        const index = yield* CatalogIndex
        const textVectors = new Map(
          (yield* index.retrieve(
            siteId,
            page.map((p) => p.id)
          )).map((d) => [d.productId, d.vectors.text ?? null])
        )
        const derived: Array<DerivedProduct> = []
        const docs: Array<IndexDocument> = []
        const t0 = performance.now()
        for (const p of page) {
          const { product } = yield* store.put(siteId, p.id, p.data, p.images.slice(0, 1))
          const analysis = photoAnalysis(product.data, product.images[0])
          yield* store.saveImageAnalyses(siteId, p.id, [analysis])
          const textVector = textVectors.get(p.id) ?? null
          derived.push({ siteId, productId: p.id, version: product.version, textVector })
          docs.push(toIndexDocument(product, textVector, [analysis]))
        }
        const t1 = performance.now()
        yield* index.upsert(docs)
        const t2 = performance.now()
        yield* store.saveDerived(derived)
        spent.store += t1 - t0 + performance.now() - t2
        spent.index += t2 - t1
      })
    )
  let page: Array<GeneratedProduct> = []
  let lastLog = performance.now()
  for (const product of products) {
    page.push(product)
    if (page.length < PAGE) continue
    await writePage(page)
    done += page.length
    page = []
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now()
      log(
        `image vectors: ${done} products (${fmtRate(done / ((lastLog - started) / 1000))}/s; store ` +
          `${(spent.store / 1000).toFixed(1)} s, index ${(spent.index / 1000).toFixed(1)} s), ${memory()}`
      )
    }
  }
  if (page.length > 0) await writePage(page)
  return {
    products: done + page.length,
    seconds: (performance.now() - started) / 1000,
    storeSeconds: spent.store / 1000,
    indexSeconds: spent.index / 1000
  }
}

/**
 * Fits the site's learned visual space on the seeded photos as the FitVisualSpace job does (the
 * seeded analyses have no colour signatures, and their photos cannot be fetched for views: one
 * sample a photo) and re-indexes the catalog in it, so that visual search is measured with the
 * projection a real site has.
 */
export const fitVisualSpace = async (server: InProcessApi, photos: number) => {
  const started = performance.now()
  const siteId = server.siteA.site.id
  const stored = await server.run(
    Effect.gen(function* () {
      // The seeded photos bypassed the image pass that counts them: counted here, as it would have.
      yield* Effect.flatMap(VisualSpaceStore, (store) => store.notePhotos(siteId, photos))
      yield* fitSite(siteId, { views: false }).pipe(
        Effect.provideServiceEffect(StoredReindexing, storedReindexing),
        Effect.provide(ProductIndexerLive)
      )
      return yield* Effect.flatMap(VisualSpaceStore, (store) => store.get(siteId))
    })
  )
  if (Option.isNone(stored)) throw new Error("no visual space was fitted")
  return {
    seconds: (performance.now() - started) / 1000,
    dims: stored.value.space.outputDims,
    samples: stored.value.samples,
    sampled: Math.min(SAMPLE_PRODUCTS, stored.value.samples)
  }
}

/** A search area on one query in four: a crop of the upper-left to the whole image. */
const searchArea = (random: Random) => {
  if (!random.chance(0.25)) return undefined
  const width = 0.4 + random.next() * 0.6
  const height = 0.4 + random.next() * 0.6
  return { left: random.next() * (1 - width), top: random.next() * (1 - height), width, height }
}

/**
 * The query photos of `options.queries` visual searches (real JPEG/PNG, some with a search area),
 * and 10 more to warm up.
 */
export const visualQueries = async (options: Pick<VisualOptions, "seed" | "queries">) => {
  const random = mulberry32(options.seed).fork(51)
  const images = await syntheticImages(random.fork(1), options.queries + 10)
  const areas = images.map(() => searchArea(random))
  const formats = images.slice(10).reduce((n, i) => n + (i.format === "png" ? 1 : 0), 0)
  log(
    `visual search: ${options.queries} query images ` +
      `(${formats} PNG, ` +
      `${(images.reduce((n, i) => n + i.bytes.length, 0) / images.length / 1024).toFixed(0)} KB average)`
  )
  return { images, areas, count: options.queries }
}

/**
 * POST /visual-search over HTTP, one request at a time after 10 warm-up requests: each
 * request's latency, the non-200 answers (the first three logged) and the mean results.
 */
export const measureVisualSearch = async (
  client: Client,
  auth: string,
  queries: Awaited<ReturnType<typeof visualQueries>>,
  page: number
) => {
  const { areas, count, images } = queries
  const body = (i: number) => ({
    query: { image: images[i].bytes.toString("base64"), ...(areas[i] ? { searchArea: areas[i] } : {}) },
    resultsCount: page
  })
  for (let i = 0; i < 10; i++) await client.request("POST", "/visual-search", auth, body(count + i))
  const samples: Array<number> = []
  const stages = new Map<string, Array<number>>()
  let errors = 0
  let results = 0
  for (let i = 0; i < count; i++) {
    const res = await client.request("POST", "/visual-search", auth, body(i))
    samples.push(res.ms)
    addStages(stages, i, String(res.headers["server-timing"] ?? ""))
    if (res.status !== 200) {
      if (errors++ < 3) log(`visual-search error ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`)
    } else results += res.body?.data?.products?.length ?? 0
  }
  return { samples, errors, meanResults: results / Math.max(1, count - errors), stages }
}

export const runVisualSection = async (
  server: InProcessApi,
  client: Client,
  options: VisualOptions
): Promise<SectionReport> => {
  const queries = await visualQueries(options)
  const { areas, images } = queries
  const http = await measureVisualSearch(client, server.siteA.bearer, queries, options.page)

  // The same queries again, stage by stage, through the services POST /visual-search uses.
  const stages = { decode: [] as Array<number>, embed: [] as Array<number>, search: [] as Array<number> }
  for (let i = 0; i < options.queries; i++) {
    const base64 = images[i].bytes.toString("base64")
    const area = areas[i]
    await server.run(
      Effect.gen(function* () {
        const intake = yield* ImageIntake
        const analyzer = yield* ImageAnalyzer
        const index = yield* CatalogIndex
        const t0 = performance.now()
        const decoded = yield* intake.fromData(base64, "query.image")
        const rgb = yield* toRgb(decoded, { size: QUERY_SIZE, fit: "contain", ...(area ? { crop: area } : {}) })
        const t1 = performance.now()
        const analysis = yield* analyzer.analyze(rgb, { detect: false, priority: "query" })
        const t2 = performance.now()
        yield* index.search({
          siteId: server.siteA.site.id,
          imageVector: analysis.embedding,
          filter: emptyFilter,
          weights: { lexical: 0, text: 0, image: 1 },
          minSimilarity: 0,
          limit: options.page
        })
        const t3 = performance.now()
        stages.decode.push(t1 - t0)
        stages.embed.push(t2 - t1)
        stages.search.push(t3 - t2)
      })
    )
  }

  const all = summarize(http.samples)
  const [decode, embed, search] = [summarize(stages.decode), summarize(stages.embed), summarize(stages.search)]
  const row = (label: string, samples: ReadonlyArray<number>, extra = "", errorCount = 0) => {
    const s = summarize(samples)
    return [label, String(s.count), ms(s.p50), ms(s.p95), ms(s.p99), ms(s.max), extra, String(errorCount)]
  }
  return {
    summary: [
      [
        "Visual search p50 / p95 / p99 (HTTP, base64 JPEG/PNG)",
        `${ms(all.p50)} / ${ms(all.p95)} / ${ms(all.p99)} ms`,
        "p50 ≤ 150 ms",
        check(all.p50 <= 150)
      ],
      [
        "  of which decode / embed / search (p50, in-process)",
        `${ms(decode.p50)} / ${ms(embed.p50)} / ${ms(search.p50)} ms`,
        "",
        ""
      ]
    ],
    latency: [
      row("visual search (HTTP)", http.samples, http.meanResults.toFixed(1), http.errors),
      row("  decode: base64, intake, resize", stages.decode),
      row("  embed: features + colours", stages.embed),
      row("  search: image kNN + scoring", stages.search)
    ]
  }
}
