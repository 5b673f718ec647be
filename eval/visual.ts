/**
 * Visual-search evaluation: `npm run eval:visual -- <grocery dir> [--split val|train]
 * [--with-train-images] [--limit N]`.
 *
 * Builds a catalog from the Grocery Store Dataset (see /work/shared/data/README.md): each fine
 * class is a product (information-file title and description, category path
 * `Parent > Coarse > Fine`, the iconic photo as its image; with --with-train-images also the
 * first N train photos of the class as extra images). The images reach the service as URLs
 * served from 127.0.0.1 by this script, through the production path (ImageIntake → job queue
 * → ImageAnalyzer → index, and the FitVisualSpace job that learns the site's visual space from
 * those photos and re-indexes them in it) of the real service layers in a temp dir. Nothing is
 * learnt from the query photos. Then every photo of the split is sent to visualSearch (POST
 * /visual-search's code path) and scored: top-1 / top-5 fine-class accuracy and top-1
 * coarse-class accuracy, beside colour-histogram baselines (RGB and HSV 8×8×8, histogram
 * intersection, nearest product image) over the same product images, computed in the same run.
 * Labelled extras: a diagnostic row (the query photo alone in the site's space against the
 * index directly: no mirror image, no colours), a self-check (each iconic photo must find its
 * own product), and the ablation rows of visual/LearnedSpace.ts (raw cosine, the space without
 * views, with them, with the query's mirror image, with colour signatures). Last, a
 * text-over-visual check through textSearch (see visual/TextCheck.ts).
 *
 * The two catalog configurations are separate runs (with and without --with-train-images).
 *
 * Options:
 *   --split val|train         query photos (default val)
 *   --with-train-images       add train photos as extra product images (not with --split train)
 *   --train-per-class N       how many train photos per class with --with-train-images (default 5)
 *   --limit N                 first N query photos only (quick runs)
 *   --no-text-check           skip the text-over-visual check
 *   --no-learned              skip the ablation rows (see visual/LearnedSpace.ts)
 */
import { Effect, Logger, LogLevel, Option } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { visualSearch } from "../src/search/VisualSearch.js"
import { CatalogIndex } from "../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../src/model/Filter.js"
import { ImageAnalyzer } from "../src/services/image-analyzer/ImageAnalyzer.js"
import { ImageIntake } from "../src/services/image-intake/ImageIntake.js"
import { toRgb } from "../src/services/image-intake/Rgb.js"
import { SiteVisualSpaces } from "../src/visual-space/SiteVisualSpaces.js"
import { VisualSpaceStore } from "../src/visual-space/VisualSpaceStore.js"
import { histogramsOf, rankProducts, type ColorSpace, type Histograms } from "./visual/ColorHistogram.js"
import { firstPerClass, loadGrocery, loadSplit, productIdOf } from "./visual/Dataset.js"
import { ingest, type CatalogProduct } from "./visual/Harness.js"
import { startImageServer } from "./visual/ImageServer.js"
import { accuracy, pct, type Accuracy, type Judged } from "./visual/Metrics.js"
import { buildCases, runTextCheck } from "./visual/TextCheck.js"
import { learnedSpaceRows } from "./visual/LearnedSpace.js"
import { makeEvalWorkspace } from "./Workspace.js"

const usage =
  "usage: npm run eval:visual -- <grocery dir> [--split val|train] [--with-train-images] " +
  "[--train-per-class N] [--limit N] [--no-text-check] [--no-learned]"

const parseArgs = (argv: ReadonlyArray<string>) => {
  const positional: Array<string> = []
  const options = { split: "val", withTrain: false, trainPerClass: 5, limit: Infinity, textCheck: true, learned: true }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${arg} needs a value\n${usage}`)
      return v
    }
    const count = () => {
      const n = Number(value())
      if (!Number.isInteger(n) || n < 1) throw new Error(`${arg} takes a positive integer`)
      return n
    }
    if (arg === "--split") options.split = value()
    else if (arg === "--with-train-images") options.withTrain = true
    else if (arg === "--train-per-class") options.trainPerClass = count()
    else if (arg === "--limit") options.limit = count()
    else if (arg === "--no-text-check") options.textCheck = false
    else if (arg === "--no-learned") options.learned = false
    else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}\n${usage}`)
    else positional.push(arg)
  }
  if (positional.length !== 1) throw new Error(usage)
  if (options.split !== "val" && options.split !== "train") throw new Error("--split takes val or train")
  if (options.withTrain && options.split === "train")
    throw new Error("--with-train-images would put the query photos in the catalog; use --split val")
  return { dir: positional[0], ...options }
}

