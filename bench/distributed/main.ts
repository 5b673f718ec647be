/**
 * Distributed-topology benchmark:
 *   npm run bench -- --distributed [--products N] [--photo-products N] [--ingest-products N]
 *                                  [--ingest-photo-products N] [--bulk-products N]
 *                                  [--queries N] [--visual-queries N] [--page N] [--concurrency N] [--workers 1,2]
 *                                  [--repeats N] [--seed S] [--only search,push,text,images,bulk]
 *                                  [--topologies redis,qdrant]
 *
 * Runs each topology in turn as separate OS processes (cluster.ts): Redis-only (a real
 * redis-server, the api with REDIS_URL, the index replicated in every process's memory) and
 * Qdrant (the same with QDRANT_URL: the index in Qdrant). Qdrant comes from a `qdrant` binary
 * on PATH (e.g. `PATH=/path/to/qdrant-dir:$PATH npm run bench -- --distributed`), started on
 * ports and storage of its own, else from QDRANT_URL (a collection of the run's own, deleted at
 * the end); without either that topology is skipped with the reason printed.
 *
 * For each topology:
 * - fill: the catalog is brought to `--products` text products (default 100,000) plus
 *   `--photo-products` with one photo each (default 10,000) by a bulk path in this process that
 *   writes what a worker would (fill.ts): worker indexing would take too long at this size. Text
 *   vectors come from the real embedder, cached on disk (text-vectors.ts); photo vectors are
 *   precomputed (anchor embeddings + noise). Measuring starts once the api finds products across
 *   the whole catalog (and Qdrant's optimizers are idle);
 * - search: POST /text-search p50/p99 (`--queries`, default 2,000, the shopper workload of the
 *   single-process bench, one at a time after a warm-up) and POST /visual-search
 *   (`--visual-queries`, default 200 real JPEG/PNG photos) over HTTP against the api;
 * - push: products accepted per second at the api (PUT /product, `--concurrency` in flight, no
 *   worker running; the queues only fill), with PUT latency p50/p99;
 * - text: `--ingest-products` fresh text products (default 2,000) pushed on top of the full
 *   catalog and indexed by 1 and 2 worker processes (`--workers`): pushed while the queues are
 *   paused, workers started and serving, then timed from resuming the queues until GET /readyz
 *   reports no pending job and the products are found by search. Each run's push also counts
 *   as a push measurement;
 * - images: the same with `--ingest-photo-products` (default 200) products of one photo each,
 *   small JPEGs from a loopback host, a fresh URL prefix per run, IMAGE_THREADS=1 per worker.
 * - bulk: with 1 and 2 worker processes serving, `--bulk-products` (default 20,000) fresh text
 *   products in one streamed POST /products/bulk while one shopper searches; lines accepted per
 *   second, search latency meanwhile, seconds until found by their words and until embedded by
 *   the workers, then the same products' price and stock patches in a second push (bulk.ts);
 *   each process's peak RSS and CPU time over the run.
 * Also: the RSS of redis-server, Qdrant, the api and a worker before and after the fill, memory
 * per product, and every answer's HTTP status (no request body may be rejected).
 * Runs are interleaved (1, 2, 1, 2 workers… with --repeats) so a change of machine load hits
 * both. Prints one markdown table, the topologies side by side, with the machine's load average.
 * BENCH_API_NODE_OPTIONS / BENCH_WORKER_NODE_OPTIONS are passed as NODE_OPTIONS to the api or
 * the workers only (a heap setting, or `--import` of a profiler hook).
 */
import * as os from "node:os"
import { embeddingText } from "../../src/model/ProductDocument.js"
import { qdrantAvailability } from "../../test/support/QdrantProcess.js"
import { log } from "../catalog/common.js"
import { type GeneratedProduct, makeCatalog, type ProductSummary } from "../catalog/generator.js"
import { mulberry32, reservoir } from "../catalog/random.js"
import { markdownTable } from "../catalog/stats.js"
import { visualQueries } from "../catalog/visual.js"
import type { QdrantTarget } from "./cluster.js"
import { makePhotos, type PhotoHost, startPhotoHost } from "./photos.js"
import { type Column, distributedTable, skipNotes, tableHeader } from "./report.js"
import { catalogTextVectors } from "./text-vectors.js"
import {
  type RunOptions,
  runTopology,
  type Section,
  SECTIONS,
  TOPOLOGIES,
  type TopologyName,
  topologyLabel
} from "./topology-run.js"

