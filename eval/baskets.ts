/**
 * `npm run eval:baskets -- <dir>`: cross-selling judged by real purchase baskets (the UCI Online
 * Retail set, `../shared/data/copurchase`; see its README).
 *
 * The catalog (`products.jsonl`) is pushed into a site through POST /products/bulk; the train
 * orders (`orders.train.jsonl`) are split by time: the earlier 85 % are replayed as purchase
 * events through POST /events, the later 15 % validate. For each validation order with two or
 * more products, one product is hidden and another of the same basket (both drawn with a fixed
 * seed) is the source: POST /cross-selling for the source is judged by where the hidden product
 * ranks in its first 10 (hit rate and MRR at 10). Peers computed in the same run from the same
 * replayed orders: global best-sellers and plain co-occurrence counts (how often a product was
 * in the same order as the source; ties and short lists filled by best-sellers). Nothing is
 * fitted on the validation orders; the held-out orders of the data set are not read at all.
 *
 * Popularity in ranking, on a search task: for one product of each validation order (its own
 * seeded draw), a shopper's short query: the last word of its title ("holder", "cases": a
 * generic query many products match) or its last two ("t-light holder"), judged by where the
 * bought product ranks in the first 10 of POST /text-search, for several popularity boosts
 * (campaigns; the default one is DEFAULT_POPULARITY_BOOST), beside BM25 over the titles
 * (MiniSearch) in the same run.
 *
 * Options: --validate-share F (0.15), --seed N (7), --max-queries N (all), --search-queries N (1,000).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { LogLevel } from "effect"
import MiniSearch from "minisearch"
import { mulberry32 } from "../bench/catalog/random.js"
import { DEFAULT_POPULARITY_BOOST } from "../src/domain/Site.js"
import { call } from "../test/support/Http.js"
import { startInProcessApi } from "../test/support/InProcessApi.js"

interface Order {
  readonly order_id: string
  readonly ts: string
  readonly customer_id: string | null
  readonly products: ReadonlyArray<string>
}

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const dir = args.find((a, i) => !a.startsWith("--") && (i === 0 || !args[i - 1].startsWith("--")))
if (dir === undefined) {
  console.error("usage: npm run eval:baskets -- <copurchase dir> [--validate-share 0.15] [--seed 7] [--max-queries N]")
  process.exit(2)
}
const validateShare = option("validate-share", 0.15)
const seed = option("seed", 7)
const maxQueries = option("max-queries", Infinity)
const searchQueries = option("search-queries", 1_000)

const readJsonl = <A>(file: string): Array<A> =>
  readFileSync(join(dir, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as A)

const products = readJsonl<{ id: string; title: string | null }>("products.jsonl")
const catalog = new Set(products.map((p) => p.id))
const orders = readJsonl<Order>("orders.train.jsonl")
  .map((o) => ({ ...o, products: [...new Set(o.products)].filter((p) => catalog.has(p)) }))
  .sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0))
const cut = Math.floor(orders.length * (1 - validateShare))
const fit = orders.slice(0, cut)
const validation = orders.slice(cut)

// The judged pairs: drawn once, the same for every method.
const random = mulberry32(seed)
const pick = <A>(items: ReadonlyArray<A>) => items[Math.floor(random.next() * items.length)]
const queries: Array<{ readonly source: string; readonly hidden: string }> = []
for (const order of validation) {
  if (order.products.length < 2 || queries.length >= maxQueries) continue
  const hidden = pick(order.products)
  queries.push({ hidden, source: pick(order.products.filter((p) => p !== hidden)) })
}

// The search task: one bought product per validation order, its title's last two words as the query.
const titles = new Map(products.map((p) => [p.id, p.title]))
const searchRandom = mulberry32(seed + 1)
const searches: Array<{ readonly words: ReadonlyArray<string>; readonly bought: string }> = []
for (const order of validation) {
  if (searches.length >= searchQueries) break
  const bought = order.products[Math.floor(searchRandom.next() * order.products.length)]
  const words = (titles.get(bought) ?? "")
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => /[a-z]/.test(w))
  if (words.length >= 3) searches.push({ words, bought })
}
/** Two tasks: a generic query (the head noun: "holder", many products) and a specific one (the last two words). */
const TASKS = { "one word": 1, "two words": 2 } as const
const BOOSTS = [...new Set([0, 0.1, DEFAULT_POPULARITY_BOOST, 0.4, 0.8])].sort((a, b) => a - b)

