/**
 * Everything measured on one topology, in order: the cluster started (redis-server [+ Qdrant] +
 * api), a warm-up, the bulk fill to the full catalog, waiting until the api serves all of it,
 * text and visual search over HTTP, then pushes and worker ingestion on top of the full index;
 * the processes' RSS before and after the fill and at the end.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { log, sleep } from "../catalog/common.js"
import type { ProductSummary } from "../catalog/generator.js"
import { makeClient } from "../catalog/http.js"
import { mb, ms, type Summary, summarize } from "../catalog/stats.js"
import { stageBreakdown } from "../catalog/server-timing.js"
import { measureTextSearch, overallHits, roundsSummary } from "../catalog/text-search.js"
import { measureVisualSearch, type visualQueries } from "../catalog/visual.js"
import { type CpuSnapshot, type QdrantTarget, type RssSnapshot, startCluster } from "./cluster.js"
import { type FillCatalog, fillCatalog, type FillResult } from "./fill.js"
import {
  allFound,
  drainQueues,
  indexingProcesses,
  type IndexRun,
  indexRun,
  load,
  type MeasuredPush,
  measuredPush,
  productsFor,
  type Probe,
  runQueued
} from "./ingestion.js"
import type { PhotoHost } from "./photos.js"
import { type BulkRun, bulkRun } from "./bulk.js"

export const TOPOLOGIES = ["redis", "qdrant"] as const
export type TopologyName = (typeof TOPOLOGIES)[number]
export const topologyLabel: Record<TopologyName, string> = { redis: "Redis-only", qdrant: "Qdrant" }

export const SECTIONS = ["search", "push", "text", "images", "bulk"] as const
export type Section = (typeof SECTIONS)[number]

export interface RunOptions {
  readonly ingestProducts: number
  /** Products of each bulk run (`--only bulk`). */
  readonly bulkProducts: number
  readonly ingestPhotoProducts: number
  readonly queries: number
  readonly page: number
  readonly concurrency: number
  readonly workers: ReadonlyArray<number>
  readonly repeats: number
  readonly seed: number
  readonly only: ReadonlySet<Section>
}

/**
 * What every topology shares: the catalog to fill, the products text queries are drawn from,
 * the visual-search query photos (with the search section) and the photo host (with images).
 */
export interface Shared {
  readonly catalog: FillCatalog
  readonly sample: ReadonlyArray<ProductSummary>
  readonly visual: Awaited<ReturnType<typeof visualQueries>> | undefined
  readonly photoHost: PhotoHost | undefined
}

/** One search endpoint measured over HTTP. */
export interface SearchFigures {
  readonly latency: Summary
  readonly errors: number
  /** Mean / p99 ms per stage of the api's Server-Timing header. */
  readonly stages: string
}

export interface TopologyResult {
  readonly name: TopologyName
  readonly fill: FillResult & {
    /** Seconds from the end of the fill until the api found every probe. */
    readonly servedSeconds: number
    /** Seconds from then until Qdrant's optimizers were idle (Qdrant only). */
    readonly settledSeconds: number | undefined
    /** Jobs the api's reconcile pass queued while the fill was under way (run before measuring). */
    readonly drainedJobs: number
  }
  readonly rss: { readonly beforeFill: RssSnapshot; readonly afterFill: RssSnapshot; readonly end: RssSnapshot }
  /** A worker's RSS once serving, on the nearly empty catalog of the warm-up. */
  readonly workerRssEmpty: number | undefined
  readonly qdrantDiskBytes: number | undefined
  /** `hits`: mean results per query / share of queries with none. */
  readonly text: (SearchFigures & { readonly hits: string; readonly rounds: string | undefined }) | undefined
  readonly visual: (SearchFigures & { readonly meanResults: number }) | undefined
  readonly pushes: ReadonlyArray<MeasuredPush>
  readonly runs: ReadonlyArray<IndexRun>
  readonly bulk: ReadonlyArray<BulkRun>
  /** The processes whose CPU time indexing costs. */
  readonly indexingProcesses: ReadonlyArray<keyof CpuSnapshot>
  /** Answers by status: to PUT /product (pushes and ingestion), and to searches and polling. */
  readonly statuses: { readonly put: ReadonlyMap<number, number>; readonly search: ReadonlyMap<number, number> }
  readonly load: { readonly start: string; readonly end: string }
}

/**
 * Disk space taken by the files under `dir`: allocated blocks, not apparent sizes (Qdrant's
 * preallocated, sparse WAL and mmap files would count in full). Qdrant may still be writing,
 * so a file can go between listing and reading it.
 */
const diskUsage = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => fs.statSync(path.join(dir, name), { throwIfNoEntry: false }))
    .reduce((sum, stat) => sum + (stat?.isFile() ? stat.blocks * 512 : 0), 0)

const merged = (maps: ReadonlyArray<ReadonlyMap<number, number>>) => {
  const out = new Map<number, number>()
  for (const m of maps) for (const [status, n] of m) out.set(status, (out.get(status) ?? 0) + n)
  return out
}

