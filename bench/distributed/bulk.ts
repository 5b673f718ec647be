/**
 * The distributed bench's bulk section (`--only bulk`): with `workers` worker processes serving,
 * one streamed POST /products/bulk of `--bulk-products` fresh text products to the api while one
 * shopper searches back to back, then a second push of price and stock patches. Measures what
 * the single-process bulk section does (bench/catalog/bulk.ts), through the real multi-process
 * path: the api writes each batch to Redis and indexes it by its words (in its replica and the
 * shared change feed, or in Qdrant), the workers embed through BullMQ.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { patchData, pushBulk, writeLines } from "../catalog/bulk.js"
import { fmtRate, log, pendingJobs, sleep } from "../catalog/common.js"
import { makeCatalog, type ProductSummary } from "../catalog/generator.js"
import type { Client } from "../catalog/http.js"
import { mulberry32 } from "../catalog/random.js"
import { ms, type Summary, summarize } from "../catalog/stats.js"
import { textQueries } from "../catalog/workload.js"
import { type Cluster, cpuDelta, type CpuSnapshot } from "./cluster.js"
import { allFound, load, type Probe } from "./ingestion.js"
import { type PlainUpsert, plainUpsert } from "./plain-upsert.js"

export interface BulkRun {
  readonly workers: number
  readonly products: number
  /** Lines answered per second, and how many answers were not 200. */
  readonly acceptRate: number
  readonly failed: number
  /** Seconds from the push's start until every probe was found by its words (all acknowledged lines are). */
  readonly lexicalSeconds: number
  /** Seconds from the push's start until no job was left (every text embedded by the workers). */
  readonly embeddedSeconds: number
  readonly searches: Summary
  readonly searchErrors: number
  readonly patchRate: number
  readonly patchFailed: number
  /** Whether the last price patch was found by a price filter right after its push. */
  readonly patchVisible: boolean
  /** Highest RSS of each process, sampled every half second from the push's start until embedded. */
  readonly peakRss: { readonly api: number; readonly redis: number; readonly qdrant: number; readonly workers: number }
  /** CPU seconds of each process from the push's start until embedded. */
  readonly cpu: CpuSnapshot
  readonly load: string
  /**
   * With Qdrant: the same products upserted straight into it (plain-upsert.ts), right after
   * `alone`, in the same state (no worker running, nobody searching, nothing being optimized).
   */
  readonly plain: PlainUpsert | undefined
  /**
   * Beside the plain upsert, in its conditions: the same products pushed (under other ids) with
   * no worker taking jobs and nobody searching; lines answered per second, and Qdrant's CPU
   * seconds over the push. Deleted afterwards.
   */
  readonly alone: { readonly rate: number; readonly failed: number; readonly qdrantCpu: number } | undefined
}

const EMBED_TIMEOUT_MS = 60 * 60_000

/** Samples every process's RSS until stopped; the peak of each (workers summed). */
const peakSampler = (cluster: Cluster) => {
  const peak = { api: 0, redis: 0, qdrant: 0, workers: 0 }
  const sample = () => {
    const rss = cluster.rss()
    peak.api = Math.max(peak.api, rss.api ?? 0)
    peak.redis = Math.max(peak.redis, rss.redis ?? 0)
    peak.qdrant = Math.max(peak.qdrant, rss.qdrant ?? 0)
    peak.workers = Math.max(
      peak.workers,
      rss.workers.reduce((s, n) => s + n, 0)
    )
  }
  const timer = setInterval(sample, 500)
  return { stop: () => (clearInterval(timer), sample(), peak) }
}

/** Every job done: the lanes and the api's own queue empty. */
const drained = async (cluster: Cluster, client: Client) => {
  while ((await pendingJobs(client)) !== 0 || Object.values(await cluster.counts()).some((c) => c.pending > 0))
    await sleep(250)
}

/**
 * The push in the plain upsert's conditions (no worker running, nobody searching): the same
 * products under ids of their own; then the plain upsert of the same products (into a fresh
 * collection), before anything else runs, so both meet Qdrant in one state; then the products
 * are deleted and their jobs (no-ops by then) run off by the workers before the measured push.
 */
