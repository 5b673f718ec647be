/**
 * The bulk part of `npm run bench` (`--only bulk`): pushes the seeded synthetic catalog (text
 * only) through one streamed POST /products/bulk into site B while shoppers search, then
 * measures how soon all of it is searchable by its words and by its text embedding, then a
 * second push of price and stock patches. The peers (bench/peers/): MiniSearch, Orama and
 * Tantivy indexing the same catalog file and answering the same queries, each in a process of its
 * own, in the same run.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as http from "node:http"
import { check, fmtRate, log, memory, pendingJobs, type SectionReport, sleep } from "./common.js"
import { type ProductSummary, makeCatalog } from "./generator.js"
import { type Client, makeClient } from "./http.js"
import { mulberry32, type Random, reservoir } from "./random.js"
import { startServerProcess } from "../../test/support/ServerProcess.js"
import { makeWorkspace, type WorkspaceSite } from "../../test/support/Workspace.js"
import { mb, ms, processTreeCpuSeconds, processTreeRss, rssSampler, summarize } from "./stats.js"
import { textQueries } from "./workload.js"
import { addStages, stageBreakdown } from "./server-timing.js"
import { runPeers } from "../peers/Peers.js"

export interface BulkOptions {
  readonly products: number
  readonly seed: number
  readonly page: number
  /** Longest wait for the embeddings; past it, the rate so far is reported with the projected time. */
  readonly embedWaitSeconds: number
}

export interface BulkPushResult {
  readonly answered: number
  readonly failed: number
  readonly firstErrors: Array<string>
  readonly seconds: number
}

/**
 * One POST /products/bulk with the body streamed from `file` (so generating it costs the
 * measured process nothing) and the answers counted as they stream back.
 */
export const pushBulk = (baseUrl: string, auth: string, file: string, onAnswered: (answered: number) => void) =>
  new Promise<BulkPushResult>((resolve, reject) => {
    const url = new URL(`${baseUrl}/products/bulk`)
    const started = performance.now()
    let answered = 0
    let failed = 0
    const firstErrors: Array<string> = []
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { authorization: auth, "content-type": "application/x-ndjson" }
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`bulk push answered ${res.statusCode}`))
        let carry = ""
        res.setEncoding("utf8")
        res.on("data", (chunk: string) => {
          const parts = (carry + chunk).split("\n")
          carry = parts.pop()!
          for (const part of parts) {
            if (part === "") continue
            answered++
            if (!part.includes('"status":200')) {
              failed++
              if (firstErrors.length < 5) firstErrors.push(part.slice(0, 300))
            }
          }
          onAnswered(answered)
        })
        res.on("end", () => resolve({ answered, failed, firstErrors, seconds: (performance.now() - started) / 1000 }))
        res.on("error", reject)
      }
    )
    req.on("error", reject)
    createReadStream(file).pipe(req)
  })

/** The patch of the `i`-th product: a new price at even positions, a stock change at odd ones. */
export const patchData = (i: number, random: Random): { readonly price: number } | { readonly availability: string } =>
  i % 2 === 0
    ? { price: Math.round(random.next() * 10_000) / 100 }
    : { availability: random.chance(0.5) ? "out_of_stock" : "in_stock" }

/** Writes `lines` to a temporary file, in pieces. */
export const writeLines = async (file: string, lines: Iterable<string>) => {
  const out = createWriteStream(file)
  let piece: Array<string> = []
  for (const line of lines) {
    piece.push(line)
    if (piece.length === 1_000) {
      if (!out.write(piece.join(""))) await new Promise<void>((r) => out.once("drain", () => r()))
      piece = []
    }
  }
  out.end(piece.join(""))
  await new Promise<void>((r) => out.once("finish", () => r()))
}

/** The same queries asked once the push is over, nothing else running (and given to the peers). */
const IDLE_QUERIES = 1_000
/** Targets: ours against the fastest in-process JavaScript peer; search p99 during the push against idle. */
const PEER_RATIO = 0.3
const IDLE_P99_RATIO = 3
const PEER_NAMES: Record<string, string> = {
  minisearch: "MiniSearch (JavaScript, in memory)",
  orama: "Orama (JavaScript, in memory)",
  tantivy: "Tantivy (Rust, PyPI package, on disk)"
}

/** Milliseconds, finer below one (an in-process peer answers in microseconds). */
const fine = (x: number) => (x < 1 ? x.toFixed(2) : ms(x))

const embeddedCount = async (client: Client): Promise<number> => {
  const res = await client.request("GET", "/metrics", null)
  const match = /^commerce_text_documents_embedded_total (\d+)/m.exec(String(res.body))
  return match === null ? NaN : Number(match[1])
}

