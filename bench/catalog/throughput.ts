/**
 * The throughput part of `npm run bench` (`--only throughput`): the embedded default as users run
 * it (a process of its own, its default settings), the seeded catalog pushed and embedded, then
 * text searches of the shopper workload for a fixed time each, one at a time and four in flight:
 * with the query-vector cache warm (every query asked once before: a shop's head queries) and
 * cold (queries never asked, each embedded on its way). Whether throughput grows with
 * concurrency, i.e. uses the machine's cores. The peer: Qdrant's own BM25 over HTTP (its
 * server-side `qdrant/bm25` inference on the same products' text fields), a `qdrant` found on
 * PATH, asked the same query texts the same ways.
 */
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ProductRecord } from "../../src/domain/Product.js"
import { embeddingText } from "../../src/model/ProductDocument.js"
import { makeTextEmbedder } from "../../src/services/text-embedder/EmbeddedTextEmbedder.js"
import { qdrantAvailability, startQdrant } from "../../test/support/QdrantProcess.js"
import { startServerProcess } from "../../test/support/ServerProcess.js"
import { writeSites } from "../../test/support/Workspace.js"
import { PEER_FIELDS, peerDocument } from "../peers/PeerDocument.js"
import { pushBulk, writeLines } from "./bulk.js"
import { check, fmtRate, log, pendingJobs, type SectionReport, sleep } from "./common.js"
import { makeCatalog, type ProductSummary } from "./generator.js"
import { makeClient } from "./http.js"
import { mulberry32, reservoir } from "./random.js"
import { ms, summarize } from "./stats.js"
import { type TextQuery, textQueries } from "./workload.js"

const decodeRecord = Schema.decodeUnknownSync(ProductRecord)

export interface ThroughputOptions {
  readonly products: number
  readonly seed: number
  /** Seconds each measured run lasts. */
  readonly seconds: number
}

/** Targets: four in flight against one at a time (warm cache), and against Qdrant's BM25 four in flight. */
const CONCURRENCY_RATIO = 1.6
const QDRANT_RATIO = 0.5
const IN_FLIGHT = 4
/** Results a search asks for, ours and the peer's alike. */
const TOP = 10
const EMBED_RATIO = 1.8
/** Titles the one-thread reference embeds. */
const EMBED_SAMPLE = 3_000
/** Distinct queries of the warm set (each asked once before the warm runs). */
const WARM_QUERIES = 500

export interface Run {
  readonly rate: number
  readonly p50: number
  readonly p99: number
  readonly count: number
  readonly errors: number
}

/** `ask` with `inFlight` callers back to back for `seconds`, each call given the next index. */
const measure = async (
  inFlight: number,
  seconds: number,
  ask: (index: number) => Promise<{ readonly ok: boolean; readonly ms: number }>
): Promise<Run> => {
  const latencies: Array<number> = []
  let errors = 0
  let next = 0
  const end = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < end) {
        const answer = await ask(next++)
        latencies.push(answer.ms)
        if (!answer.ok) errors++
      }
    })
  )
  const elapsed = (performance.now() - started) / 1000
  const s = summarize(latencies)
  return { rate: latencies.length / elapsed, p50: s.p50, p99: s.p99, count: latencies.length, errors }
}

const describe = (run: Run) =>
  `${fmtRate(run.rate)} queries/s (p50 ${ms(run.p50)} / p99 ${ms(run.p99)} ms, ${run.count} queries` +
  `${run.errors > 0 ? `, ${run.errors} errors` : ""})`

/** Texts/s of one embedding thread (the service's model, in this process) on the first `count` products' embedded text. */
const oneThreadRate = async (catalogFile: string, count: number): Promise<number> => {
  const texts = fs
    .readFileSync(catalogFile, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .slice(0, count)
    .map((line) => embeddingText(decodeRecord((JSON.parse(line) as { data: unknown }).data)))
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const embedder = yield* makeTextEmbedder({ threads: 1 })
        yield* embedder.embed(texts.slice(0, 32))
        const started = performance.now()
        // In calls of 64 texts: the model's per-call cost paid about as often as in the service's document calls.
        for (let at = 0; at < texts.length; at += 64) yield* embedder.embed(texts.slice(at, at + 64))
        return texts.length / ((performance.now() - started) / 1000)
      })
    )
  )
}