export interface DistributedOptions extends RunOptions {
  readonly products: number
  readonly photoProducts: number
  readonly visualQueries: number
  readonly topologies: ReadonlyArray<TopologyName>
}

const usage =
  "usage: bench --distributed [--products N] [--photo-products N] [--ingest-products N] " +
  "[--ingest-photo-products N] [--bulk-products N] " +
  "[--queries N] [--visual-queries N] [--page N] [--concurrency N] [--workers 1,2] [--repeats N] [--seed S] " +
  `[--only ${SECTIONS.join(",")}] [--topologies ${TOPOLOGIES.join(",")}]`

const numericFlags = {
  products: "products",
  "photo-products": "photoProducts",
  "ingest-products": "ingestProducts",
  "ingest-photo-products": "ingestPhotoProducts",
  "bulk-products": "bulkProducts",
  queries: "queries",
  "visual-queries": "visualQueries",
  page: "page",
  concurrency: "concurrency",
  repeats: "repeats",
  seed: "seed"
} as const
type NumericOption = (typeof numericFlags)[keyof typeof numericFlags]
/** Counts of products may be 0 (e.g. `--products 0 --photo-products 0`: no fill); the rest at least 1. */
const mayBeZero: ReadonlySet<NumericOption> = new Set([
  "products",
  "photoProducts",
  "ingestProducts",
  "ingestPhotoProducts"
])

const listOf = <A extends string>(flag: string, value: string, allowed: ReadonlyArray<A>): Array<A> => {
  const list = value.split(",").filter((s) => s.length > 0)
  if (list.length === 0 || !list.every((s): s is A => (allowed as ReadonlyArray<string>).includes(s)))
    throw new Error(`${usage} (bad: --${flag} ${value})`)
  return list
}

export const parseDistributedArgs = (argv: ReadonlyArray<string>): DistributedOptions => {
  const options = {
    products: 100_000,
    photoProducts: 10_000,
    ingestProducts: 2_000,
    ingestPhotoProducts: 200,
    bulkProducts: 20_000,
    queries: 2_000,
    visualQueries: 200,
    page: 24,
    concurrency: 64,
    workers: [1, 2] as ReadonlyArray<number>,
    repeats: 1,
    seed: 42,
    only: new Set<Section>(SECTIONS) as ReadonlySet<Section>,
    topologies: [...TOPOLOGIES] as ReadonlyArray<TopologyName>
  }
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "")
    const value = argv[i + 1] ?? ""
    if (name === "only") options.only = new Set(listOf(name, value, SECTIONS))
    else if (name === "topologies") options.topologies = listOf(name, value, TOPOLOGIES)
    else if (name === "workers") {
      const list = value.split(",").map(Number)
      if (list.length === 0 || !list.every((n) => Number.isInteger(n) && n >= 1))
        throw new Error(`${usage} (bad: --workers ${value})`)
      options.workers = list
    } else {
      const key = (numericFlags as Record<string, NumericOption | undefined>)[name]
      const n = Number(value)
      if (!key || !Number.isInteger(n) || n < (mayBeZero.has(key) ? 0 : 1))
        throw new Error(`${usage} (bad: ${argv[i]} ${value})`)
      options[key] = n
    }
  }
  return options
}

/** Where the Qdrant topology gets its server, or why it cannot run. */
const qdrantTarget = (): QdrantTarget | { readonly skip: string } => {
  const availability = qdrantAvailability()
  if ("binary" in availability) return { binary: availability.binary }
  if ("url" in availability) return { url: availability.url, apiKey: process.env.QDRANT_API_KEY || undefined }
  return availability
}

/**
 * The seeded catalog the fill writes: the first `products` text only, the next `photoProducts` with
 * a photo; and products the queries draw from.
 */
const fillCatalogOf = (options: DistributedOptions) => {
  const products: Array<GeneratedProduct> = []
  const sample = reservoir<ProductSummary>(mulberry32(options.seed).fork(10), 20_000)
  for (const { product, summary } of makeCatalog(options.seed).generate(options.products + options.photoProducts)) {
    products.push(product)
    sample.add(summary)
  }
  return { products, sample: sample.items }
}