/**
 * The embedded default as `npm start` runs it on this machine: a process of its own, two
 * embedding threads (config/settings.env); search replicas as SEARCH_REPLICAS in the bench's
 * environment says (none by default, as the service).
 */
const startApi = async () => {
  const workspace = await makeWorkspace({ prefix: "commerce-bulk-api-" })
  const api = await startServerProcess({
    ...workspace.env,
    EMBED_THREADS: "2",
    SEARCH_REPLICAS: process.env.SEARCH_REPLICAS ?? "0",
    REST_RATE_LIMIT_READ: "100000000",
    REST_RATE_LIMIT_SITE: "100000000"
  })
  const client = makeClient(api.baseUrl, 32)
  // The replicas fill their copies of the (empty) index before searches go to them.
  for (;;) {
    const res = await client.request("GET", "/readyz", null)
    const replicas = res.body?.searchReplicas
    if (res.status === 200 && (replicas === undefined || replicas.ready === replicas.configured)) break
    await sleep(250)
  }
  return { workspace, api, client }
}

export const runBulkSection = async (options: BulkOptions): Promise<SectionReport> => {
  const { workspace, api, client } = await startApi()
  try {
    return await measureBulk(api.child.pid!, api.baseUrl, workspace.siteB, client, options)
  } finally {
    api.child.kill("SIGTERM")
    await api.exited
    workspace.dispose()
  }
}