const pushAloneAndPlain = async (
  cluster: Cluster,
  client: Client,
  items: ReadonlyArray<{ readonly id: string; readonly data: Record<string, unknown> }>,
  dir: string,
  tag: string,
  workers: number,
  seed: number
) => {
  const file = join(dir, "alone.ndjson")
  await writeLines(
    file,
    items.map((item) => `${JSON.stringify({ id: `${item.id}-alone`, data: item.data })}\n`)
  )
  await cluster.pause()
  const cpuStart = cluster.cpu().qdrant
  const push = await pushBulk(cluster.baseUrl, cluster.basic, file, () => {})
  const qdrantCpu = cluster.cpu().qdrant - cpuStart
  const rate = push.answered / push.seconds
  log(
    `${tag}: alone (no worker, nobody searching): ${push.answered} lines in ${push.seconds.toFixed(1)} s = ` +
      `${fmtRate(rate)}/s, Qdrant ${((1000 * qdrantCpu) / push.answered).toFixed(2)} CPU ms a product`
  )
  const plain = await plainUpsert(cluster, items, seed)
  await writeLines(
    file,
    items.map((item) => `${JSON.stringify({ id: `${item.id}-alone`, delete: true })}\n`)
  )
  await pushBulk(cluster.baseUrl, cluster.basic, file, () => {})
  await cluster.startWorkers(workers)
  await cluster.resume()
  await drained(cluster, client)
  await cluster.pause()
  await cluster.stopWorkers()
  return { alone: { rate, failed: push.failed, qdrantCpu }, plain }
}