export const runDistributedBench = async (argv: ReadonlyArray<string>) => {
  const options = parseDistributedArgs(argv)
  const startedAt = new Date()
  const loadAtStart = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")
  log(
    `distributed bench ${JSON.stringify({ ...options, only: [...options.only] })}; ` +
      `${os.cpus().length} cpus, load average ${loadAtStart}`
  )

  const targets = options.topologies.map((name) => {
    if (name === "redis") return { name, target: undefined }
    const target = qdrantTarget()
    if ("skip" in target) log(`Qdrant topology skipped: ${target.skip}`)
    return { name, target }
  })

  const { products, sample } = fillCatalogOf(options)
  const vectors = await catalogTextVectors(
    products.map((p) => embeddingText(p.data)),
    options.seed,
    os.cpus().length
  )
  const catalog = { products, vectors, photoFrom: options.products }
  const visual = options.only.has("search")
    ? await visualQueries({ seed: options.seed, queries: options.visualQueries })
    : undefined
  let photoHost: PhotoHost | undefined
  if (options.only.has("images")) {
    const photos = await makePhotos(options.ingestPhotoProducts, options.seed)
    log(
      `${photos.length} photos, ` +
        `${(photos.reduce((s, p) => s + p.length, 0) / Math.max(1, photos.length) / 1024).toFixed(0)} KB average`
    )
    photoHost = await startPhotoHost(photos)
  }

  const columns: Array<Column> = []
  try {
    for (const { name, target } of targets) {
      if (target !== undefined && "skip" in target) {
        columns.push({ name, skipped: target.skip })
        continue
      }
      // A topology that fails is reported as such; the other still runs.
      const result = await runTopology(name, target, options, { catalog, sample, visual, photoHost }).then(
        (result) => ({ name, result }),
        (e: unknown) => {
          log(`${topologyLabel[name]} topology failed: ${e instanceof Error ? e.stack : String(e)}`)
          return { name, skipped: `failed: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` }
        }
      )
      columns.push(result)
    }
  } finally {
    await photoHost?.close()
  }

  // ---- Report -------------------------------------------------------------------------------
  const loadAtEnd = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")
  const out = [
    "",
    `## Distributed benchmark results (${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC)`,
    "",
    `Options: \`--distributed --products ${options.products} --photo-products ${options.photoProducts} ` +
      `--ingest-products ${options.ingestProducts} ` +
      `--ingest-photo-products ${options.ingestPhotoProducts} --bulk-products ${options.bulkProducts} ` +
      `--queries ${options.queries} --visual-queries ${options.visualQueries} --page ${options.page} ` +
      `--concurrency ${options.concurrency} --workers ${options.workers.join(",")} --repeats ` +
      `${options.repeats} --seed ${options.seed} ` +
      `--only ${[...options.only].join(",")} --topologies ${options.topologies.join(",")}\`.`,
    `Machine: ${os.cpus().length} cpus (${os.cpus()[0]?.model.trim()}), ` +
      `${(os.totalmem() / 1024 ** 3).toFixed(0)} GB, Node ${process.version}; ` +
      `load average ${loadAtStart} at start, ${loadAtEnd} at end (other workloads share the cores, so ` +
      `figures are noisy).`,
    "Every process is separate on this machine: one redis-server (AOF everysec), " +
      "Qdrant (Qdrant topology; telemetry off, its own temp storage), " +
      "the api and each worker (EMBED_THREADS=1, IMAGE_THREADS=1). Redis-only keeps a replica of the whole " +
      "index in the api and in every worker; " +
      "with Qdrant they keep none.",
    "The catalog is filled by a bulk path in the bench process, not by the workers " +
      "(worker indexing through the real models would take hours per topology at this size): it builds the worker's catalog services " +
      "from src/topology with the cluster's " +
      "environment and writes what a worker writes (record, image analysis, derived text vector from the " +
      "real embedder, index document, vocabulary); " +
      "photo vectors are precomputed (real anchor embeddings + noise). " +
      "Ingestion rows go through the real path: PUT /product, queues, worker processes.",
    "Latency is over HTTP/1.1 keep-alive on loopback, one request in flight, after a warm-up. " +
      "Memory per product is each process's RSS growth " +
      "over the fill divided by the products filled (a worker: once serving, before the warm-up's nearly " +
      "empty catalog vs after the fill).",
    "",
    markdownTable(tableHeader(columns), distributedTable(columns, options.workers)),
    ...skipNotes(columns).map((note) => `\n${note}`)
  ].join("\n")
  process.stdout.write(`${out}\n`)
}