const measureBulk = async (
  pid: number,
  baseUrl: string,
  site: WorkspaceSite,
  client: Client,
  options: BulkOptions
): Promise<SectionReport> => {
  const auth = site.basic
  const bearer = site.bearer
  const rss = rssSampler(250, pid)
  const rssBefore = processTreeRss(pid)

  // Shoppers' queries about the first products (pushed first, so they find something throughout).
  const sample = reservoir<ProductSummary>(mulberry32(options.seed).fork(50), 5_000)
  for (const { summary } of makeCatalog(options.seed).generate(Math.min(options.products, 20_000))) sample.add(summary)
  const queries = textQueries(mulberry32(options.seed).fork(51), sample.items, 5_000, options.page)

  // ---- The push, with searches running against it ----------------------------------------------
  const embeddedBefore = await embeddedCount(client)
  let pushing = true
  let answered = 0
  const during: Array<number> = []
  const stages = new Map<string, Array<number>>()
  let searchErrors = 0
  const searches = (async () => {
    for (let i = 0; pushing; i = (i + 1) % queries.length) {
      const res = await client.request("POST", "/text-search", bearer, queries[i].body)
      if (!pushing) break
      addStages(stages, during.length, String(res.headers["server-timing"] ?? ""))
      during.push(res.ms)
      if (res.status !== 200 && searchErrors++ < 3)
        log(`text-search during the push: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
    }
  })()
  const progress = setInterval(
    () => log(`bulk: ${answered}/${options.products} answered, ${during.length} searches, ${memory()}`),
    10_000
  )
  const dir = mkdtempSync(join(tmpdir(), "commerce-bulk-"))
  const catalogFile = join(dir, "catalog.ndjson")
  await writeLines(
    catalogFile,
    (function* () {
      for (const { product } of makeCatalog(options.seed).generate(options.products)) {
        yield `${JSON.stringify({ id: product.id, data: product.data })}\n`
      }
    })()
  )
  log(`catalog written to ${catalogFile} (${mb(statSync(catalogFile).size)})`)
  // Where the push is bound: the CPU of the api's processes (with their embedding threads).
  const cpuBefore = processTreeCpuSeconds(pid)
  const tStart = performance.now()
  const push = await pushBulk(baseUrl, auth, catalogFile, (n) => (answered = n))
  pushing = false
  const cores = (processTreeCpuSeconds(pid) - cpuBefore) / ((performance.now() - tStart) / 1000)
  clearInterval(progress)
  await searches
  const acceptRate = push.answered / push.seconds
  const bound = `api CPU ${cores.toFixed(2)} cores (its processes and their embedding threads)`
  log(
    `bulk push: ${push.answered} answered (${push.failed} failed) in ${push.seconds.toFixed(1)} s: ` +
      `${fmtRate(acceptRate)}/s; ${bound}; api RSS ${mb(processTreeRss(pid))}`
  )
  for (const e of push.firstErrors) log(`  bulk error ${e}`)
  log(`text search during the push, stages (mean / p99 ms): ${stageBreakdown(stages)}`)

  // ---- Searchable by words: every product counted by a browse of the whole catalog (variants apart) ---
  let lexicalSeconds = NaN
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; ) {
    const res = await client.request("POST", "/text-search", bearer, {
      query: "",
      resultsCount: 1,
      collapseVariants: false
    })
    if (res.status === 200 && res.body?.data?.total === options.products) {
      lexicalSeconds = (performance.now() - tStart) / 1000
      break
    }
    await sleep(100)
  }
  const lexicalRate = options.products / lexicalSeconds
  log(
    `all ${options.products} listed and searchable by their words after ${lexicalSeconds.toFixed(1)} s ` +
      `(${fmtRate(lexicalRate)}/s)`
  )

  // ---- Embedded: the queue drained ------------------------------------------------------------
  const embedDeadline = Date.now() + options.embedWaitSeconds * 1000
  let embeddedSeconds = NaN
  let lastLog = Date.now()
  while (Date.now() < embedDeadline) {
    if ((await pendingJobs(client)) === 0) {
      embeddedSeconds = (performance.now() - tStart) / 1000
      break
    }
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now()
      log(`embedding: ${(await embeddedCount(client)) - embeddedBefore}/${options.products}, ${memory()}`)
    }
    await sleep(250)
  }
  const embeddedNow = (await embeddedCount(client)) - embeddedBefore
  const embedElapsed = Number.isNaN(embeddedSeconds) ? (performance.now() - tStart) / 1000 : embeddedSeconds
  const embedRate = embeddedNow / embedElapsed
  log(
    Number.isNaN(embeddedSeconds)
      ? `embedding not finished after ${embedElapsed.toFixed(0)} s: ` +
          `${embeddedNow} embedded (${fmtRate(embedRate)}/s; all in about ` +
          `${(options.products / embedRate / 60).toFixed(0)} min)`
      : `all embedded after ${embeddedSeconds.toFixed(1)} s (${fmtRate(embedRate)}/s), ${memory()}`
  )
  const peakPush = rss.peak

  // ---- Price and stock patches ------------------------------------------------------------------
  const patchCount = Math.min(options.products, 100_000)
  const patchRandom = mulberry32(options.seed).fork(52)
  const patchFile = join(dir, "patches.ndjson")
  await writeLines(
    patchFile,
    (function* () {
      for (let i = 0; i < patchCount; i++)
        yield `${JSON.stringify({
          id: `p${String(i).padStart(7, "0")}`,
          patch: { data: patchData(i, patchRandom) }
        })}\n`
    })()
  )
  const embeddedBeforePatches = await embeddedCount(client)
  const patches = await pushBulk(baseUrl, auth, patchFile, () => {})
  const patchRate = patches.answered / patches.seconds
  // The last price patch, visible at once to a price filter.
  const lastPriced = `p${String(patchCount - 1 - ((patchCount - 1) % 2)).padStart(7, "0")}`
  const probe = await client.request("GET", `/product/${lastPriced}`, auth)
  const price = probe.body?.data?.data?.price
  const filtered = await client.request("POST", "/text-search", bearer, {
    query: "",
    resultsCount: 1000,
    dynamicFilters: [{ column: "price", values: { start: price, end: price + 0.005 } }]
  })
  const visible = filtered.body?.data?.products?.some((p: { productId: string }) => p.productId === lastPriced) === true
  // Texts embedded for the patches (none expected) can be counted once the queue drains; while the
  // push's own embeddings are still running (a capped wait), they cannot be told apart.
  const drained = !Number.isNaN(embeddedSeconds)
  if (drained) await pendingJobsDrained(client, 600_000)
  const patchEmbeddings = drained
    ? String((await embeddedCount(client)) - embeddedBeforePatches)
    : "not counted (the push's embeddings still running)"
  log(
    `patches: ${patches.answered} answered (${patches.failed} failed) in ${patches.seconds.toFixed(1)} s: ` +
      `${fmtRate(patchRate)}/s; last price visible to a filter at once: ${visible}; ` +
      `texts embedded for them: ${patchEmbeddings}`
  )
  rss.stop()

  // ---- The same queries with nothing else running: the p99 the push's is held against -------------
  const idle: Array<number> = []
  for (const q of queries.slice(0, IDLE_QUERIES))
    idle.push((await client.request("POST", "/text-search", bearer, q.body)).ms)
  const idleSearch = summarize(idle)

  // ---- The peers: the same catalog file, the same queries' words --------------------------------------
  const queriesFile = join(dir, "queries.json")
  writeFileSync(
    queriesFile,
    JSON.stringify(queries.slice(0, IDLE_QUERIES).flatMap((q) => (q.body.query ? [String(q.body.query)] : [])))
  )
  const peers = await runPeers(catalogFile, queriesFile)
  rmSync(dir, { recursive: true, force: true })
  for (const peer of peers)
    log(
      peer.ok
        ? `${peer.engine} (peer, own process): ${peer.result.documents} documents searchable in ` +
            `${peer.result.indexSeconds.toFixed(2)} s = ${fmtRate(peer.result.documents / peer.result.indexSeconds)}/s; ` +
            `search p50 / p99 ${fine(peer.result.p50)} / ${fine(peer.result.p99)} ms; peak RSS ${peer.result.rssMb.toFixed(0)} MB`
        : `${peer.engine} (peer): not measured: ${peer.why}`
    )
  const s = summarize(during)
  const vsPeer = (rate: number) =>
    peers
      .flatMap((peer) =>
        peer.ok ? [`${(rate / (peer.result.documents / peer.result.indexSeconds)).toFixed(2)} × ${peer.engine}`] : []
      )
      .join(", ")
  const jsPeers = peers.flatMap((peer) =>
    peer.ok && peer.engine !== "tantivy" ? [peer.result.documents / peer.result.indexSeconds] : []
  )
  const fastestJs = jsPeers.length === 0 ? NaN : Math.max(...jsPeers)
  return {
    summary: [
      [
        "Bulk push accepted (POST /products/bulk, one streamed request)",
        `${fmtRate(acceptRate)} products/s (${push.answered} in ${push.seconds.toFixed(1)} s, ` +
          `${push.failed} refused; ${bound})`,
        "",
        ""
      ],
      [
        "Bulk push: all listed and searchable by their words, one client searching",
        `${fmtRate(lexicalRate)} products/s (${lexicalSeconds.toFixed(1)} s after the push started); ` +
          `${vsPeer(lexicalRate)}`,
        `≥ ${PEER_RATIO} × the fastest JavaScript peer`,
        `${(lexicalRate / fastestJs).toFixed(2)} × ${check(lexicalRate >= PEER_RATIO * fastestJs)}`
      ],
      ...peers.map((peer) => [
        `Ingestion peer: ${PEER_NAMES[peer.engine] ?? peer.engine} (own process, the same file and queries)`,
        peer.ok
          ? `${fmtRate(peer.result.documents / peer.result.indexSeconds)} products/s until searchable ` +
            `(${peer.result.indexSeconds.toFixed(2)} s); search after it p50 / p99 ${fine(peer.result.p50)} / ` +
            `${fine(peer.result.p99)} ms in process (ours over HTTP: ${ms(idleSearch.p50)} / ${ms(idleSearch.p99)} ms); ` +
            `peak RSS ${peer.result.rssMb.toFixed(0)} MB (ours: ${mb(peakPush)})`
          : `not measured: ${peer.why}`,
        "",
        ""
      ]),
      [
        "Bulk push: all text-embedded",
        Number.isNaN(embeddedSeconds)
          ? `${fmtRate(embedRate)} products/s (${embeddedNow} after ${embedElapsed.toFixed(0)} s; all in ` +
            `about ${(options.products / embedRate / 60).toFixed(0)} min)`
          : `${fmtRate(embedRate)} products/s (${embeddedSeconds.toFixed(1)} s after the push started)`,
        "",
        ""
      ],
      [
        "Text search while the push runs p50 / p99",
        `${ms(s.p50)} / ${ms(s.p99)} ms (${s.count} searches, one in flight)`,
        `p99 ≤ ${IDLE_P99_RATIO} × idle (${ms(idleSearch.p99)} ms)`,
        `${(s.p99 / idleSearch.p99).toFixed(1)} × ${check(s.p99 <= IDLE_P99_RATIO * idleSearch.p99)}`
      ],
      [
        "Price and stock patches (bulk)",
        `${fmtRate(patchRate)} patches/s (${patches.answered}; ${patchEmbeddings} texts embedded for them; ` +
          `new price found by a filter at once: ${visible ? "yes" : "no"})`,
        "≥ 10,000/s",
        check(patchRate >= 10_000)
      ],
      ["RSS during the bulk push: before / peak", `${mb(rssBefore)} / ${mb(peakPush)}`, "", ""]
    ],
    latency: [
      [
        "text search during the bulk push",
        String(s.count),
        ms(s.p50),
        ms(s.p95),
        ms(s.p99),
        ms(s.max),
        "",
        String(searchErrors)
      ]
    ]
  }
}

const pendingJobsDrained = async (client: Client, timeoutMs: number) => {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if ((await pendingJobs(client)) === 0) return
    await sleep(100)
  }
}
