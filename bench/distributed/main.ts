/**
 * Distributed-topology benchmark:
 *   npm run bench -- --distributed [--products N] [--image-products N] [--concurrency N]
 *                                  [--workers 1,2] [--repeats N] [--seed S] [--only push,text,images]
 *
 * Starts a real redis-server, the api and worker processes as separate OS processes (see
 * cluster.ts) and measures:
 * - push: products accepted per second at the api (PUT /product over HTTP, `concurrency` in
 *   flight, no worker running; the queues only fill), with PUT latency p50/p99;
 * - text: products indexed per second by 1 and 2 worker processes (EMBED_THREADS=1 each),
 *   products without images. Each run pushes a fresh set of product ids while the queues are
 *   paused, starts its workers, waits until they serve, then resumes the queues and times
 *   until GET /readyz reports no pending job and the run's products are searchable;
 * - images: the same with one photo per product (small JPEGs from a loopback host, a fresh
 *   URL prefix per run), IMAGE_THREADS=1 per worker: text indexing, the first image pass and
 *   object detection all included.
 * Runs are interleaved (1, 2, 1, 2 workers… with --repeats) so a change of machine load hits
 * both. Prints a markdown table with the machine's load average and each process's CPU time.
 * BENCH_API_NODE_OPTIONS / BENCH_WORKER_NODE_OPTIONS are passed as NODE_OPTIONS to the api or
 * the workers only (a heap setting, or `--import` of a profiler hook).
 */
import * as os from "node:os"
import type { ProductRecord } from "../../src/domain/Product.js"
import { fmtRate, log, sleep } from "../catalog/common.js"
import { makeCatalog } from "../catalog/generator.js"
import { type Client, makeClient } from "../catalog/http.js"
import { markdownTable, ms } from "../catalog/stats.js"
import { type Cluster, cpuDelta, type CpuSnapshot, startCluster } from "./cluster.js"
import { makePhotos, type PhotoHost, startPhotoHost } from "./photos.js"
import { push, type PushItem, type PushResult } from "./push.js"

const SECTIONS = ["push", "text", "images"] as const
type Section = (typeof SECTIONS)[number]

export interface DistributedOptions {
  readonly products: number
  readonly imageProducts: number
  readonly concurrency: number
  readonly workers: ReadonlyArray<number>
  readonly repeats: number
  readonly seed: number
  readonly only: ReadonlySet<Section>
}

const usage = "usage: bench --distributed [--products N] [--image-products N] [--concurrency N] [--workers 1,2] [--repeats N] [--seed S] " +
  `[--only ${SECTIONS.join(",")}]`

export const parseDistributedArgs = (argv: ReadonlyArray<string>): DistributedOptions => {
  const options = { products: 5_000, imageProducts: 400, concurrency: 64, workers: [1, 2] as ReadonlyArray<number>, repeats: 1, seed: 42, only: new Set<Section>(SECTIONS) }
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "")
    const value = argv[i + 1] ?? ""
    if (name === "only") {
      const list = value.split(",").filter((s) => s.length > 0)
      if (list.length === 0 || !list.every((s): s is Section => (SECTIONS as ReadonlyArray<string>).includes(s))) throw new Error(`${usage} (bad: --only ${value})`)
      options.only = new Set(list)
    } else if (name === "workers") {
      const list = value.split(",").map(Number)
      if (list.length === 0 || !list.every((n) => Number.isInteger(n) && n >= 1)) throw new Error(`${usage} (bad: --workers ${value})`)
      options.workers = list
    } else {
      const key = ({ products: "products", "image-products": "imageProducts", concurrency: "concurrency", repeats: "repeats", seed: "seed" } as const)[name as "products"]
      const n = Number(value)
      if (!key || !Number.isInteger(n) || n < 1) throw new Error(`${usage} (bad: ${argv[i]} ${value})`)
      options[key] = n
    }
  }
  return options
}

const load = () => os.loadavg()[0].toFixed(2)

