/**
 * End-to-end benchmark:
 *   npm run bench -- [--products N] [--queries N] [--seed S] [--page N] [--only text,visual,images]
 *                    [--visual-queries N] [--image-products N] [--image-threads N]
 *
 * Starts the real api in this process (random loopback port, temp data dir) and runs, in order:
 * - text: pushes a seeded synthetic catalog over HTTP, waits until all of it is searchable, then
 *   measures text search, similar products, cross-selling, auto-suggest and MCP over HTTP;
 * - visual: gives every catalog product a photo with a precomputed image vector (no model run
 *   per product) and measures POST /visual-search with real JPEG/PNG queries, with its stages;
 *   without `text` the catalog is written straight through the store and index instead of over
 *   HTTP (no text embedding), which makes a large catalog quick to set up;
 * - images: image indexing throughput of the in-process worker (photos on a loopback host);
 * - bulk: the same catalog (into another site) through one streamed POST /products/bulk while
 *   shoppers search, then price and stock patches; MiniSearch, Orama and Tantivy indexing the
 *   same file are the peers (bench/peers/). `--only bulk --products 1000000` pushes a million;
 *   `--embed-wait-seconds N` caps the wait for the embeddings (the rate so far is reported);
 * - throughput: the embedded default in a process of its own, the catalog pushed and embedded,
 *   text searches one at a time and four in flight (`--throughput-seconds N` each), query
 *   vectors cached and not; Qdrant's own BM25 over HTTP (a `qdrant` on PATH) is the peer;
 * Prints markdown tables for docs/figures.md.
 */
import * as os from "node:os"
import { LogLevel } from "effect"
import { fmtRate, log, memory, type SectionReport } from "./catalog/common.js"
import { makeCatalog } from "./catalog/generator.js"
import { makeClient } from "./catalog/http.js"
import { runBulkSection } from "./catalog/bulk.js"
import { POPULARITY_OFF, runEventsSection } from "./catalog/events.js"
import { runImageIndexingSection } from "./catalog/image-indexing.js"
import { startInProcessApi } from "../test/support/InProcessApi.js"
import { markdownTable, mb, rssSampler } from "./catalog/stats.js"
import { runTextSections } from "./catalog/text-sections.js"
import { runThroughputSection } from "./catalog/throughput.js"
import { fitVisualSpace, runVisualSection, seedImageVectors } from "./catalog/visual.js"
import { tuneHeap } from "../src/platform/HeapTuning.js"

const SECTIONS = ["text", "visual", "images", "bulk", "events", "throughput"] as const
type Section = (typeof SECTIONS)[number]

const numericFlags = {
  products: "products",
  queries: "queries",
  seed: "seed",
  page: "page",
  concurrency: "concurrency",
  "embed-threads": "embedThreads",
  "visual-queries": "visualQueries",
  "image-products": "imageProducts",
  "image-threads": "imageThreads",
  "embed-wait-seconds": "embedWaitSeconds",
  events: "events",
  "event-products": "eventProducts",
  "throughput-seconds": "throughputSeconds"
} as const
type NumericOption = (typeof numericFlags)[keyof typeof numericFlags]

const usage =
  `usage: bench [--products N] [--queries N] [--seed S] [--page N] [--concurrency N] [--embed-threads N] ` +
  `[--only ${SECTIONS.join(",")}] [--visual-queries N] [--image-products N] [--image-threads N] ` +
  `[--embed-wait-seconds N] [--events N] [--event-products N] [--throughput-seconds N]`

const parseArgs = (argv: ReadonlyArray<string>) => {
  const options = {
    products: 100_000,
    queries: 2_000,
    seed: 42,
    page: 24,
    concurrency: 16,
    recommendations: 300,
    suggests: 2_000,
    embedThreads: 2,
    visualQueries: 200,
    imageProducts: 200,
    imageThreads: Number(process.env.IMAGE_THREADS ?? 1),
    embedWaitSeconds: 3_600,
    events: 200_000,
    eventProducts: 20_000,
    throughputSeconds: 20,
    only: new Set<Section>(SECTIONS)
  }
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "")
    if (name === "only") {
      const list = (argv[i + 1] ?? "").split(",").filter((s) => s.length > 0)
      if (list.length === 0 || !list.every((s): s is Section => (SECTIONS as ReadonlyArray<string>).includes(s)))
        throw new Error(`${usage} (bad: --only ${argv[i + 1]})`)
      options.only = new Set(list)
      continue
    }
    const key = (numericFlags as Record<string, NumericOption | undefined>)[name]
    const value = Number(argv[i + 1])
    if (!key || !Number.isFinite(value)) throw new Error(`${usage} (bad: ${argv[i]})`)
    options[key] = value
  }
  return options
}

