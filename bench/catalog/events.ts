/**
 * The events section (`--only events`): shoppers' events through POST /events on the embedded
 * default, and text search with popularity on against the same searches before any event.
 *
 * The catalog is site A's (the text section's when it ran; else `products` pushed here through
 * POST /products/bulk and embedded). Text search is measured with no shopper signals, then
 * `events` events are sent (views 70 %, clicks 15 %, carts 8 %, purchases with baskets of 1–6
 * products 5 %, searches 2 %; products drawn Zipf-like, so a few are popular) by 4 clients in
 * batches of 1,000 with site credentials: the accepted rate is what the target names. Then the
 * time until aggregation has read them all, and the same text searches again, each with the
 * popularity boost (the default campaign) and without it (campaign POPULARITY_OFF), in turn;
 * and a browse sorted by popularity.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { InProcessApi } from "../../test/support/InProcessApi.js"
import { check, fmtRate, log, memory, pendingJobs, type SectionReport, sleep } from "./common.js"
import { makeCatalog, type ProductSummary } from "./generator.js"
import type { Client } from "./http.js"
import { pushBulk } from "./bulk.js"
import { mulberry32 } from "./random.js"
import { ms, summarize } from "./stats.js"
import { textQueries } from "./workload.js"

export interface EventsOptions {
  readonly seed: number
  readonly page: number
  readonly queries: number
  /** Products to push when site A is empty (the text section did not run). */
  readonly products: number
  readonly catalogReady: boolean
  readonly events: number
}

/** A campaign like the default one but without the popularity boost (the bench server has it). */
export const POPULARITY_OFF = { id: 9, name: "popularity off", resultsCount: 100, popularityBoost: 0 }

const BATCH = 1_000
const CLIENTS = 4

const drained = async (client: Client) => {
  for (;;) {
    if ((await pendingJobs(client)) === 0) return
    await sleep(200)
  }
}

