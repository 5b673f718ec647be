/**
 * Ingestion through the real worker path: products pushed over HTTP (PUT /product) while the
 * queues are paused, then worker processes started and the queues resumed, timed until every
 * job is done and the products are found by search.
 */
import * as os from "node:os"
import type { ProductRecord } from "../../src/domain/Product.js"
import { fmtRate, log, pendingJobs, sleep } from "../catalog/common.js"
import { makeCatalog } from "../catalog/generator.js"
import { type Client, makeClient } from "../catalog/http.js"
import { mb, ms } from "../catalog/stats.js"
import { type Cluster, cpuDelta, type CpuSnapshot } from "./cluster.js"
import { push, type PushItem, type PushResult } from "./push.js"

export const load = () => os.loadavg()[0].toFixed(2)

/** `count` products of the seeded catalog under fresh ids `<tag>-<n>`, tagged so a search can tell the runs apart. */
export const productsFor = (seed: number, tag: string, count: number, image?: (i: number) => string): Array<PushItem> =>
  [...makeCatalog(seed).generate(count)].map(({ product }, i) => {
    const id = `${tag}-${String(i).padStart(6, "0")}`
    const data = { ...product.data, link: `https://shop.example.com/p/${id}`, custom_label_4: tag } as ProductRecord
    return image ? { id, data, images: [{ url: image(i) }] } : { id, data }
  })

/** A product a search must find: by its title, among the products with `filter`'s value. */
export interface Probe {
  readonly id: string
  readonly title: string
  readonly filter: { readonly column: string; readonly value: string }
}

/** True when the search for each probe's title, filtered to its value, returns the probe. */
export const allFound = async (client: Client, auth: string, probes: ReadonlyArray<Probe>): Promise<boolean> => {
  for (const probe of probes) {
    const res = await client.request("POST", "/text-search", auth, {
      query: probe.title,
      resultsCount: 100,
      staticFilters: { included: [{ column: probe.filter.column, values: [probe.filter.value] }] }
    })
    if (res.status !== 200 || !res.body?.data?.products?.some((p: { productId?: string }) => p.productId === probe.id))
      return false
  }
  return true
}

/** The last product and 9 spread over the rest: the index applies writes in order, so these stand for all. */
const runProbes = (items: ReadonlyArray<PushItem>, tag: string): Array<Probe> =>
  [items[items.length - 1], ...Array.from({ length: 9 }, (_, k) => items[Math.floor((k * items.length) / 9)])].map(
    (item) => ({ id: item.id, title: item.data.title ?? "", filter: { column: "custom_label_4", value: tag } })
  )

export interface MeasuredPush extends PushResult {
  /** Load average (1 min) before → after. */
  readonly load: string
  /** CPU seconds each process spent during the push. */
  readonly cpu: CpuSnapshot
  /** Answers by HTTP status. */
  readonly statuses: ReadonlyMap<number, number>
}

/**
 * A push on fresh keep-alive connections: ones left idle by an earlier phase may be closed by
 * the api (its keep-alive timeout) just as they are reused, which would fail the first requests.
 */
export const measuredPush = async (
  cluster: Cluster,
  items: ReadonlyArray<PushItem>,
  concurrency: number
): Promise<MeasuredPush> => {
  const client = makeClient(cluster.baseUrl, concurrency)
  try {
    const loadBefore = load()
    const cpuBefore = cluster.cpu()
    const result = await push(client, cluster.basic, items, concurrency)
    return {
      ...result,
      load: `${loadBefore} → ${load()}`,
      cpu: cpuDelta(cpuBefore, cluster.cpu()),
      statuses: client.statuses()
    }
  } finally {
    client.close()
  }
}

/** CPU milliseconds per product of each process. */
export const cpuPer = (cpu: CpuSnapshot, n: number, which: ReadonlyArray<keyof CpuSnapshot>) =>
  which.map((k) => `${k} ${((cpu[k] * 1000) / n).toFixed(2)}`).join(", ")

/**
 * The processes that index: the workers, the api (it applies index changes to its replica), Redis,
 * and Qdrant where the cluster runs it.
 */
export const indexingProcesses = (cluster: Cluster): ReadonlyArray<keyof CpuSnapshot> =>
  cluster.qdrant?.storageDir !== undefined ? ["workers", "api", "redis", "qdrant"] : ["workers", "api", "redis"]

export interface IndexRun {
  readonly kind: "text" | "images"
  readonly workers: number
  readonly products: number
  readonly images: number
  readonly seconds: number
  /** Seconds from resume until the images lane was empty (first image pass done); images runs only. */
  readonly firstPassSeconds: number
  readonly failedJobs: number
  /** Jobs each worker reported handled, all lanes. */
  readonly shares: ReadonlyArray<number>
  readonly push: MeasuredPush
  /** Seconds until every worker served (its replicas filled from the store). */
  readonly startSeconds: number
  /** RSS of each worker once serving (models loaded, replicas filled, no job taken yet). */
  readonly workerRss: ReadonlyArray<number>
  /** CPU seconds during indexing. */
  readonly cpu: CpuSnapshot
  readonly loadStart: string
  readonly loadEnd: string
}