const accuracyRow = (name: string, a: Accuracy, msPerQuery: number) =>
  `${name.padEnd(46)} ${pct(a.top1)}  ${pct(a.top5)}  ${pct(a.coarseTop1)}  ` +
  `${String(a.queries).padStart(7)}  ${(Number.isNaN(msPerQuery) ? "-" : msPerQuery.toFixed(1)).padStart(8)}`

const main = async () => {
  const args = parseArgs(process.argv.slice(2))
  const started = performance.now()

  const dataset = loadGrocery(args.dir)
  const queries = loadSplit(dataset, args.split)
    .filter((q) => dataset.byId.has(q.fineId))
    .slice(0, args.limit)
  const extra = args.withTrain ? firstPerClass(loadSplit(dataset, "train"), args.trainPerClass) : new Map()
  const gallery = dataset.classes.map((c) => ({
    fine: c,
    productId: productIdOf(c),
    images: [c.iconic, ...(extra.get(c.id) ?? []).map((p: { path: string }) => p.path)]
  }))
  const imageCount = gallery.reduce((n, g) => n + g.images.length, 0)
  const coarseOfProduct = new Map(gallery.map((g) => [g.productId, g.fine.coarseId]))
  const config = args.withTrain ? `iconic + up to ${args.trainPerClass} train photos per class` : "iconic photo only"
  console.log(
    `grocery dataset ${dataset.dir}: ${dataset.classes.length} products (fine classes), ` +
      `${new Set(dataset.classes.map((c) => c.coarseId)).size} coarse classes`
  )
  console.log(
    `configuration: ${config} → ${imageCount} product images; queries: ${queries.length} ${args.split} photos` +
      ` (${new Set(queries.map((q) => q.fineId)).size} fine classes)`
  )

  // Baseline: colour histograms of the same product images and query photos.
  const baselineStarted = performance.now()
  const galleryHistograms: Array<{ productId: string; histograms: Histograms }> = []
  for (const g of gallery) {
    for (const image of g.images)
      galleryHistograms.push({ productId: g.productId, histograms: await histogramsOf(path.join(dataset.dir, image)) })
  }
  const queryHistograms: Array<Histograms> = []
  for (const q of queries) queryHistograms.push(await histogramsOf(path.join(dataset.dir, q.path)))
  const histogramMs = performance.now() - baselineStarted
  const baseline = (space: ColorSpace) => {
    const t = performance.now()
    const judged: Array<Judged> = queries.map((q, i) => ({
      expected: productIdOf(dataset.byId.get(q.fineId)!),
      ranking: rankProducts(queryHistograms[i], galleryHistograms, space, 10)
    }))
    const rankMs = performance.now() - t
    // Per query: its histogram (share of the histogram time) plus the ranking.
    return {
      accuracy: accuracy(judged, (id) => coarseOfProduct.get(id)),
      msPerQuery: ((histogramMs * queries.length) / (queries.length + imageCount) + rankMs) / queries.length
    }
  }
  const rgb = baseline("rgb")
  const hsv = baseline("hsv")

  const server = await startImageServer(
    dataset.dir,
    gallery.flatMap((g) => g.images)
  )
  const products: Array<CatalogProduct> = gallery.map((g) => ({
    id: g.productId,
    data: { title: g.fine.title, description: g.fine.description || null, product_type: g.fine.categoryPath },
    imageUrls: g.images.map(server.url)
  }))

  const workspace = await makeEvalWorkspace("visual-eval-", { EMBED_THREADS: 1, IMAGE_ALLOWED_CIDRS: "127.0.0.0/8" })
  const program = Effect.gen(function* () {
    const ready = performance.now()
    console.log(
      `services ready after ${((ready - started) / 1000).toFixed(1)} s ` +
        `(data, baseline histograms, models); image server on 127.0.0.1`
    )
    const ingestion = yield* ingest(workspace.siteId, products)
    console.log(
      `ingestion: ${ingestion.indexed}/${ingestion.products} products indexed, ` +
        `${ingestion.analysedOk}/${ingestion.images} images analysed ok` +
        ` (${ingestion.analysedFailed} failed; ${server.served()} fetched from the image server) in ` +
        `${(ingestion.totalMs / 1000).toFixed(1)} s` +
        ` = ${(ingestion.images / (ingestion.totalMs / 1000)).toFixed(2)} images/s (PUT → analysed and re-indexed)`
    )
    for (const failure of ingestion.failures.slice(0, 5)) console.log(`  failed: ${failure}`)
    if (ingestion.analysedOk === 0)
      return yield* Effect.die(new Error("no product image was analysed; the visual figures would be meaningless"))

    const intake = yield* ImageIntake
    const analyzer = yield* ImageAnalyzer
    const index = yield* CatalogIndex
    /** The product path: POST /visual-search's handler with the photo as base64. */
    const productRanking = (file: string) =>
      Effect.map(
        visualSearch(workspace.siteId, {
          query: { image: fs.readFileSync(file).toString("base64") },
          resultsCount: 10
        }).pipe(Effect.orDie),
        (response) => response.data.products.flatMap((p) => (p.productId === undefined ? [] : [p.productId]))
      )
    const fitted = Option.getOrUndefined(yield* (yield* VisualSpaceStore).get(workspace.siteId))
    console.log(
      fitted === undefined
        ? "learned visual space: none fitted (too few products with photos); the index holds the raw features"
        : `learned visual space: version ${fitted.version}, fitted on ${fitted.samples} vectors ` +
            `(photos and their views; ${fitted.photos} photos counted), ` +
            `${fitted.space.outputDims} dimensions: the index holds the catalog's photos in it`
    )
    const space = (yield* (yield* SiteVisualSpaces).projections([workspace.siteId]))(workspace.siteId)
    /**
     * Diagnostic, not the product path: the query photo alone (no mirror) in the site's space,
     * image cosine only, no colour boost.
     */
    const directRanking = (file: string) =>
      Effect.gen(function* () {
        const decoded = yield* intake.decode(fs.readFileSync(file), "query.image")
        const vector = space(
          yield* analyzer.embed(yield* toRgb(decoded, { size: 512, fit: "contain" }), { priority: "query" })
        )
        const result = yield* index.search({
          siteId: workspace.siteId,
          imageVector: vector,
          filter: emptyFilter,
          limit: 10,
          weights: { lexical: 0, text: 0, image: 1 },
          minSimilarity: 0
        })
        return result.hits.map((h) => h.productId)
      }).pipe(Effect.orDie)

    // Self-check of the pipeline: each product's own iconic photo should find it.
    const selfJudged: Array<Judged> = []
    for (const g of gallery)
      selfJudged.push({ expected: g.productId, ranking: yield* productRanking(path.join(dataset.dir, g.fine.iconic)) })
    const self = accuracy(selfJudged, (id) => coarseOfProduct.get(id))

    const judged: Array<Judged> = []
    const directJudged: Array<Judged> = []
    let searchMs = 0
    for (const [i, q] of queries.entries()) {
      const file = path.join(dataset.dir, q.path)
      const expected = productIdOf(dataset.byId.get(q.fineId)!)
      const t = performance.now()
      const ranking = yield* productRanking(file)
      searchMs += performance.now() - t
      judged.push({ expected, ranking })
      directJudged.push({ expected, ranking: yield* directRanking(file) })
      if ((i + 1) % 50 === 0) process.stderr.write(`  visual queries: ${i + 1}/${queries.length}\n`)
    }
    const visual = accuracy(judged, (id) => coarseOfProduct.get(id))
    const direct = accuracy(directJudged, (id) => coarseOfProduct.get(id))

    console.log("")
    console.log(`VISUAL SEARCH, ${args.split} split, ${config} (hit = the product of the photo's fine class)`)
    console.log(`${"".padEnd(46)}  top-1   top-5  coarse@1  queries  ms/query`)
    console.log(accuracyRow("visualSearch (product path)", visual, searchMs / queries.length))
    console.log(accuracyRow("baseline: RGB 8×8×8 histogram intersection", rgb.accuracy, rgb.msPerQuery))
    console.log(accuracyRow("baseline: HSV 8×8×8 histogram intersection", hsv.accuracy, hsv.msPerQuery))
    console.log(
      `${accuracyRow("diagnostic: index cosine, no mirror, no colour", direct, NaN)}  ` +
        `(the photo alone in the site's space, direct index search)`
    )
    console.log(
      `self-check: the ${self.queries} iconic photos as queries find their own product top-1 ` +
        `${pct(self.top1).trim()}, top-5 ${pct(self.top5).trim()}`
    )
    console.log(
      `chance: top-1 ${pct(1 / products.length)}, top-5 ${pct(5 / products.length)}; empty result lists: ` +
        `${visual.empty}`
    )
    console.log(
      `image indexing throughput: ${(ingestion.images / (ingestion.totalMs / 1000)).toFixed(2)} images/s ` +
        `(${ingestion.images} images, fetch + decode + MobileNetV2 + nsfw + CenterNet + colours + ` +
        `re-index, IMAGE_THREADS=${process.env.IMAGE_THREADS ?? 1})`
    )

    if (args.learned) {
      const learned = yield* learnedSpaceRows(
        gallery.flatMap((g) => g.images.map((file) => ({ productId: g.productId, file }))),
        queries.map((q) => ({ file: q.path, expected: productIdOf(dataset.byId.get(q.fineId)!) })),
        dataset.dir
      )
      console.log("")
      console.log(
        `ABLATION (computed here as the service does, over every catalog photo: the space fitted on the ` +
          `catalog's ${gallery.length} products' ` +
          `photos only, ${learned.samples} samples with their views, ${learned.dims} dimensions, ` +
          `${(learned.fitMs / 1000).toFixed(1)} s; nothing fitted on the ${args.split} photos)`
      )
      console.log(`${"".padEnd(46)}  top-1   top-5  coarse@1  queries  ms/query`)
      for (const row of learned.rows)
        console.log(
          accuracyRow(
            row.name,
            accuracy(row.judged, (id) => coarseOfProduct.get(id)),
            row.msPerQuery
          )
        )
    }

    if (args.textCheck) {
      const { cases, noColor, onlyTextColors } = yield* buildCases(workspace.siteId, dataset.classes)
      const check = yield* runTextCheck(workspace.siteId, cases)
      const shared = cases.filter((c) => c.siblings > 1).length
      console.log("")
      console.log("TEXT-OVER-VISUAL CHECK (textSearch; colour words come only from the product photos)")
      console.log(
        `${cases.length} products with an indexed photo colour that their title, ` +
          `description and category do not contain ` +
          `(skipped: ${noColor} without an indexed colour, ${onlyTextColors} whose photo colours all ` +
          `appear in their text)`
      )
      console.log(
        `${"".padEnd(40)}  all ${String(cases.length).padStart(2)} products: ` +
          `top-1  top-5  MRR@10 | ${shared} sharing a class word: top-1  top-5  MRR@10`
      )
      for (const row of check.rows) {
        console.log(
          `${row.label.padEnd(40)}  ${"".padStart(16)}${pct(row.all.top1)} ${pct(row.all.top5)}  ` +
            `${row.all.mrr.toFixed(3)} | ${"".padStart(23)}${pct(row.shared.top1)} ` +
            `${pct(row.shared.top5)}  ${row.shared.mrr.toFixed(3)}`
        )
      }
      for (const example of check.examples) console.log(`  e.g. ${example}`)
    }
  }).pipe(Effect.provide(workspace.layer), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)), Effect.scoped)

  try {
    await Effect.runPromise(program)
  } finally {
    await server.close()
    workspace.dispose()
  }
  console.log(`\ntotal time ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