// ---- Peers, from the replayed orders only ------------------------------------------------------
const purchases = new Map<string, number>()
const together = new Map<string, Map<string, number>>()
for (const order of fit) {
  for (const p of order.products) purchases.set(p, (purchases.get(p) ?? 0) + 1)
  for (const a of order.products) {
    let row = together.get(a)
    if (row === undefined) together.set(a, (row = new Map()))
    for (const b of order.products) if (b !== a) row.set(b, (row.get(b) ?? 0) + 1)
  }
}
const bestSellers = [...purchases].sort((a, b) => b[1] - a[1]).map(([p]) => p)
const filled = (ranked: ReadonlyArray<string>, source: string) => {
  const out = ranked.slice(0, 10)
  for (const p of bestSellers) {
    if (out.length >= 10) break
    if (p !== source && !out.includes(p)) out.push(p)
  }
  return out
}
const peers: Record<string, (source: string) => ReadonlyArray<string>> = {
  "global best-sellers": (source) => filled([], source),
  "plain co-occurrence counts": (source) =>
    filled(
      [...(together.get(source) ?? new Map<string, number>())]
        .sort((a, b) => b[1] - a[1] || (purchases.get(b[0]) ?? 0) - (purchases.get(a[0]) ?? 0))
        .map(([p]) => p),
      source
    )
}