/** Products across the filled catalog, each found by its title among products of its (unique) mpn. */
const fillProbes = (catalog: FillCatalog): Array<Probe> => {
  const n = catalog.products.length
  const positions = new Set([
    0,
    catalog.photoFrom - 1,
    catalog.photoFrom,
    n - 1,
    ...Array.from({ length: 8 }, (_, k) => Math.floor((k * n) / 8))
  ])
  return [...positions]
    .filter((i) => i >= 0 && i < n)
    .map((i) => {
      const { data, id } = catalog.products[i]
      return { id, title: data.title ?? "", filter: { column: "mpn", value: data.mpn ?? "" } }
    })
}

const SERVE_TIMEOUT_MS = 20 * 60_000
/** How long Qdrant's index build after the fill may take: HNSW graphs of the whole catalog's vectors. */
const SETTLE_TIMEOUT_MS = 60 * 60_000

export const runTopology = async (
  name: TopologyName,
  qdrant: QdrantTarget | undefined,
  options: RunOptions,
  shared: Shared
): Promise<TopologyResult> => {
  const loadStart = load()
  log(`---- ${topologyLabel[name]} topology; load ${loadStart}`)
  // BENCH_API_NODE_OPTIONS / BENCH_WORKER_NODE_OPTIONS (e.g. "--import ./profile-hook.mjs") go to
  // the api or the worker processes only.
  const nodeOptions = (value: string | undefined): Record<string, string> => (value ? { NODE_OPTIONS: value } : {})
  const cluster = await startCluster({
    apiEnv: nodeOptions(process.env.BENCH_API_NODE_OPTIONS),
    workerEnv: nodeOptions(process.env.BENCH_WORKER_NODE_OPTIONS),
    qdrant
  })
  // Readiness polls and searches; every push opens connections of its own.
  const client = makeClient(cluster.baseUrl, 4)
  const pushes: Array<MeasuredPush> = []
  const runs: Array<IndexRun> = []
  const bulk: Array<BulkRun> = []
  const putStatuses: Array<ReadonlyMap<number, number>> = []
  try {
    // Warm-up: JIT, the credential cache, the Redis scripts, a worker's model files in the
    // page cache. 4,000 PUTs cycle over 100 products (their jobs coalesce), which are indexed
    // and out of the way before anything is measured.
    const warm = productsFor(options.seed + 1, "warm", 100)
    const warmPush = await measuredPush(
      cluster,
      Array.from({ length: 4_000 }, (_, i) => warm[i % warm.length]),
      options.concurrency
    )
    putStatuses.push(warmPush.statuses)
    await cluster.startWorkers(1)
    const workerRssEmpty = cluster.rss().workers[0]
    await runQueued(cluster, client)
    await cluster.stopWorkers()
    log(`warm-up done; load ${load()}`)

    // ---- The full catalog, through the bulk path ---------------------------------------------
    const beforeFill = cluster.rss()
    // A bulk load as Qdrant advises: no index builds while it lasts, one when it ends. Built
    // as the points arrive, each merge of segments would re-build its HNSW graphs.
    const threshold = await cluster.qdrant?.indexing(0)
    const filled = await fillCatalog(cluster, shared.catalog, options.seed)
    if (cluster.qdrant) await cluster.qdrant.indexing(threshold ?? null)
    log(
      `fill: ${filled.products} products (${filled.photos} with a photo) written in ` +
        `${filled.seconds.toFixed(0)} s after ${filled.anchorSeconds.toFixed(0)} s of photo anchors ` +
        `(store ${filled.storeSeconds.toFixed(0)} s, index ${filled.indexSeconds.toFixed(0)} s, vocabulary ` +
        `${filled.suggestSeconds.toFixed(0)} s); load ${load()}`
    )
    const filledAt = performance.now()
    const probes = fillProbes(shared.catalog)
    while (!(await allFound(client, cluster.bearer, probes))) {
      if (performance.now() - filledAt > SERVE_TIMEOUT_MS)
        throw new Error(`the api does not serve the filled catalog after ${SERVE_TIMEOUT_MS / 1000} s`)
      await sleep(500)
    }
    const servedSeconds = (performance.now() - filledAt) / 1000
    log(`the api serves the whole catalog ${servedSeconds.toFixed(1)} s after the fill`)
    let settledSeconds: number | undefined
    if (cluster.qdrant) {
      // Measured once Qdrant's optimizers (segment merges, HNSW builds) are idle, so latency is not theirs.
      const settling = performance.now()
      let status = await cluster.qdrant.status()
      while (status === "yellow") {
        if (performance.now() - settling > SETTLE_TIMEOUT_MS)
          throw new Error(`Qdrant's collection still ${status} after ${SETTLE_TIMEOUT_MS / 1000} s`)
        await sleep(1_000)
        status = await cluster.qdrant.status()
      }
      settledSeconds = (performance.now() - settling) / 1000
      log(`Qdrant collection ${status} ${settledSeconds.toFixed(1)} s later`)
    }
    const drainedJobs = await drainQueues(cluster, client, "by the api's reconcile pass during the fill")
    const afterFill = cluster.rss()
    const qdrantDiskBytes = cluster.qdrant?.storageDir === undefined ? undefined : diskUsage(cluster.qdrant.storageDir)
    log(
      `RSS before → after the fill: api ${mb(beforeFill.api ?? NaN)} → ${mb(afterFill.api ?? NaN)}, ` +
        `redis ${mb(beforeFill.redis ?? NaN)} → ${mb(afterFill.redis ?? NaN)}` +
        `${
          afterFill.qdrant === undefined
            ? ""
            : `, qdrant ${mb(beforeFill.qdrant ?? NaN)} → ${mb(afterFill.qdrant)} ` +
              `(storage ${mb(qdrantDiskBytes ?? NaN)} on disk)`
        }`
    )

    // ---- Search over HTTP ----------------------------------------------------------------------
    let text: TopologyResult["text"]
    let visual: TopologyResult["visual"]
    if (shared.visual) {
      const measured = await measureTextSearch(client, cluster.bearer, shared.sample, options)
      text = {
        latency: summarize(measured.samples.all),
        errors: measured.errors,
        hits: overallHits(measured.hits, measured.queries.length),
        stages: stageBreakdown(measured.stages),
        rounds: measured.rounds.has("qdrant") ? roundsSummary(measured.rounds.get("qdrant")!) : undefined
      }
      if (text.rounds !== undefined) log(`text search, Qdrant rounds / requests per search (p50 / max): ${text.rounds}`)
      log(
        `text search: p50 ${ms(text.latency.p50)} ms, p99 ${ms(text.latency.p99)} ms, ` +
          `${text.errors} errors; load ${load()}`
      )
      log(`text search stages (mean / p99 ms): ${text.stages}`)
      const visualRun = await measureVisualSearch(client, cluster.bearer, shared.visual, options.page)
      visual = {
        latency: summarize(visualRun.samples),
        errors: visualRun.errors,
        meanResults: visualRun.meanResults,
        stages: stageBreakdown(visualRun.stages)
      }
      log(
        `visual search: p50 ${ms(visual.latency.p50)} ms, p99 ${ms(visual.latency.p99)} ms, ` +
          `${visual.errors} errors; load ${load()}`
      )
      log(`visual search stages (mean / p99 ms): ${visual.stages}`)
    }

    // ---- Pushes and ingestion on top of the full index -------------------------------------
    if (options.only.has("push") && !options.only.has("text")) {
      for (let r = 1; r <= options.repeats; r++) {
        const pushed = await measuredPush(
          cluster,
          productsFor(options.seed + 3, `push${r}`, options.ingestProducts),
          options.concurrency
        )
        pushes.push(pushed)
        putStatuses.push(pushed.statuses)
      }
      // Indexed before the photo runs, whose timing would otherwise include them.
      await drainQueues(cluster, client, "by the pushes")
    }
    if (options.only.has("text")) {
      for (let r = 1; r <= options.repeats; r++) {
        for (const w of options.workers) {
          const tag = `t${w}w${r}`
          const run = await indexRun(cluster, client, {
            kind: "text",
            workers: w,
            tag,
            items: productsFor(options.seed + 3, tag, options.ingestProducts),
            concurrency: options.concurrency
          })
          runs.push(run)
          putStatuses.push(run.push.statuses)
          if (options.only.has("push")) pushes.push(run.push)
        }
      }
    }
    const host = shared.photoHost
    if (options.only.has("images") && host) {
      for (let r = 1; r <= options.repeats; r++) {
        for (const w of options.workers) {
          const tag = `i${w}w${r}`
          const items = productsFor(options.seed + 2, tag, options.ingestPhotoProducts, (i) => host.url(tag, i))
          const run = await indexRun(cluster, client, {
            kind: "images",
            workers: w,
            tag,
            items,
            concurrency: Math.min(options.concurrency, 16)
          })
          runs.push(run)
          putStatuses.push(run.push.statuses)
        }
      }
    }
    if (options.only.has("bulk")) {
      for (let r = 1; r <= options.repeats; r++) {
        for (const w of options.workers) {
          bulk.push(
            await bulkRun(cluster, client, {
              workers: w,
              tag: `b${w}w${r}`,
              products: options.bulkProducts,
              seed: options.seed + 5 + r,
              page: options.page,
              plainPeer: r === 1 && w === options.workers[0] && cluster.qdrant !== undefined
            })
          )
        }
      }
    }
    return {
      name,
      fill: { ...filled, servedSeconds, settledSeconds, drainedJobs },
      rss: { beforeFill, afterFill, end: cluster.rss() },
      workerRssEmpty,
      qdrantDiskBytes,
      text,
      visual,
      pushes,
      runs,
      bulk,
      indexingProcesses: indexingProcesses(cluster),
      statuses: { put: merged(putStatuses), search: client.statuses() },
      load: { start: loadStart, end: load() }
    }
  } finally {
    client.close()
    await cluster.close()
  }
}