/** `count` products of the seeded catalog under fresh ids `<tag>-<n>`, tagged so a search can tell the runs apart. */
const productsFor = (seed: number, tag: string, count: number, image?: (i: number) => string): Array<PushItem> =>
  [...makeCatalog(seed).generate(count)].map(({ product }, i) => {
    const id = `${tag}-${String(i).padStart(6, "0")}`
    const data = { ...product.data, link: `https://shop.example.com/p/${id}`, custom_label_4: tag } as ProductRecord
    return image ? { id, data, images: [{ url: image(i) }] } : { id, data }
  })

/** True when every sampled product of the run is found by a search for its title. */
const searchable = async (cluster: Cluster, client: Client, items: ReadonlyArray<PushItem>, tag: string): Promise<boolean> => {
  const sample = [items[items.length - 1], ...Array.from({ length: 9 }, (_, k) => items[Math.floor((k * items.length) / 9)])]
  for (const item of sample) {
    const res = await client.request("POST", "/text-search", cluster.bearer, {
      query: item.data.title,
      resultsCount: 100,
      staticFilters: { included: [{ column: "custom_label_4", values: [tag] }] }
    })
    if (res.status !== 200 || !res.body?.data?.products?.some((p: any) => p.productId === item.id)) return false
  }
  return true
}

const pendingAtApi = async (client: Client): Promise<number | null> => {
  const res = await client.request("GET", "/readyz", null).catch(() => null)
  return res && res.status === 200 && typeof res.body?.pendingJobs === "number" ? res.body.pendingJobs : null
}

interface MeasuredPush extends PushResult {
  /** Load average (1 min) before → after. */
  readonly load: string
  /** CPU seconds each process spent during the push. */
  readonly cpu: CpuSnapshot
}

/**
 * A push on fresh keep-alive connections: ones left idle by an earlier phase may be closed by
 * the api (its keep-alive timeout) just as they are reused, which would fail the first requests.
 */
const measuredPush = async (cluster: Cluster, items: ReadonlyArray<PushItem>, concurrency: number): Promise<MeasuredPush> => {
  const client = makeClient(cluster.baseUrl, concurrency)
  try {
    const loadBefore = load()
    const cpuBefore = cluster.cpu()
    const result = await push(client, cluster.basic, items, concurrency)
    return { ...result, load: `${loadBefore} → ${load()}`, cpu: cpuDelta(cpuBefore, cluster.cpu()) }
  } finally {
    client.close()
  }
}

/** CPU milliseconds per product of each process. */
const cpuPer = (cpu: CpuSnapshot, n: number, which: ReadonlyArray<keyof CpuSnapshot>) =>
  which.map((k) => `${k} ${((cpu[k] * 1000) / n).toFixed(2)}`).join(", ")

interface IndexRun {
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
  /** CPU seconds during indexing. */
  readonly cpu: CpuSnapshot
  readonly loadStart: string
  readonly loadEnd: string
}

const TIMEOUT_MS = 30 * 60_000

/**
 * One indexing measurement: push `items` (queues paused, no worker), start `workers` worker
 * processes and wait until they serve, resume the queues, time until drained and searchable.
 */