const TIMEOUT_MS = 30 * 60_000

const failedJobs = async (cluster: Cluster) => Object.values(await cluster.counts()).reduce((s, c) => s + c.failed, 0)

/**
 * One indexing measurement: push `items` (queues paused, no worker), start `workers` worker
 * processes and wait until they serve, resume the queues, time until drained and searchable.
 */
export const indexRun = async (
  cluster: Cluster,
  client: Client,
  options: {
    kind: "text" | "images"
    workers: number
    tag: string
    items: ReadonlyArray<PushItem>
    concurrency: number
  }
): Promise<IndexRun> => {
  const { items, kind, tag, workers } = options
  await cluster.pause()
  const pushed = await measuredPush(cluster, items, options.concurrency)
  log(
    `${tag}: pushed ${items.length} products at ${fmtRate(pushed.rate)}/s ` +
      `(p50 ${ms(pushed.latency.p50)} ms, p99 ${ms(pushed.latency.p99)} ms, ` +
      `${pushed.errors} errors, ` +
      `CPU ms per PUT ${cpuPer(pushed.cpu, items.length, ["api", "redis", "bench"])}; load ${pushed.load})`
  )
  const failedBefore = await failedJobs(cluster)
  const starting = performance.now()
  const procs = await cluster.startWorkers(workers, kind === "images" ? { IMAGE_ALLOWED_CIDRS: "127.0.0.0/8" } : {})
  const startSeconds = (performance.now() - starting) / 1000
  const workerRss = cluster.rss().workers
  log(`${tag}: ${workers} worker(s) serving after ${startSeconds.toFixed(1)} s, RSS ${workerRss.map(mb).join(", ")}`)
  // Let the workers' start-up settle before the clock starts.
  await sleep(2_000)
  const handledBefore = procs.map((w) => Object.values(w.handled()).reduce((s, n) => s + n, 0))
  const loadStart = load()
  const cpuStart = cluster.cpu()
  const started = performance.now()
  await cluster.resume()
  let firstPass = NaN
  let lastLog = started
  const probes = runProbes(items, tag)
  while (true) {
    const elapsed = performance.now() - started
    if (elapsed > TIMEOUT_MS)
      throw new Error(`${tag}: not indexed after ${TIMEOUT_MS / 1000} s: ${JSON.stringify(await cluster.counts())}`)
    const counts = await cluster.counts()
    if (kind === "images" && Number.isNaN(firstPass) && counts.index.pending === 0 && counts.images.pending === 0)
      firstPass = elapsed / 1000
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now()
      log(
        `${tag}: t=${(elapsed / 1000).toFixed(0)} s pending ${Object.entries(counts)
          .map(([lane, c]) => `${lane} ${c.pending}`)
          .join(", ")}; load ${load()}`
      )
    }
    if (
      (await pendingJobs(client)) === 0 &&
      Object.values(counts).every((c) => c.pending === 0) &&
      (await allFound(client, cluster.bearer, probes))
    )
      break
    await sleep(100)
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuDelta(cpuStart, cluster.cpu())
  const loadEnd = load()
  const failed = (await failedJobs(cluster)) - failedBefore
  const shares = procs.map((w, i) => Object.values(w.handled()).reduce((s, n) => s + n, 0) - handledBefore[i])
  await cluster.stopWorkers()
  log(
    `${tag}: ${items.length} products indexed in ${seconds.toFixed(1)} s = ` +
      `${fmtRate(items.length / seconds)}/s by ${workers} worker(s) ` +
      `(jobs per worker ${shares.join("/")}, ${failed} failed, CPU ms per product ` +
      `${cpuPer(cpu, items.length, indexingProcesses(cluster))}, ` +
      `workers ${(cpu.workers / seconds).toFixed(2)} cores busy; load ${loadStart} → ${loadEnd})`
  )
  return {
    kind,
    workers,
    products: items.length,
    images: items.reduce((s, item) => s + (item.images?.length ?? 0), 0),
    seconds,
    firstPassSeconds: firstPass,
    failedJobs: failed,
    shares,
    push: pushed,
    startSeconds,
    workerRss,
    cpu,
    loadStart,
    loadEnd
  }
}

/**
 * Resumes the queues for the running workers and waits until neither the api nor a lane has a job
 * left; pauses them again.
 */
export const runQueued = async (cluster: Cluster, client: Client) => {
  await cluster.resume()
  while ((await pendingJobs(client)) !== 0 || Object.values(await cluster.counts()).some((c) => c.pending > 0))
    await sleep(200)
  await cluster.pause()
}

/** Runs whatever is queued with one worker (not measured); returns how many jobs there were. */
export const drainQueues = async (cluster: Cluster, client: Client, why: string): Promise<number> => {
  const queued = Object.values(await cluster.counts()).reduce((s, c) => s + c.pending, 0)
  if (queued === 0) return 0
  log(`${queued} jobs queued ${why}: one worker runs them before anything is measured`)
  await cluster.startWorkers(1)
  await runQueued(cluster, client)
  await cluster.stopWorkers()
  return queued
}