/** Qdrant's BM25 over the same products: a collection of one sparse vector filled by its own inference. */
const qdrantPeer = async (catalogFile: string, texts: ReadonlyArray<string>, seconds: number) => {
  const availability = qdrantAvailability()
  if (!("binary" in availability)) return { why: "skip" in availability ? availability.skip : "no qdrant binary" }
  const server = await startQdrant(availability.binary)
  try {
    const url = `${server.url}/collections/bm25`
    const json = (method: string, at: string, body: unknown) =>
      fetch(at, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(
        async (res) => {
          if (!res.ok) throw new Error(`Qdrant ${method} ${at}: HTTP ${res.status} ${await res.text()}`)
          return res.json()
        }
      )
    await json("PUT", url, { sparse_vectors: { bm25: { modifier: "idf" } } })
    const lines = fs
      .readFileSync(catalogFile, "utf8")
      .split("\n")
      .filter((line) => line.length > 0)
    const started = performance.now()
    for (let at = 0; at < lines.length; at += 256) {
      const points = lines.slice(at, at + 256).map((line, i) => {
        const doc = peerDocument(JSON.parse(line))
        return {
          id: at + i,
          vector: { bm25: { text: PEER_FIELDS.map((field) => doc[field]).join(" "), model: "qdrant/bm25" } },
          payload: { id: doc.id }
        }
      })
      await json("PUT", `${url}/points?wait=true`, { points })
    }
    log(`Qdrant BM25 peer: ${lines.length} products upserted in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    const ask = async (index: number) => {
      const started = performance.now()
      const res = await fetch(`${url}/points/query`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: { text: texts[index % texts.length], model: "qdrant/bm25" },
          using: "bm25",
          limit: 10,
          with_payload: true
        })
      })
      await res.arrayBuffer()
      return { ok: res.ok, ms: performance.now() - started }
    }
    for (let i = 0; i < Math.min(100, texts.length); i++) await ask(i)
    const one = await measure(1, seconds, ask)
    const four = await measure(IN_FLIGHT, seconds, ask)
    return { one, four }
  } finally {
    await server.stop()
  }
}

export const runThroughputSection = async (options: ThroughputOptions): Promise<SectionReport> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-throughput-"))
  const sitesFile = path.join(dir, "sites.json")
  const sites = await writeSites(sitesFile)
  // The embedded default as `npm start` runs it: its own process, the two embedding threads of
  // config/settings.env (the test helper's one is for tests); search replicas as SEARCH_REPLICAS
  // in the bench's environment says (none by default, as the service).
  const api = await startServerProcess({
    DATA_DIR: path.join(dir, "data"),
    SITES_FILE: sitesFile,
    EMBED_THREADS: "2",
    SEARCH_REPLICAS: process.env.SEARCH_REPLICAS ?? "0",
    REST_RATE_LIMIT_READ: "100000000",
    REST_RATE_LIMIT_SITE: "100000000"
  })
  const client = makeClient(api.baseUrl, 32)
  try {
    const catalogFile = path.join(dir, "catalog.ndjson")
    const sample = reservoir<ProductSummary>(mulberry32(options.seed).fork(60), 5_000)
    await writeLines(
      catalogFile,
      (function* () {
        for (const { product, summary } of makeCatalog(options.seed).generate(options.products)) {
          sample.add(summary)
          yield `${JSON.stringify({ id: product.id, data: product.data })}\n`
        }
      })()
    )
    const pushed = performance.now()
    const push = await pushBulk(api.baseUrl, sites.siteA.basic, catalogFile, () => {})
    while ((await pendingJobs(client)) !== 0) await sleep(250)
    const embedRate = push.answered / ((performance.now() - pushed) / 1000)
    // One embedding thread's rate on the same titles, nothing else running (a sample: the model is slow).
    const oneThread = await oneThreadRate(catalogFile, EMBED_SAMPLE)
    log(
      `throughput: ${push.answered} products pushed (${push.failed} refused) and embedded by the embedded default ` +
        `(pid ${api.child.pid}) at ${fmtRate(embedRate)}/s from the push's start; one embedding thread alone ` +
        `${fmtRate(oneThread)}/s`
    )
    const bearer = sites.siteA.bearer
    const search = (body: TextQuery["body"]) => async () => {
      const res = await client.request("POST", "/text-search", bearer, body)
      return { ok: res.status === 200, ms: res.ms }
    }
    const warm = textQueries(mulberry32(options.seed).fork(61), sample.items, WARM_QUERIES, TOP)
    for (const q of warm) await search(q.body)()
    const warmAsk = (index: number) => search(warm[index % warm.length].body)()
    const warmOne = await measure(1, options.seconds, warmAsk)
    const warmFour = await measure(IN_FLIGHT, options.seconds, warmAsk)
    // Cold: queries never asked (a fresh draw, each asked once); their words vary, so each is embedded.
    const cold = textQueries(mulberry32(options.seed).fork(62), sample.items, 40_000, TOP).filter(
      (q) => q.kind !== "repeat"
    )
    let coldNext = 0
    const coldAsk = () => search(cold[coldNext++ % cold.length].body)()
    const coldOne = await measure(1, options.seconds, coldAsk)
    const coldFour = await measure(IN_FLIGHT, options.seconds, coldAsk)
    const replicas = (await client.request("GET", "/readyz", null)).body?.searchReplicas
    const handed = /^commerce_search_replica_requests_total (\d+)/m.exec(
      String((await client.request("GET", "/metrics", null)).body)
    )
    log(
      `throughput: search replicas ${replicas ? `${replicas.ready} ready of ${replicas.configured}` : "none"}; ` +
        `${handed ? handed[1] : 0} requests answered by them`
    )
    for (const [name, run] of [
      ["warm, one at a time", warmOne],
      [`warm, ${IN_FLIGHT} in flight`, warmFour],
      ["cold, one at a time", coldOne],
      [`cold, ${IN_FLIGHT} in flight`, coldFour]
    ] as const)
      log(`throughput: text search ${name}: ${describe(run)}`)
    const texts = warm.flatMap((q) => (q.body.query ? [q.body.query] : []))
    const peer = await qdrantPeer(catalogFile, texts, options.seconds)
    if ("why" in peer) log(`throughput: Qdrant BM25 peer not measured: ${peer.why}`)
    else
      log(
        `throughput: Qdrant BM25 over HTTP: one at a time ${describe(peer.one)}; ${IN_FLIGHT} in flight ` +
          `${describe(peer.four)}`
      )
    const concurrency = warmFour.rate / warmOne.rate
    const vsQdrant = "why" in peer ? NaN : warmFour.rate / peer.four.rate
    return {
      summary: [
        [
          `Text search throughput, embedded default (own process, ${push.answered} products, ` +
            `${replicas ? `${replicas.configured} search replica` : "no search replica"}), query vectors cached: ` +
            `one at a time / ${IN_FLIGHT} in flight`,
          `${describe(warmOne)} / ${describe(warmFour)}: ${concurrency.toFixed(2)} ×`,
          `${IN_FLIGHT} in flight ≥ ${CONCURRENCY_RATIO} × one at a time`,
          check(concurrency >= CONCURRENCY_RATIO)
        ],
        [
          `Text search throughput, ${IN_FLIGHT} in flight, against Qdrant's own BM25 over HTTP (same products' ` +
            "text, same query texts)",
          "why" in peer
            ? `peer not measured: ${peer.why}`
            : `ours ${fmtRate(warmFour.rate)}/s, Qdrant ${describe(peer.four)} (one at a time ${describe(peer.one)}): ` +
              `${vsQdrant.toFixed(2)} ×`,
          `≥ ${QDRANT_RATIO} × Qdrant's`,
          "why" in peer ? "" : check(vsQdrant >= QDRANT_RATIO)
        ],
        [
          "Text embedding of a pushed catalog (from the push's start until every product is embedded), against " +
            `one embedding thread alone on ${EMBED_SAMPLE} of the same titles`,
          `${fmtRate(embedRate)} products/s; one thread ${fmtRate(oneThread)}/s: ${(embedRate / oneThread).toFixed(2)} ×`,
          `≥ ${EMBED_RATIO} × one thread's`,
          check(embedRate >= EMBED_RATIO * oneThread)
        ],
        [
          "Text search throughput, query vectors not cached (every query embedded): one at a time / " +
            `${IN_FLIGHT} in flight`,
          `${describe(coldOne)} / ${describe(coldFour)}: ${(coldFour.rate / coldOne.rate).toFixed(2)} ×`,
          "",
          ""
        ]
      ],
      latency: []
    }
  } finally {
    api.child.kill("SIGTERM")
    await api.exited
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