const indexRun = async (
  cluster: Cluster,
  client: Client,
  options: { kind: "text" | "images"; workers: number; tag: string; items: ReadonlyArray<PushItem>; concurrency: number }
): Promise<IndexRun> => {
  const { items, kind, tag, workers } = options
  await cluster.pause()
  const pushed = await measuredPush(cluster, items, options.concurrency)
  log(`${tag}: pushed ${items.length} products at ${fmtRate(pushed.rate)}/s (p50 ${ms(pushed.latency.p50)} ms, p99 ${ms(pushed.latency.p99)} ms, ` +
    `${pushed.errors} errors, CPU ms per PUT ${cpuPer(pushed.cpu, items.length, ["api", "redis", "bench"])}; load ${pushed.load})`)
  const failedBefore = Object.values(await cluster.counts()).reduce((s, c) => s + c.failed, 0)
  const procs = await cluster.startWorkers(workers, kind === "images" ? { IMAGE_ALLOWED_CIDRS: "127.0.0.0/8" } : {})
  // Let the workers' start-up (model loading, replica sync) settle before the clock starts.
  await sleep(2_000)
  const handledBefore = procs.map((w) => Object.values(w.handled()).reduce((s, n) => s + n, 0))
  const loadStart = load()
  const cpuStart = cluster.cpu()
  const started = performance.now()
  await cluster.resume()
  let firstPass = NaN
  let lastLog = started
  while (true) {
    const elapsed = performance.now() - started
    if (elapsed > TIMEOUT_MS) throw new Error(`${tag}: not indexed after ${TIMEOUT_MS / 1000} s: ${JSON.stringify(await cluster.counts())}`)
    const counts = await cluster.counts()
    if (kind === "images" && Number.isNaN(firstPass) && counts.index.pending === 0 && counts.images.pending === 0) firstPass = elapsed / 1000
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now()
      log(`${tag}: t=${(elapsed / 1000).toFixed(0)} s pending ${Object.entries(counts).map(([lane, c]) => `${lane} ${c.pending}`).join(", ")}; load ${load()}`)
    }
    if ((await pendingAtApi(client)) === 0 && Object.values(counts).every((c) => c.pending === 0) && (await searchable(cluster, client, items, tag))) break
    await sleep(100)
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuDelta(cpuStart, cluster.cpu())
  const loadEnd = load()
  const failedJobs = Object.values(await cluster.counts()).reduce((s, c) => s + c.failed, 0) - failedBefore
  const shares = procs.map((w, i) => Object.values(w.handled()).reduce((s, n) => s + n, 0) - handledBefore[i])
  await cluster.stopWorkers()
  const run: IndexRun = {
    kind,
    workers,
    products: items.length,
    images: items.reduce((s, item) => s + (item.images?.length ?? 0), 0),
    seconds,
    firstPassSeconds: firstPass,
    failedJobs,
    shares,
    push: pushed,
    cpu,
    loadStart,
    loadEnd
  }
  log(`${tag}: ${items.length} products indexed in ${seconds.toFixed(1)} s = ${fmtRate(items.length / seconds)}/s by ${workers} worker(s) ` +
    `(jobs per worker ${shares.join("/")}, ${failedJobs} failed, CPU ms per product ${cpuPer(cpu, items.length, ["workers", "api", "redis"])}, ` +
    `workers ${(cpu.workers / seconds).toFixed(2)} cores busy; load ${loadStart} → ${loadEnd})`)
  return run
}