export const bulkRun = async (
  cluster: Cluster,
  client: Client,
  options: {
    readonly workers: number
    readonly tag: string
    readonly products: number
    readonly seed: number
    readonly page: number
    /** Upsert the same products straight into Qdrant too, once the run is over. */
    readonly plainPeer: boolean
  }
): Promise<BulkRun> => {
  const { tag, workers } = options
  const items: Array<{
    id: string
    summary: ProductSummary
    line: string
    title: string
    data: Record<string, unknown>
  }> = []
  for (const [i, { product, summary }] of [...makeCatalog(options.seed).generate(options.products)].entries()) {
    const id = `${tag}-${String(i).padStart(7, "0")}`
    const data = { ...product.data, link: `https://shop.example.com/p/${id}`, custom_label_4: tag }
    items.push({
      id,
      summary: { ...summary, id },
      line: `${JSON.stringify({ id, data })}\n`,
      title: product.data.title ?? "",
      data
    })
  }
  const dir = mkdtempSync(join(tmpdir(), "commerce-dbulk-"))
  const catalogFile = join(dir, "catalog.ndjson")
  const patchFile = join(dir, "patches.ndjson")
  try {
    await writeLines(
      catalogFile,
      items.map((item) => item.line)
    )
    const patchRandom = mulberry32(options.seed).fork(52)
    // The last priced one is looked for.
    const patchesOf = items.map((_, i) => patchData(i, patchRandom))
    await writeLines(
      patchFile,
      items.map((item, i) => `${JSON.stringify({ id: item.id, patch: { data: patchesOf[i] } })}\n`)
    )

    // Shoppers ask about the products being pushed (the first ones are found early on).
    const queries = textQueries(
      mulberry32(options.seed).fork(51),
      items.slice(0, Math.min(items.length, 5_000)).map((i) => i.summary),
      5_000,
      options.page
    )
    const { alone, plain } = options.plainPeer
      ? await pushAloneAndPlain(cluster, client, items, dir, tag, workers, options.seed)
      : { alone: undefined, plain: undefined }
    const procs = await cluster.startWorkers(workers)
    await cluster.resume()
    log(`${tag}: ${procs.length} worker(s) serving; load ${load()}`)
    const loadStart = load()
    const cpuStart = cluster.cpu()
    const sampler = peakSampler(cluster)
    let pushing = true
    const during: Array<number> = []
    let searchErrors = 0
    const searches = (async () => {
      for (let i = 0; pushing; i = (i + 1) % queries.length) {
        const res = await client.request("POST", "/text-search", cluster.bearer, queries[i].body)
        if (!pushing) break
        during.push(res.ms)
        if (res.status !== 200 && searchErrors++ < 3)
          log(`${tag}: text-search during the push: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
      }
    })()
    const started = performance.now()
    let answered = 0
    const progress = setInterval(
      () => log(`${tag}: ${answered}/${items.length} answered, ${during.length} searches; load ${load()}`),
      10_000
    )
    const push = await pushBulk(cluster.baseUrl, cluster.basic, catalogFile, (n) => (answered = n))
    clearInterval(progress)
    pushing = false
    await searches
    for (const e of push.firstErrors) log(`${tag}: bulk error ${e}`)
    const acceptRate = push.answered / push.seconds
    const searchLatency = summarize(during)
    log(
      `${tag}: ${push.answered} lines answered (${push.failed} not 200) in ${push.seconds.toFixed(1)} s = ` +
        `${fmtRate(acceptRate)}/s; ` +
        `text search during the push p50 ${ms(searchLatency.p50)} / p99 ${ms(searchLatency.p99)} ms ` +
        `(${during.length}); load ${load()}`
    )

    // Lexical first: every acknowledged line is searchable by its words; probes across the push stand for all.
    const probes: Array<Probe> = [
      items.length - 1,
      ...Array.from({ length: 9 }, (_, k) => Math.floor((k * items.length) / 9))
    ].map((i) => ({ id: items[i].id, title: items[i].title, filter: { column: "custom_label_4", value: tag } }))
    // Timed at the start of the check that found them all: ten searches take a while of their own
    // when searches are slow during the push's aftermath.
    let lexicalSeconds = NaN
    for (;;) {
      const checking = performance.now()
      if (await allFound(client, cluster.bearer, probes)) {
        lexicalSeconds = (checking - started) / 1000
        break
      }
      if (performance.now() - started > EMBED_TIMEOUT_MS) throw new Error(`${tag}: products not found by their words`)
      await sleep(100)
    }
    log(
      `${tag}: found by their words ${lexicalSeconds.toFixed(1)} s after the push started ` +
        `(${(lexicalSeconds - push.seconds).toFixed(1)} s after its end)`
    )

    let lastLog = performance.now()
    while (true) {
      const counts = await cluster.counts()
      if ((await pendingJobs(client)) === 0 && Object.values(counts).every((c) => c.pending === 0)) break
      if (performance.now() - started > EMBED_TIMEOUT_MS)
        throw new Error(`${tag}: not embedded after ${EMBED_TIMEOUT_MS / 1000} s`)
      if (performance.now() - lastLog > 15_000) {
        lastLog = performance.now()
        log(
          `${tag}: pending ${Object.entries(counts)
            .map(([lane, c]) => `${lane} ${c.pending}`)
            .join(", ")}; load ${load()}`
        )
      }
      await sleep(250)
    }
    const embeddedSeconds = (performance.now() - started) / 1000
    const cpu = cpuDelta(cpuStart, cluster.cpu())
    const peakRss = sampler.stop()
    log(
      `${tag}: all embedded ${embeddedSeconds.toFixed(1)} s after the push started ` +
        `(${fmtRate(items.length / embeddedSeconds)}/s)`
    )

    // Price and stock patches: no text changes, so no model call and no job for the workers' model.
    const patches = await pushBulk(cluster.baseUrl, cluster.basic, patchFile, () => {})
    const lastPriced = items.length - 1 - ((items.length - 1) % 2)
    const { price } = patchesOf[lastPriced] as { readonly price: number }
    const found = await client.request("POST", "/text-search", cluster.bearer, {
      query: "",
      resultsCount: 1000,
      staticFilters: { included: [{ column: "custom_label_4", values: [tag] }] },
      dynamicFilters: [{ column: "price", values: { start: price, end: price + 0.005 } }]
    })
    const patchVisible =
      found.status === 200 &&
      found.body?.data?.products?.some((p: { productId?: string }) => p.productId === items[lastPriced].id) === true
    const patchRate = patches.answered / patches.seconds
    log(
      `${tag}: ${patches.answered} patches (${patches.failed} not 200) in ${patches.seconds.toFixed(1)} s ` +
        `= ${fmtRate(patchRate)}/s; last price found by a filter at once: ${patchVisible}`
    )
    // The workers' follow-ups of the patches (none need the model) are done before the next run.
    await drained(cluster, client)
    await cluster.pause()
    await cluster.stopWorkers()
    return {
      plain,
      alone,
      workers,
      products: items.length,
      acceptRate,
      failed: push.failed,
      lexicalSeconds,
      embeddedSeconds,
      searches: searchLatency,
      searchErrors,
      patchRate,
      patchFailed: patches.failed,
      patchVisible,
      peakRss,
      cpu,
      load: `${loadStart} → ${load()}`
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
