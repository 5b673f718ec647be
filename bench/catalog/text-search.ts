/**
 * POST /text-search over HTTP with the shopper workload (workload.ts): 50 warm-up queries, then
 * `queries` more one at a time, each latency recorded by query kind with its result count.
 */
import { log } from "./common.js"
import type { ProductSummary } from "./generator.js"
import type { Client } from "./http.js"
import { mulberry32 } from "./random.js"
import { addStages } from "./server-timing.js"
import { parseRounds } from "../../src/platform/ServerTiming.js"
import { Samples } from "./stats.js"
import { deepBrowses, textQueries } from "./workload.js"
import { departments } from "./taxonomy.js"

export interface TextSearchOptions {
  readonly queries: number
  readonly seed: number
  readonly page: number
}

/** Per query kind: results returned, zero-result answers and errors. */
export interface Hits {
  total: number
  zero: number
  errors: number
}

/** `sample`: catalog products the queries are drawn from. */
export const measureTextSearch = async (
  client: Client,
  auth: string,
  sample: ReadonlyArray<ProductSummary>,
  options: TextSearchOptions
) => {
  const warmup = textQueries(mulberry32(options.seed).fork(20), sample, 50, options.page)
  for (const q of warmup) await client.request("POST", "/text-search", auth, q.body)
  const queries = textQueries(mulberry32(options.seed).fork(21), sample, options.queries, options.page)
  const samples = new Samples()
  // Per stage of the api's Server-Timing header: its duration in each query (0 where it did not run).
  const stages = new Map<string, Array<number>>()
  const hits = new Map<string, Hits>()
  // Per backend (the api's Server-Timing `<backend>-rounds`): dependent rounds and requests of each
  // search, apart for a query text this run asks for the first time and one it asked before.
  const rounds = new Map<string, BackendRounds>()
  const seen = new Set(warmup.map((q) => JSON.stringify(q.body)))
  let errors = 0
  for (const [i, q] of queries.entries()) {
    const res = await client.request("POST", "/text-search", auth, { requestId: `bench-${i}`, ...q.body })
    samples.add(q.kind, res.ms)
    addStages(stages, i, String(res.headers["server-timing"] ?? ""))
    const key = JSON.stringify(q.body)
    const kind = seen.has(key) ? "repeated" : "new"
    seen.add(key)
    for (const [backend, counted] of parseRounds(String(res.headers["server-timing"] ?? ""))) {
      const known = rounds.get(backend) ?? { new: [], repeated: [] }
      known[kind].push(counted)
      rounds.set(backend, known)
    }
    const h = hits.get(q.kind) ?? { total: 0, zero: 0, errors: 0 }
    const n = res.status === 200 ? (res.body?.data?.products?.length ?? 0) : 0
    if (res.status !== 200) {
      h.errors++
      if (errors++ < 5)
        log(`text-search error ${res.status} for ${JSON.stringify(q.body)}: ${JSON.stringify(res.body).slice(0, 300)}`)
    }
    h.total += n
    if (n === 0) h.zero++
    hits.set(q.kind, h)
  }
  return { queries, samples, hits, errors, stages, rounds }
}

/** One backend's rounds and requests per search, for queries new to the run and repeated ones. */
export interface BackendRounds {
  readonly new: Array<{ readonly rounds: number; readonly requests: number }>
  readonly repeated: Array<{ readonly rounds: number; readonly requests: number }>
}

/** "new 40: 2 / 2 rounds, 9 / 14 requests; repeated 10: …" (p50 / max of each). */
export const roundsSummary = (rounds: BackendRounds): string =>
  (["new", "repeated"] as const)
    .filter((kind) => rounds[kind].length > 0)
    .map((kind) => {
      const list = rounds[kind]
      const stat = (pick: (r: { rounds: number; requests: number }) => number) => {
        const sorted = list.map(pick).sort((a, b) => a - b)
        return `${sorted[Math.floor(sorted.length / 2)]} / ${sorted[sorted.length - 1]}`
      }
      return `${kind} ${list.length}: ${stat((r) => r.rounds)} rounds, ${stat((r) => r.requests)} requests`
    })
    .join("; ")

/**
 * Pages 50 of ~30% of the catalog sorted by price (see deepBrowses), one at a time: latencies and
 * the listings' mean total.
 */
export const measureDeepBrowse = async (
  client: Client,
  auth: string,
  options: TextSearchOptions & { readonly browses: number }
) => {
  const bodies = deepBrowses(
    mulberry32(options.seed).fork(22),
    departments.map((d) => d.name),
    options.browses + 10,
    options.page,
    50
  )
  for (const body of bodies.slice(0, 10)) await client.request("POST", "/text-search", auth, body)
  const samples: Array<number> = []
  let totals = 0
  let errors = 0
  for (const body of bodies.slice(10)) {
    const res = await client.request("POST", "/text-search", auth, body)
    samples.push(res.ms)
    if (res.status !== 200 || (res.body?.data?.products?.length ?? 0) !== options.page) {
      if (errors++ < 3) log(`browse error ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`)
      continue
    }
    totals += res.body.data.total
  }
  return { samples, meanTotal: totals / Math.max(1, options.browses - errors), errors }
}

/** Mean results per query and the share of queries without any, over every kind. */
export const overallHits = (hits: ReadonlyMap<string, Hits>, queries: number) => {
  const all = [...hits.values()].reduce((a, h) => ({ total: a.total + h.total, zero: a.zero + h.zero }), {
    total: 0,
    zero: 0
  })
  return `${(all.total / queries).toFixed(1)} / ${((100 * all.zero) / queries).toFixed(0)}%`
}