const main = async () => {
  // The api runs in this process, so it gets the api's heap setting (see src/platform/HeapTuning.ts).
  const heapGrowingPercent = tuneHeap()
  // `--distributed`: the multi-process topology benchmark (bench/distributed/main.ts).
  if (process.argv.includes("--distributed"))
    return (await import("./distributed/main.js")).runDistributedBench(
      process.argv.slice(2).filter((a) => a !== "--distributed")
    )
  const options = parseArgs(process.argv.slice(2))
  const run = (section: Section) => options.only.has(section)
  const startedAt = new Date()
  const loads: Array<string> = []
  const noteLoad = (when: string) => loads.push(`${os.loadavg()[0].toFixed(2)} ${when}`)
  noteLoad("at start")
  const rss = rssSampler(500)
  const rssStart = process.memoryUsage().rss
  if (process.env.MALLOC_ARENA_MAX === undefined)
    log("MALLOC_ARENA_MAX is unset: run through `npm run bench` for the service's memory settings")
  log(
    `options ${JSON.stringify({ ...options, only: [...options.only] })}; ${os.cpus().length} cpus, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`
  )

  // The image-indexing photos live on loopback; the bench measures latency, not the rate limiters.
  const server = await startInProcessApi({
    prefix: "commerce-bench-",
    config: {
      EMBED_THREADS: options.embedThreads,
      MCP_RATE_LIMIT: 1_000_000,
      REST_RATE_LIMIT_READ: 100_000_000,
      REST_RATE_LIMIT_SITE: 100_000_000,
      IMAGE_THREADS: options.imageThreads,
      IMAGE_ALLOWED_CIDRS: run("images") ? "127.0.0.0/8" : undefined
    },
    overEnv: true,
    logLevel: LogLevel.Error,
    // The events section compares text search with and without the popularity boost.
    campaigns: [POPULARITY_OFF]
  })
  const client = makeClient(server.baseUrl, 32)
  try {
    const rssReady = process.memoryUsage().rss
    log(`api ready at ${server.baseUrl} (data in ${server.dir}), rss ${mb(rssReady)}`)

    const reports: Array<SectionReport> = []
    const catalogRows: Array<Array<string>> =
      run("text") || run("visual") ? [["Catalog", `${options.products} products (seed ${options.seed})`, "", ""]] : []
    if (run("text")) {
      reports.push(await runTextSections(server, client, options))
      noteLoad("after the text sections")
    }
    if (run("visual")) {
      const products = (function* () {
        for (const { product } of makeCatalog(options.seed).generate(options.products)) yield product
      })()
      const seeded = await seedImageVectors(server, products, {
        seed: options.seed,
        queries: options.visualQueries,
        page: options.page
      })
      log(`image vectors for ${seeded.products} products in ${seeded.seconds.toFixed(1)} s, ${memory()}`)
      catalogRows.push([
        "Precomputed image vectors written and indexed",
        `${seeded.products} products, one 1792-d vector each, ${fmtRate(seeded.products / seeded.seconds)}/s ` +
          `(store ${seeded.storeSeconds.toFixed(0)} s, index ${seeded.indexSeconds.toFixed(0)} s)` +
          `${run("text") ? "" : " (catalog written through the store, without text vectors)"}; ` +
          `${memory().replace(/^rss /, "RSS ")}`,
        "",
        ""
      ])
      noteLoad("after writing the image vectors")
      const fitted = await fitVisualSpace(server, seeded.products)
      log(
        `learned visual space: ${fitted.dims} dimensions on ${fitted.samples} vectors, ` +
          `fitted and the catalog re-indexed in ${fitted.seconds.toFixed(1)} s, ${memory()}`
      )
      catalogRows.push([
        "Learned visual space fitted, catalog re-indexed in it",
        `${fitted.dims} dims from ${fitted.samples} photos of a ${fitted.sampled}-product sample; ` +
          `fit + re-index of ${seeded.products} products ${fitted.seconds.toFixed(0)} s; ` +
          `${memory().replace(/^rss /, "RSS ")}`,
        "",
        ""
      ])
      reports.push(
        await runVisualSection(server, client, {
          seed: options.seed,
          queries: options.visualQueries,
          page: options.page
        })
      )
      noteLoad("after visual search")
    }
    if (run("bulk")) {
      reports.push(
        await runBulkSection({
          products: options.products,
          seed: options.seed,
          page: options.page,
          embedWaitSeconds: options.embedWaitSeconds
        })
      )
      noteLoad("after the bulk push")
    }
    if (run("throughput")) {
      reports.push(
        await runThroughputSection({
          products: options.products,
          seed: options.seed,
          seconds: options.throughputSeconds
        })
      )
      noteLoad("after the throughput runs")
    }
    if (run("events")) {
      reports.push(
        await runEventsSection(server, client, {
          seed: options.seed,
          page: options.page,
          queries: Math.min(options.queries, 500),
          products: run("text") ? options.products : options.eventProducts,
          catalogReady: run("text"),
          events: options.events
        })
      )
      noteLoad("after the events")
    }
    if (run("images")) {
      reports.push(
        await runImageIndexingSection(server, client, {
          seed: options.seed,
          products: options.imageProducts,
          imageThreads: options.imageThreads
        })
      )
      noteLoad("after image indexing")
    }

    // ---- Report --------------------------------------------------------------------------------
    const rssEnd = process.memoryUsage().rss
    const GB = 1024 ** 3
    const summaryRows = [
      ...catalogRows,
      ...reports.flatMap((r) => r.summary),
      [
        "RSS at end / peak (sampled every 500 ms)",
        `${mb(rssEnd)} / ${mb(rss.peak)}`,
        "≤ 1.5 GB",
        rss.peak <= 1.5 * GB ? "✅" : "❌"
      ]
    ]
    const latencyRows = reports.flatMap((r) => r.latency)
    const out = [
      "",
      `## Benchmark results (${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC)`,
      "",
      `Options: \`--products ${options.products} --queries ${options.queries} --seed ${options.seed} ` +
        `--page ${options.page} --only ${[...options.only].join(",")}\`` +
        ` (PUT concurrency ${options.concurrency}, embed threads ${options.embedThreads}, IMAGE_THREADS ` +
        `${options.imageThreads}, ${options.recommendations} similar + ${options.recommendations} ` +
        `cross-selling, ${options.suggests} auto-suggest requests, ` +
        `${options.visualQueries} visual searches, ${options.imageProducts} photos indexed).`,
      `Machine: ${os.cpus().length} cpus (${os.cpus()[0]?.model.trim()}), Node ${process.version}, ` +
        `HEAP_GROWING_PERCENT ${heapGrowingPercent}, ` +
        `MALLOC_ARENA_MAX ${process.env.MALLOC_ARENA_MAX ?? "unset"}; ` +
        `load average ${loads.join(", ")} (other workloads share the cores, so figures are noisy).`,
      `All requests over HTTP/1.1 keep-alive on loopback; latencies are sequential (one request in flight) ` +
        `after a warm-up; RSS is this whole process (api + load generator; ${mb(rssStart)} before the api ` +
        `started, ${mb(rssReady)} once ready).`,
      "",
      markdownTable(["Metric", "Value", "Target", ""], summaryRows),
      "",
      ...(latencyRows.length > 0
        ? [
            markdownTable(
              ["Latency (ms)", "n", "p50", "p95", "p99", "max", "mean results / zero-result %", "errors"],
              latencyRows
            ),
            ""
          ]
        : [])
    ].join("\n")
    process.stdout.write(`${out}\n`)
  } finally {
    await server.close().catch((e) => log(`closing the server failed: ${e}`))
    client.close()
    rss.stop()
  }
}

main().then(
  () => {
    // Everything is closed; if some handle still keeps the loop alive, say which and leave.
    setTimeout(() => {
      log(`still running 10 s after closing: ${JSON.stringify(process.getActiveResourcesInfo())}; exiting`)
      process.exit(0)
    }, 10_000).unref()
  },
  (e) => {
    log(`failed: ${e instanceof Error ? e.stack : String(e)}`)
    process.exit(1)
  }
)