// ---- The service -----------------------------------------------------------------------------------
const log = (line: string) => process.stderr.write(`[baskets] ${line}\n`)
log(
  `${products.length} products; ${orders.length} train orders: ` +
    `${fit.length} replayed (to ${fit.at(-1)?.ts}), ${validation.length} validate ` +
    `(${validation[0]?.ts} .. ${validation.at(-1)?.ts}); ${queries.length} judged pairs`
)
const server = await startInProcessApi({
  prefix: "commerce-baskets-",
  logLevel: LogLevel.Error,
  campaigns: [
    { id: 0, name: "default", resultsCount: 10 },
    ...BOOSTS.map((popularityBoost, i) => ({
      id: i + 1,
      name: `popularity ${popularityBoost}`,
      resultsCount: 10,
      popularityBoost
    }))
  ]
})
try {
  const auth = server.siteA.basic
  const body = products
    .map((p) => `${JSON.stringify({ id: p.id, data: p.title === null ? {} : { title: p.title } })}\n`)
    .join("")
  const pushed = await fetch(`${server.baseUrl}/products/bulk`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/x-ndjson" },
    body
  })
  const refused = (await pushed.text())
    .trim()
    .split("\n")
    .filter((line) => !line.includes('"status":200'))
  if (refused.length > 0) log(`${refused.length} products refused, e.g. ${refused[0]}`)
  const drained = async () => {
    for (;;) {
      const ready = await call(server.baseUrl, "GET", "/readyz")
      if (ready.body?.pendingJobs === 0) return
      await new Promise((r) => setTimeout(r, 500))
    }
  }
  await drained()
  log("catalog pushed and embedded")

  const service = async (source: string) => {
    const res = await call(server.baseUrl, "POST", "/cross-selling", {
      auth,
      body: { productId: source, resultsCount: 10 }
    })
    if (res.status !== 200)
      throw new Error(`POST /cross-selling ${source} answered ${res.status}: ${JSON.stringify(res.body)}`)
    return (res.body.data.products as Array<{ productId: string }>).map((p) => p.productId)
  }

  const rows: Array<[string, number, number, number]> = []
  const judge = async (
    name: string,
    recommend: (source: string) => ReadonlyArray<string> | Promise<ReadonlyArray<string>>
  ) => {
    let hits = 0
    let reciprocal = 0
    const started = performance.now()
    for (const { source, hidden } of queries) {
      const rank = (await recommend(source)).slice(0, 10).indexOf(hidden)
      if (rank >= 0) {
        hits++
        reciprocal += 1 / (rank + 1)
      }
    }
    rows.push([
      name,
      hits / queries.length,
      reciprocal / queries.length,
      (performance.now() - started) / queries.length
    ])
  }
  // Before any event: the content rule alone (what the service answers without purchase evidence).
  await judge("POST /cross-selling before any order (content rule only)", service)
  const events = fit
    .filter((o) => o.products.length > 0)
    .map((o) => ({
      eventId: `order-${o.order_id}`,
      type: "purchase",
      orderId: o.order_id,
      productIds: o.products,
      ...(o.customer_id ? { userToken: o.customer_id } : {}),
      timestamp: `${o.ts}Z`
    }))
  let accepted = 0
  const replaying = performance.now()
  for (let i = 0; i < events.length; i += 1_000) {
    const res = await call(server.baseUrl, "POST", "/events", { auth, body: { events: events.slice(i, i + 1_000) } })
    if (res.status !== 200) throw new Error(`POST /events answered ${res.status}: ${JSON.stringify(res.body)}`)
    accepted += res.body.data.accepted
  }
  log(`${accepted} orders replayed as purchase events`)

  await drained()
  log(`orders sent and aggregated in ${((performance.now() - replaying) / 1000).toFixed(1)} s`)
  await judge("POST /cross-selling (the service, orders replayed)", service)
  for (const [name, recommend] of Object.entries(peers)) await judge(name, recommend)

  console.log(
    `\nCross-selling judged by ${queries.length} held-out baskets (hide one product, recommend for another ` +
      `of the same basket); seed ${seed}\n`
  )
  console.log("| method | hit rate@10 | MRR@10 | ms a query |")
  console.log("|---|---|---|---|")
  for (const [name, hit, mrr, ms] of rows)
    console.log(`| ${name} | ${(100 * hit).toFixed(2)} % | ${mrr.toFixed(4)} | ${ms.toFixed(1)} |`)

  // ---- Popularity in ranking: the search task ----
  const searchRows = new Map<string, Array<string>>()
  const judgeSearch = async (
    name: string,
    rank: (query: string) => Promise<ReadonlyArray<string>> | ReadonlyArray<string>
  ) => {
    const cells: Array<string> = []
    for (const length of Object.values(TASKS)) {
      let hits = 0
      let reciprocal = 0
      for (const { bought, words } of searches) {
        const at = (await rank(words.slice(-length).join(" "))).slice(0, 10).indexOf(bought)
        if (at >= 0) {
          hits++
          reciprocal += 1 / (at + 1)
        }
      }
      cells.push(`${((100 * hits) / searches.length).toFixed(2)} %`, (reciprocal / searches.length).toFixed(4))
    }
    searchRows.set(name, cells)
  }
  for (const [i, boost] of BOOSTS.entries()) {
    await judgeSearch(
      `POST /text-search, popularity boost ${boost}${boost === DEFAULT_POPULARITY_BOOST ? " (default)" : ""}`,
      async (query) => {
        const res = await call(server.baseUrl, "POST", "/text-search", {
          auth,
          body: { query, campaign: i + 1, resultsCount: 10 }
        })
        if (res.status !== 200) throw new Error(`POST /text-search answered ${res.status}`)
        return (res.body.data.products as Array<{ productId: string }>).map((p) => p.productId)
      }
    )
  }
  const bm25 = new MiniSearch<{ id: string; title: string }>({ fields: ["title"], storeFields: [] })
  bm25.addAll(products.filter((p) => p.title !== null).map((p) => ({ id: p.id, title: p.title! })))
  await judgeSearch("BM25 over titles (MiniSearch, all words)", (query) =>
    bm25.search(query, { combineWith: "AND" }).map((r) => String(r.id))
  )
  console.log(
    `\nSearch task: ${searches.length} bought products of validation orders; ` +
      `the query is the last word of the title, or its last two; the bought product judged in the first 10\n`
  )
  console.log("| ranking | one word: hit rate@10 | MRR@10 | two words: hit rate@10 | MRR@10 |")
  console.log("|---|---|---|---|---|")
  for (const [name, cells] of searchRows) console.log(`| ${name} | ${cells.join(" | ")} |`)
} finally {
  await server.close()
}