export const runDistributedBench = async (argv: ReadonlyArray<string>) => {
  const options = parseDistributedArgs(argv)
  const startedAt = new Date()
  const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(" ")
  log(`distributed bench ${JSON.stringify({ ...options, only: [...options.only] })}; ${os.cpus().length} cpus, load average ${loadAtStart}`)

  let host: PhotoHost | undefined
  // BENCH_API_NODE_OPTIONS / BENCH_WORKER_NODE_OPTIONS (e.g. "--import ./profile-hook.mjs") go to
  // the api or the worker processes only.
  const nodeOptions = (value: string | undefined): Record<string, string> => (value ? { NODE_OPTIONS: value } : {})
  const cluster = await startCluster({
    apiEnv: nodeOptions(process.env.BENCH_API_NODE_OPTIONS),
    workerEnv: nodeOptions(process.env.BENCH_WORKER_NODE_OPTIONS)
  })
  // Readiness polls and searches; every push opens connections of its own.
  const client = makeClient(cluster.baseUrl, 4)
  const pushes: Array<MeasuredPush> = []
  const runs: Array<IndexRun> = []
  try {
    // Warm-up: JIT, the credential cache, the Redis scripts, a worker's model files in the
    // page cache. 4,000 PUTs cycle over 100 products (their jobs coalesce), which are indexed
    // and out of the way before anything is measured.
    const warm = productsFor(options.seed + 1, "warm", 100)
    await measuredPush(cluster, Array.from({ length: 4_000 }, (_, i) => warm[i % warm.length]), options.concurrency)
    await cluster.startWorkers(1)
    await cluster.resume()
    while ((await pendingAtApi(client)) !== 0) await sleep(200)
    await cluster.stopWorkers()
    await cluster.pause()
    log(`warm-up done; load ${load()}`)

    // ---- Acceptance: bulk push, nothing indexing ------------------------------------------
    if (options.only.has("push") && !options.only.has("text")) {
      for (let r = 1; r <= options.repeats; r++) {
        const result = await measuredPush(cluster, productsFor(options.seed, `push${r}`, options.products), options.concurrency)
        pushes.push(result)
        log(`push ${r}: ${fmtRate(result.rate)} products/s, p50 ${ms(result.latency.p50)} ms, p99 ${ms(result.latency.p99)} ms, ` +
          `CPU ms per PUT ${cpuPer(result.cpu, result.products, ["api", "redis", "bench"])}; load ${result.load}`)
      }
    }

    // ---- Indexing, text only (each run's push is also an acceptance measurement) ----------
    if (options.only.has("text")) {
      for (let r = 1; r <= options.repeats; r++) {
        for (const w of options.workers) {
          const tag = `t${w}w${r}`
          const run = await indexRun(cluster, client, { kind: "text", workers: w, tag, items: productsFor(options.seed, tag, options.products), concurrency: options.concurrency })
          runs.push(run)
          if (options.only.has("push")) pushes.push(run.push)
        }
      }
    }

    // ---- Indexing with one photo per product --------------------------------------------
    if (options.only.has("images")) {
      const photos = await makePhotos(options.imageProducts, options.seed)
      log(`${photos.length} photos, ${(photos.reduce((s, p) => s + p.length, 0) / photos.length / 1024).toFixed(0)} KB average`)
      host = await startPhotoHost(photos)
      const h = host
      for (let r = 1; r <= options.repeats; r++) {
        for (const w of options.workers) {
          const tag = `i${w}w${r}`
          const items = productsFor(options.seed + 2, tag, options.imageProducts, (i) => h.url(tag, i))
          runs.push(await indexRun(cluster, client, { kind: "images", workers: w, tag, items, concurrency: Math.min(options.concurrency, 16) }))
        }
      }
    }
  } finally {
    client.close()
    await host?.close()
    await cluster.close()
  }

  // ---- Report -------------------------------------------------------------------------------
  const loadAtEnd = os.loadavg().map((l) => l.toFixed(2)).join(" ")
  const rows: Array<Array<string>> = []
  for (const [i, p] of pushes.entries()) {
    rows.push([
      `API accepts: PUT /product, ${p.products} text products, ${options.concurrency} in flight, no worker running${pushes.length > 1 ? ` (#${i + 1})` : ""}`,
      `${fmtRate(p.rate)} products/s; PUT p50 ${ms(p.latency.p50)} ms, p99 ${ms(p.latency.p99)} ms; ${p.errors} errors; ` +
      `CPU ms per PUT: ${cpuPer(p.cpu, p.products, ["api", "redis", "bench"])} (load ${p.load})`,
      "≥ 1,000 products/s",
      p.rate >= 1_000 && p.errors === 0 ? "✅" : "❌"
    ])
  }
  const rate = (run: IndexRun) => run.products / run.seconds
  const best = (kind: IndexRun["kind"], workers: number) => {
    const mine = runs.filter((r) => r.kind === kind && r.workers === workers)
    return mine.length === 0 ? NaN : Math.max(...mine.map(rate))
  }
  for (const run of runs) {
    const base = best(run.kind, Math.min(...options.workers))
    const growth = run.workers > Math.min(...options.workers) ? `; ×${(rate(run) / base).toFixed(2)} vs ${Math.min(...options.workers)} worker(s) (best run)` : ""
    const what = run.kind === "text"
      ? `${fmtRate(rate(run))} products/s`
      : `${fmtRate(rate(run))} products/s = ${fmtRate(run.images / run.seconds)} images/s (first pass done after ${run.firstPassSeconds.toFixed(1)} s = ${fmtRate(run.images / run.firstPassSeconds)} images/s; objects after ${run.seconds.toFixed(1)} s)`
    rows.push([
      `Indexing${run.kind === "text" ? ", text only" : ", 1 photo each"}: ${run.workers} worker process${run.workers > 1 ? "es" : ""}, ${run.products} products`,
      `${what}${growth}; ${run.seconds.toFixed(1)} s, jobs per worker ${run.shares.join("/")}, ${run.failedJobs} failed; ` +
      `CPU ms per product: ${cpuPer(run.cpu, run.products, ["workers", "api", "redis"])}; the workers kept ${(run.cpu.workers / run.seconds).toFixed(2)} cores busy ` +
      `(load ${run.loadStart} → ${run.loadEnd})`,
      run.workers > Math.min(...options.workers) ? "grows with workers" : "",
      run.workers > Math.min(...options.workers) ? (rate(run) > base ? "✅" : "❌") : ""
    ])
  }
  const acceptOk = pushes.length > 0 && pushes.every((p) => p.rate >= 1_000 && p.errors === 0)
  const maxW = Math.max(...options.workers)
  const minW = Math.min(...options.workers)
  const grows = (kind: IndexRun["kind"]) => best(kind, maxW) > best(kind, minW)
  /** How many cores the workers of the best run with `workers` processes got: growth needs idle cores. */
  const cores = (kind: IndexRun["kind"], workers: number) => {
    const mine = runs.filter((r) => r.kind === kind && r.workers === workers).sort((a, b) => rate(b) - rate(a))[0]
    return mine ? (mine.cpu.workers / mine.seconds).toFixed(2) : "-"
  }
  const growthNote = (kind: IndexRun["kind"]) =>
    `${grows(kind) ? "grows" : "does not grow"}; the workers kept ${cores(kind, minW)} → ${cores(kind, maxW)} cores busy`
  const verdictParts = [
    pushes.length > 0 ? `API accepts ${fmtRate(Math.min(...pushes.map((p) => p.rate)))}–${fmtRate(Math.max(...pushes.map((p) => p.rate)))} products/s (${acceptOk ? "meets" : "misses"} ≥ 1,000/s)` : null,
    runs.some((r) => r.kind === "text") && maxW > minW
      ? `text indexing ${fmtRate(best("text", minW))} → ${fmtRate(best("text", maxW))} products/s with ${minW} → ${maxW} workers (${growthNote("text")})`
      : null,
    runs.some((r) => r.kind === "images") && maxW > minW
      ? `image indexing ${fmtRate(best("images", minW))} → ${fmtRate(best("images", maxW))} products/s (${growthNote("images")})`
      : null
  ].filter((s) => s !== null)
  const out = [
    "",
    `## Distributed benchmark results (${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC)`,
    "",
    `Options: \`--distributed --products ${options.products} --image-products ${options.imageProducts} --concurrency ${options.concurrency} --workers ${options.workers.join(",")} --repeats ${options.repeats} --seed ${options.seed} --only ${[...options.only].join(",")}\`.`,
    `Machine: ${os.cpus().length} cpus (${os.cpus()[0]?.model.trim()}), Node ${process.version}; load average ${loadAtStart} at start, ${loadAtEnd} at end (other workloads share the cores, so figures are noisy).`,
    "One redis-server (AOF everysec), the api and each worker are separate processes on this machine; the api and workers run with EMBED_THREADS=1, workers with IMAGE_THREADS=1. " +
    "Indexing is timed from resuming the paused queues (workers already serving) until GET /readyz reports no pending job and the run's products are found by search.",
    "",
    markdownTable(["Metric", "Value", "Target", ""], rows),
    "",
    `Verdict: ${verdictParts.join("; ")}.`
  ].join("\n")
  process.stdout.write(out + "\n")
}