export const runEventsSection = async (
  server: InProcessApi,
  client: Client,
  options: EventsOptions
): Promise<SectionReport> => {
  const summaries: Array<ProductSummary> = []
  if (!options.catalogReady) {
    const dir = mkdtempSync(join(tmpdir(), "commerce-bench-events-"))
    try {
      const file = join(dir, "catalog.ndjson")
      const lines: Array<string> = []
      for (const { product, summary } of makeCatalog(options.seed).generate(options.products)) {
        lines.push(JSON.stringify({ id: product.id, data: product.data }))
        summaries.push(summary)
      }
      writeFileSync(file, `${lines.join("\n")}\n`)
      const push = await pushBulk(server.baseUrl, server.siteA.basic, file, () => {})
      log(`events: ${push.answered} products pushed (${push.failed} refused); embedding them`)
      await drained(client)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  } else {
    for (const { summary } of makeCatalog(options.seed).generate(options.products)) summaries.push(summary)
  }
  const ids = summaries.map((s) => s.id)

  // The same searches before and after: relevance only, then with the popularity boost.
  const queries = textQueries(mulberry32(options.seed).fork(60), summaries, options.queries, options.page)
  const search = async (body: object) => (await client.request("POST", "/text-search", server.siteA.bearer, body)).ms
  // Every query once first: the query-vector cache and the index's memos then serve both rounds alike.
  for (const q of queries) await search(q.body)
  const samples: Array<number> = []
  for (const q of queries) samples.push(await search(q.body))
  const before = summarize(samples)
  log(`events: text search before any event p50 ${ms(before.p50)} p99 ${ms(before.p99)} ms`)

  // Events, drawn Zipf-like over the catalog.
  const random = mulberry32(options.seed).fork(61)
  const product = () => ids[Math.min(ids.length - 1, Math.floor(ids.length * random.next() ** 3))]
  const now = Date.now()
  const batches: Array<Array<unknown>> = []
  for (let b = 0; b * BATCH < options.events; b++) {
    const batch: Array<unknown> = []
    for (let i = 0; i < BATCH && b * BATCH + i < options.events; i++) {
      const n = b * BATCH + i
      const roll = random.next()
      const timestamp = now - Math.floor(random.next() * 7 * 86_400_000)
      const eventId = `ev-${n}`
      if (roll < 0.7)
        batch.push({ eventId, type: "view", productIds: [product()], timestamp, sessionId: `s${n % 5_000}` })
      else if (roll < 0.85)
        batch.push({
          eventId,
          type: "click",
          productIds: [product()],
          timestamp,
          requestId: `bench-r${n % 20_000}`,
          position: 1 + (n % 20)
        })
      else if (roll < 0.93)
        batch.push({ eventId, type: "add_to_cart", productIds: [product()], timestamp, quantity: 1 })
      else if (roll < 0.98)
        batch.push({
          eventId,
          type: "purchase",
          orderId: `o${n}`,
          productIds: Array.from({ length: 1 + Math.floor(random.next() * 6) }, product),
          timestamp
        })
      else
        batch.push({
          eventId,
          type: "search",
          query: random.pick(summaries).noun,
          requestId: `bench-r${n % 20_000}`,
          resultsCount: n % 7,
          timestamp
        })
    }
    batches.push(batch)
  }
  const bodies = batches.map((events) => ({ events }))
  let next = 0
  let accepted = 0
  let refused = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]
        const res = await client.request("POST", "/events", server.siteA.basic, body)
        if (res.status === 200) accepted += res.body.data.accepted
        else if (refused++ < 3) log(`events: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`)
      }
    })
  )
  const sendSeconds = (performance.now() - started) / 1000
  await drained(client)
  const aggregateSeconds = (performance.now() - started) / 1000
  const acceptRate = accepted / sendSeconds
  log(
    `events: ${accepted} accepted in ${sendSeconds.toFixed(1)} s (${fmtRate(acceptRate)}/s), ` +
      `all aggregated after ${aggregateSeconds.toFixed(1)} s, ${memory()}`
  )

  // Popularity on: the signals are refreshed at most every 2 s after aggregation moves.
  await sleep(2_500)
  await client.request("POST", "/text-search", server.siteA.bearer, { query: "warm up", resultsCount: 10 })
  await sleep(500)
  const on: Array<number> = []
  const off: Array<number> = []
  for (const [i, q] of queries.entries()) {
    // In turn, so both see the same load.
    const first = i % 2 === 0
    const a = await search(first ? q.body : { ...q.body, campaign: POPULARITY_OFF.id })
    const b = await search(first ? { ...q.body, campaign: POPULARITY_OFF.id } : q.body)
    on.push(first ? a : b)
    off.push(first ? b : a)
  }
  const after = summarize(on)
  const without = summarize(off)
  const browse = []
  for (let i = 0; i < 50; i++)
    browse.push(
      (
        await client.request("POST", "/text-search", server.siteA.bearer, {
          sort: [{ column: "popular", order: "desc" }],
          resultsCount: options.page,
          offset: 0
        })
      ).ms
    )
  const popularBrowse = summarize(browse)
  log(
    `events: text search with popularity p50 ${ms(after.p50)} p99 ${ms(after.p99)} ms, ` +
      `without ${ms(without.p50)} / ${ms(without.p99)}; popular browse p50 ${ms(popularBrowse.p50)}`
  )

  return {
    summary: [
      [
        "Events accepted (POST /events, 4 clients, batches of 1,000)",
        `${fmtRate(acceptRate)} events/s (${accepted} in ${sendSeconds.toFixed(1)} s, ${refused} batches refused)`,
        "≥ 20,000 events/s",
        check(acceptRate >= 20_000)
      ],
      [
        "Events aggregated (from the first send until every event is counted)",
        `${fmtRate(accepted / aggregateSeconds)} events/s (${aggregateSeconds.toFixed(1)} s)`,
        "",
        ""
      ],
      [
        "Text search p50 / p99 with popularity on, against the same searches without the boost (in turn)",
        `${ms(after.p50)} / ${ms(after.p99)} ms against ${ms(without.p50)} / ${ms(without.p99)} ms ` +
          `(p50 ×${(after.p50 / without.p50).toFixed(2)}, p99 ×${(after.p99 / without.p99).toFixed(2)}); ` +
          `before any event ${ms(before.p50)} / ${ms(before.p99)} ms`,
        "unchanged within noise",
        ""
      ]
    ],
    latency: [
      [
        "text search before any event",
        String(before.count),
        ms(before.p50),
        ms(before.p95),
        ms(before.p99),
        ms(before.max),
        "",
        "0"
      ],
      [
        "text search, popularity on",
        String(after.count),
        ms(after.p50),
        ms(after.p95),
        ms(after.p99),
        ms(after.max),
        "",
        "0"
      ],
      [
        "text search, popularity off (campaign)",
        String(without.count),
        ms(without.p50),
        ms(without.p95),
        ms(without.p99),
        ms(without.max),
        "",
        "0"
      ],
      [
        `browse sorted by popularity, ${options.page} a page`,
        String(popularBrowse.count),
        ms(popularBrowse.p50),
        ms(popularBrowse.p95),
        ms(popularBrowse.p99),
        ms(popularBrowse.max),
        "",
        "0"
      ]
    ]
  }
}
