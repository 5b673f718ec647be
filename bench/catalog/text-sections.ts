/**
 * The text part of `npm run bench`: pushes the seeded catalog through PUT /product (text only),
 * waits until all of it is searchable, then measures text search, similar products,
 * cross-selling, auto-suggest and MCP latency over HTTP.
 */
import { runMcpBench } from "../mcp/McpBench.js"
import { check, fmtRate, log, memory, pendingJobs, type SectionReport, sleep } from "./common.js"
import { type ProductSummary, makeCatalog } from "./generator.js"
import type { Client } from "./http.js"
import { mulberry32, reservoir } from "./random.js"
import type { InProcessApi } from "../../test/support/InProcessApi.js"
import { gcPauses, ms, summarize } from "./stats.js"
import { stageBreakdown } from "./server-timing.js"
import { measureDeepBrowse, measureTextSearch, overallHits } from "./text-search.js"
import { queryKinds, suggestPrefixes } from "./workload.js"

export interface TextOptions {
  readonly products: number
  readonly queries: number
  readonly seed: number
  readonly page: number
  readonly concurrency: number
  readonly recommendations: number
  readonly suggests: number
}

export const runTextSections = async (
  server: InProcessApi,
  client: Client,
  options: TextOptions
): Promise<SectionReport> => {
  // ---- Ingestion ----------------------------------------------------------------------------
  const catalog = makeCatalog(options.seed)
  const products = catalog.generate(options.products)
  const drawn = reservoir<ProductSummary>(mulberry32(options.seed).fork(10), 20_000) // products the workloads draw from
  const sample = drawn.items
  let last: ProductSummary | null = null
  let acked = 0
  const putErrors: Array<string> = []
  let putFailures = 0
  const putLatency: Array<number> = []
  const tFirst = performance.now()
  let tAcked = tFirst
  let putsDone = false
  const timeline: Array<{ t: number; acked: number; pending: number }> = []
  const monitor = (async () => {
    let lastLog = 0
    while (true) {
      const pending = await pendingJobs(client)
      const t = (performance.now() - tFirst) / 1000
      if (pending !== null) timeline.push({ t, acked, pending })
      if (t - lastLog >= 10) {
        lastLog = t
        const indexed = pending === null ? NaN : acked - pending
        log(
          `t=${t.toFixed(0)}s acked ${acked}/${options.products} (${fmtRate(acked / t)}/s), ` +
            `pending ${pending}, indexed ~${indexed} (${fmtRate(indexed / t)}/s), ${memory()}`
        )
      }
      if (putsDone && pending === 0) return
      await sleep(500)
    }
  })()
  const worker = async () => {
    while (true) {
      const next = products.next()
      if (next.done) return
      const { product, summary } = next.value
      drawn.add(summary)
      if (summary.id === `p${String(options.products - 1).padStart(7, "0")}`) last = summary
      const res = await client.request("PUT", `/product/${encodeURIComponent(product.id)}`, server.siteA.basic, {
        data: product.data,
        images: []
      }) // text path only: the synthetic image hosts do not exist
      putLatency.push(res.ms)
      if (res.status === 200 || res.status === 201) acked++
      else if (putFailures++ < 5)
        putErrors.push(`${product.id}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  tAcked = performance.now()
  putsDone = true
  const ackSeconds = (tAcked - tFirst) / 1000
  log(`all PUTs answered in ${ackSeconds.toFixed(1)} s: ${acked} acknowledged, ${putFailures} failed`)
  for (const e of putErrors) log(`  PUT error ${e}`)
  await monitor
  const tDrained = performance.now()
  // pendingJobs 0 is necessary; the last product actually being found is the proof.
  const lastProduct = last as ProductSummary | null
  if (!lastProduct) throw new Error("last product not generated")
  const searchDeadline = Date.now() + 600_000
  while (true) {
    const res = await client.request("POST", "/text-search", server.siteA.bearer, {
      query: lastProduct.title,
      resultsCount: 5,
      staticFilters: { included: [{ column: "mpn", values: [lastProduct.mpn] }] }
    })
    if (
      res.status === 200 &&
      res.body?.data?.products?.some((p: { productId?: string }) => p.productId === lastProduct.id)
    )
      break
    if (Date.now() > searchDeadline)
      throw new Error(
        `last product ${lastProduct.id} not searchable: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`
      )
    await sleep(200)
  }
  const tSearchable = performance.now()
  const searchableSeconds = (tSearchable - tFirst) / 1000
  const memoryIngested = memory()
  // Indexing rate while PUTs were arriving vs. draining the queue afterwards.
  const atAcked = timeline.filter((s) => s.t <= ackSeconds).at(-1)
  const indexedAtAck = atAcked ? atAcked.acked - atAcked.pending : 0
  const drainRate = (options.products - indexedAtAck) / Math.max(1e-3, (tDrained - tFirst) / 1000 - (atAcked?.t ?? 0))
  log(
    `all ${options.products} searchable after ${searchableSeconds.toFixed(1)} s ` +
      `(${fmtRate(options.products / searchableSeconds)}/s), ${memoryIngested}`
  )

  // ---- Text search ---------------------------------------------------------------------------
  const searchGc = gcPauses()
  const {
    errors: searchErrors,
    hits,
    queries,
    samples: searchSamples,
    stages
  } = await measureTextSearch(client, server.siteA.bearer, sample, options)
  const gc = searchGc.stop()
  log(
    `text search: ${queries.length} queries, ${searchErrors} errors; GC pauses ${gc.totalMs.toFixed(0)} ms ` +
      `in ${gc.count} (${gc.major} full), ${memory()}`
  )
  log(`text search stages (mean / p99 ms): ${stageBreakdown(stages)}`)
  const browse = await measureDeepBrowse(client, server.siteA.bearer, { ...options, browses: 300 })
  log(
    `deep browse: ${browse.samples.length} pages, ${browse.errors} errors, ` +
      `mean listing ${browse.meanTotal.toFixed(0)} products`
  )

  // ---- Recommendations -----------------------------------------------------------------------
  const recRandom = mulberry32(options.seed).fork(30)
  const productId = () => `p${String(recRandom.int(0, options.products - 1)).padStart(7, "0")}`
  const recommend = async (path: string) => {
    const samples: Array<number> = []
    let errors = 0
    let total = 0
    for (let i = 0; i < 20; i++)
      await client.request("POST", path, server.siteA.bearer, { productId: productId(), resultsCount: 12 })
    for (let i = 0; i < options.recommendations; i++) {
      const res = await client.request("POST", path, server.siteA.bearer, { productId: productId(), resultsCount: 12 })
      samples.push(res.ms)
      if (res.status !== 200) {
        if (errors++ < 3) log(`${path} error ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`)
      } else total += res.body?.data?.products?.length ?? 0
    }
    return { samples, errors, meanResults: total / Math.max(1, options.recommendations - errors) }
  }
  const similar = await recommend("/similar-products")
  const cross = await recommend("/cross-selling")
  log(`recommendations done`)

  // ---- Auto-suggest --------------------------------------------------------------------------
  const prefixes = suggestPrefixes(
    mulberry32(options.seed).fork(40),
    sample,
    queries.flatMap((q) => q.body.query ?? []),
    options.suggests
  )
  for (const p of prefixes.slice(0, 20))
    await client.request("POST", "/auto-suggest", server.siteA.bearer, { query: p })
  const suggestSamples: Array<number> = []
  let suggestErrors = 0
  let suggestTotal = 0
  let suggestEmpty = 0
  for (const query of prefixes) {
    const res = await client.request("POST", "/auto-suggest", server.siteA.bearer, { query })
    suggestSamples.push(res.ms)
    if (res.status !== 200) {
      if (suggestErrors++ < 3) log(`auto-suggest error ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`)
      continue
    }
    const n = res.body?.data?.completions?.length ?? 0
    suggestTotal += n
    if (n === 0) suggestEmpty++
  }
  log(`auto-suggest done`)

  const mcp = await runMcpBench({
    baseUrl: server.baseUrl,
    basic: server.siteA.basic,
    productIds: sample.map((p) => p.id),
    queries: queries.flatMap((q) => q.body.query ?? []),
    calls: 300
  })
  log(`mcp done`)

  const text = summarize(searchSamples.all)
  const deep = summarize(browse.samples)
  const sim = summarize(similar.samples)
  const crs = summarize(cross.samples)
  const sug = summarize(suggestSamples)
  const put = summarize(putLatency)
  const searchableRate = options.products / searchableSeconds

  const summaryRows: Array<Array<string>> = [
    [
      "API acceptance (PUT acknowledged)",
      `${fmtRate(acked / ackSeconds)} products/s (${ackSeconds.toFixed(1)} s; PUT p50 ${ms(put.p50)} ms, ` +
        `p99 ${ms(put.p99)} ms)`,
      "",
      ""
    ],
    [
      "Indexing rate while PUTs arrived / draining after",
      `${fmtRate(indexedAtAck / Math.max(1e-3, atAcked?.t ?? 0))} / ${fmtRate(drainRate)} products/s`,
      "",
      ""
    ],
    [
      "Ingestion, searchable incl. text embedding",
      `${fmtRate(searchableRate)} products/s (${searchableSeconds.toFixed(1)} s to all searchable)`,
      "≥ 100 products/s",
      check(searchableRate >= 100)
    ],
    ["RSS after ingestion", memoryIngested.replace(/^rss /, ""), "", ""],
    ["Text search (exact facets and totals) p50", `${ms(text.p50)} ms`, "≤ 25 ms", check(text.p50 <= 25)],
    [
      "Text search p95 / p99 / max",
      `${ms(text.p95)} / ${ms(text.p99)} / ${ms(text.max)} ms`,
      "p99 ≤ 100 ms",
      check(text.p99 <= 100)
    ],
    [
      `Category page 50 sorted by price (${browse.meanTotal.toFixed(0)} products, exact facets) p50 / p99`,
      `${ms(deep.p50)} / ${ms(deep.p99)} ms`,
      "p50 ≤ 30 ms",
      check(deep.p50 <= 30)
    ],
    [
      "GC pauses during text search",
      `${gc.totalMs.toFixed(0)} ms in ${gc.count} collections ` +
        `(${gc.major} full, longest ${ms(gc.longestMs)} ms): ${ms(gc.totalMs / queries.length)} ms a query`,
      "",
      ""
    ],
    ["Similar products p50 / p95 / p99", `${ms(sim.p50)} / ${ms(sim.p95)} / ${ms(sim.p99)} ms`, "", ""],
    ["Cross-selling p50 / p95 / p99", `${ms(crs.p50)} / ${ms(crs.p95)} / ${ms(crs.p99)} ms`, "", ""],
    [
      "Auto-suggest p50 / p95 / p99",
      `${ms(sug.p50)} / ${ms(sug.p95)} / ${ms(sug.p99)} ms`,
      "p99 ≤ 10 ms",
      check(sug.p99 <= 10)
    ],
    [
      "MCP get_item p50 / p99",
      `${ms(mcp.rows[0].p50)} / ${ms(mcp.rows[0].p99)} ms`,
      "p50 ≤ 5 ms",
      check(mcp.rows[0].p50 <= 5)
    ],
    ["MCP text_search p50 / p99", `${ms(mcp.rows[1].p50)} / ${ms(mcp.rows[1].p99)} ms`, "", ""],
    ["MCP recall_memory (20 items) p50 / p99", `${ms(mcp.rows[2].p50)} / ${ms(mcp.rows[2].p99)} ms`, "", ""],
    [
      "MCP append_memory throughput",
      `${fmtRate(mcp.appendItemsPerSecond)} items/s (batches of ${mcp.appendBatch}, one client)`,
      "≥ 2,000 items/s",
      check(mcp.appendItemsPerSecond >= 2000)
    ]
  ]

  const latencyRow = (label: string, samples: ReadonlyArray<number>, extra: string, errors: number) => {
    const s = summarize(samples)
    return [label, String(s.count), ms(s.p50), ms(s.p95), ms(s.p99), ms(s.max), extra, String(errors)]
  }
  const latencyRows: Array<Array<string>> = [
    latencyRow("text search (all)", searchSamples.all, overallHits(hits, queries.length), searchErrors),
    ...queryKinds
      .filter((k) => searchSamples.byKind.has(k))
      .map((kind) => {
        const samples = searchSamples.byKind.get(kind)!
        const h = hits.get(kind)!
        return latencyRow(
          `  text search: ${kind}`,
          samples,
          `${(h.total / samples.length).toFixed(1)} / ${((100 * h.zero) / samples.length).toFixed(0)}%`,
          h.errors
        )
      }),
    latencyRow("category page 50 by price", browse.samples, `${options.page}`, browse.errors),
    latencyRow("similar products", similar.samples, `${similar.meanResults.toFixed(1)}`, similar.errors),
    latencyRow("cross-selling", cross.samples, `${cross.meanResults.toFixed(1)}`, cross.errors),
    latencyRow(
      "auto-suggest",
      suggestSamples,
      `${(suggestTotal / prefixes.length).toFixed(1)} / ${((100 * suggestEmpty) / prefixes.length).toFixed(0)}%`,
      suggestErrors
    ),
    latencyRow(`PUT /product (${options.concurrency} in flight)`, putLatency, "", putFailures)
  ]

  return { summary: summaryRows, latency: latencyRows }
}
