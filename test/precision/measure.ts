/**
 * Precision harness for issue 36: `npx tsx test/precision/measure.ts`.
 *
 * Starts the real service in this process (test/support/InProcessApi.ts, a fresh workspace),
 * pushes test/precision/Catalog.ts through POST /products/bulk, waits until the embedding
 * queue has drained, and runs every query of test/precision/Queries.ts through
 * POST /text-search for a page of 10. The same queries run on MiniSearch 7.2 over title and
 * description (title boosted 2, fuzzy 0.2, prefix), the configuration shops start with.
 * Prints one table: per engine, how many queries had any unwanted product (`mustNot`) on the
 * page, how many unwanted products there were in all, the recall of `must`, and how many pages
 * open with three variants of one item group (one shirt in three colours); then our failing queries
 * with what went wrong. `measurePrecision` returns the same numbers for a test to assert on.
 */
import { Effect } from "effect"
import MiniSearch from "minisearch"
import { pathToFileURL } from "node:url"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"
import { type CatalogProduct, catalog as fullCatalog, productRecord } from "./Catalog.js"
import { type PrecisionQuery, queries as allQueries } from "./Queries.js"

/** The page a shopper sees: what `must` and `mustNot` are about. */
export const PAGE_SIZE = 10

/** A ranking engine: the ids of the first page for a query. */
export type Ranker = (query: string) => Promise<ReadonlyArray<string>>

export interface QueryOutcome {
  readonly query: string
  readonly top: ReadonlyArray<string>
  /** Products on the page that a `mustNot` entry names (by id or item group). */
  readonly unwanted: ReadonlyArray<string>
  /** `must` entries with no product on the page. */
  readonly missing: ReadonlyArray<string>
  /** The first three results are variants of one item group (one shirt in three colours). */
  readonly crowded: boolean
}

export interface EngineScore {
  readonly engine: string
  readonly queries: number
  /** Queries with at least one unwanted product on the page. */
  readonly queriesWithUnwanted: number
  /** Unwanted products on all pages together. */
  readonly unwanted: number
  readonly mustFound: number
  readonly mustTotal: number
  /** mustFound / mustTotal. */
  readonly recall: number
  /** Queries whose top 3 are variants of one item group. */
  readonly crowdedTop3: number
  readonly outcomes: ReadonlyArray<QueryOutcome>
}

export interface PrecisionReport {
  readonly ours: EngineScore
  readonly minisearch: EngineScore
  readonly products: number
  /** Seconds from the first bulk line to a drained queue, and for running the queries on the service. */
  readonly ingestSeconds: number
  readonly searchSeconds: number
}

export interface MeasureOptions {
  readonly catalog?: ReadonlyArray<CatalogProduct>
  readonly queries?: ReadonlyArray<PrecisionQuery>
  /** A running service whose site A is empty (the harness starts and stops its own otherwise). */
  readonly api?: InProcessApi
  /** Longest wait for the embedding queue to drain. */
  readonly drainTimeoutMs?: number
}

// ---------------------------------------------------------------- scoring

/** Throws when a query names an id that is neither a product nor an item group of the catalog. */
export const checkQueries = (catalog: ReadonlyArray<CatalogProduct>, queries: ReadonlyArray<PrecisionQuery>) => {
  const known = new Set(catalog.flatMap((p) => (p.item_group_id ? [p.id, p.item_group_id] : [p.id])))
  const problems = queries.flatMap((q) => [
    ...q.must.flatMap((entry) => entry.split("|")).flatMap((id) => (known.has(id) ? [] : [`"${q.query}" must: ${id}`])),
    ...q.mustNot.flatMap((id) => (known.has(id) ? [] : [`"${q.query}" mustNot: ${id}`])),
    ...q.must.flatMap((entry) =>
      entry.split("|").some((id) => q.mustNot.includes(id)) ? [`"${q.query}": ${entry} in both lists`] : []
    )
  ])
  const seen = new Set<string>()
  for (const q of queries) {
    if (seen.has(q.query)) problems.push(`"${q.query}" is listed twice`)
    seen.add(q.query)
  }
  if (problems.length > 0) throw new Error(`precision queries name unknown products:\n  ${problems.join("\n  ")}`)
}

export const scoreEngine = (
  engine: string,
  catalog: ReadonlyArray<CatalogProduct>,
  queries: ReadonlyArray<PrecisionQuery>,
  rankings: ReadonlyMap<string, ReadonlyArray<string>>
): EngineScore => {
  const groupOf = new Map(catalog.map((p) => [p.id, p.item_group_id]))
  const names = (id: string, entry: string) => id === entry || groupOf.get(id) === entry
  const outcomes = queries.map((q): QueryOutcome => {
    const top = (rankings.get(q.query) ?? []).slice(0, PAGE_SIZE)
    const unwanted = top.filter((id) => q.mustNot.some((entry) => names(id, entry)))
    const missing = q.must.filter((entry) => !entry.split("|").some((alt) => top.some((id) => names(id, alt))))
    const groups = top
      .slice(0, 3)
      .map((id) => groupOf.get(id))
      .filter((g): g is string => g !== undefined)
    return { query: q.query, top, unwanted, missing, crowded: groups.length === 3 && new Set(groups).size === 1 }
  })
  const mustTotal = queries.reduce((n, q) => n + q.must.length, 0)
  const mustFound = mustTotal - outcomes.reduce((n, o) => n + o.missing.length, 0)
  return {
    engine,
    queries: queries.length,
    queriesWithUnwanted: outcomes.filter((o) => o.unwanted.length > 0).length,
    unwanted: outcomes.reduce((n, o) => n + o.unwanted.length, 0),
    mustFound,
    mustTotal,
    recall: mustTotal === 0 ? 1 : mustFound / mustTotal,
    crowdedTop3: outcomes.filter((o) => o.crowded).length,
    outcomes
  }
}

const rankAll = async (ranker: Ranker, queries: ReadonlyArray<PrecisionQuery>) => {
  const rankings = new Map<string, ReadonlyArray<string>>()
  for (const q of queries) rankings.set(q.query, await ranker(q.query))
  return rankings
}

// ---------------------------------------------------------------- engines

/** MiniSearch 7.2 over title and description, as a shop would set it up. */
export const miniSearchRanker = (catalog: ReadonlyArray<CatalogProduct>): Ranker => {
  const index = new MiniSearch<CatalogProduct>({
    fields: ["title", "description"],
    searchOptions: { boost: { title: 2 }, fuzzy: 0.2, prefix: true }
  })
  index.addAll(catalog)
  return async (query) =>
    index
      .search(query)
      .slice(0, PAGE_SIZE)
      .map((r) => String(r.id))
}

const readyz = async (baseUrl: string): Promise<{ pendingJobs?: number }> => {
  const res = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) })
  return res.ok ? ((await res.json()) as { pendingJobs?: number }) : {}
}

/** Pushes the catalog to site A in one NDJSON bulk request; throws unless every line was applied. */
export const pushCatalog = async (api: InProcessApi, catalog: ReadonlyArray<CatalogProduct>) => {
  const body = `${catalog.map((p) => JSON.stringify({ id: p.id, data: productRecord(p) })).join("\n")}\n`
  const res = await fetch(`${api.baseUrl}/products/bulk`, {
    method: "POST",
    headers: { authorization: api.siteA.basic, "content-type": "application/x-ndjson" },
    body
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`POST /products/bulk answered ${res.status}: ${text.slice(0, 500)}`)
  const answers = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { line: number; status: number; message: string })
  const failed = answers.filter((a) => a.status !== 200)
  if (answers.length !== catalog.length || failed.length > 0)
    throw new Error(
      `bulk push: ${answers.length} answers for ${catalog.length} products; failed: ` +
        failed.map((a) => `line ${a.line} (${catalog[a.line - 1]?.id}): ${a.message}`).join("; ")
    )
}

/** Waits until every job enqueued so far is handled and GET /readyz reports no pending job. */
export const waitForEmbeddings = async (api: InProcessApi, timeoutMs = 300_000) => {
  const deadline = Date.now() + timeoutMs
  await Promise.race([
    api.run(Effect.flatMap(JobQueue, (q) => q.drained)),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`jobs not drained after ${timeoutMs} ms`)), timeoutMs).unref()
    )
  ])
  while ((await readyz(api.baseUrl)).pendingJobs !== 0) {
    if (Date.now() > deadline) throw new Error(`GET /readyz still reports pending jobs after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** POST /text-search on site A with its read-only token, for a page of PAGE_SIZE. */
export const serviceRanker =
  (api: InProcessApi): Ranker =>
  async (query) => {
    const res = await fetch(`${api.baseUrl}/text-search`, {
      method: "POST",
      headers: { authorization: api.siteA.bearer, "content-type": "application/json" },
      body: JSON.stringify({ query, resultsCount: PAGE_SIZE })
    })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`POST /text-search "${query}" answered ${res.status}: ${text}`)
    const body = JSON.parse(text) as { data: { products: ReadonlyArray<{ productId: string }> } }
    return body.data.products.map((p) => p.productId)
  }

// ---------------------------------------------------------------- the measurement

export const measurePrecision = async (options: MeasureOptions = {}): Promise<PrecisionReport> => {
  const catalog = options.catalog ?? fullCatalog
  const queries = options.queries ?? allQueries
  checkQueries(catalog, queries)
  const minisearch = scoreEngine("MiniSearch", catalog, queries, await rankAll(miniSearchRanker(catalog), queries))
  const api = options.api ?? (await startInProcessApi({ prefix: "precision-", config: { EMBED_THREADS: 2 } }))
  try {
    const ingestStarted = performance.now()
    await pushCatalog(api, catalog)
    await waitForEmbeddings(api, options.drainTimeoutMs)
    const searchStarted = performance.now()
    const ours = scoreEngine("ours", catalog, queries, await rankAll(serviceRanker(api), queries))
    return {
      ours,
      minisearch,
      products: catalog.length,
      ingestSeconds: (searchStarted - ingestStarted) / 1000,
      searchSeconds: (performance.now() - searchStarted) / 1000
    }
  } finally {
    if (!options.api) await api.close()
  }
}

// ---------------------------------------------------------------- the report

const pad = (s: string, width: number) => (s.length >= width ? s : s + " ".repeat(width - s.length))
const padLeft = (s: string, width: number) => (s.length >= width ? s : " ".repeat(width - s.length) + s)

export const formatReport = (report: PrecisionReport, catalog: ReadonlyArray<CatalogProduct> = fullCatalog) => {
  const byId = new Map(catalog.map((p) => [p.id, p]))
  const title = (id: string) => byId.get(id)?.title ?? id
  const entryTitle = (entry: string) =>
    entry
      .split("|")
      .map((alt) => {
        if (byId.has(alt)) return title(alt)
        const variant = catalog.find((p) => p.item_group_id === alt)
        return variant ? `${variant.title} (any variant of ${alt})` : alt
      })
      .join(" or ")
  const lines: Array<string> = []
  const header = ["engine", "queries", "with unwanted", "unwanted", "must recall", "crowded top 3"]
  const widths = [12, 8, 14, 9, 18, 14]
  const row = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === 0 ? pad(c, widths[i]) : padLeft(c, widths[i]))).join("  ")
  lines.push(
    `precision@${PAGE_SIZE} on ${report.products} products, ${report.ours.queries} queries ` +
      `(ingest + embeddings ${report.ingestSeconds.toFixed(1)} s, service queries ${report.searchSeconds.toFixed(1)} s)`,
    "",
    row(header)
  )
  for (const s of [report.ours, report.minisearch])
    lines.push(
      row([
        s.engine,
        String(s.queries),
        String(s.queriesWithUnwanted),
        String(s.unwanted),
        `${(s.recall * 100).toFixed(1)}% (${s.mustFound}/${s.mustTotal})`,
        String(s.crowdedTop3)
      ])
    )
  const failing = report.ours.outcomes.filter((o) => o.unwanted.length > 0 || o.missing.length > 0)
  lines.push("", `our failing queries: ${failing.length} of ${report.ours.queries}`)
  for (const o of failing) {
    lines.push(`  "${o.query}"`)
    if (o.unwanted.length > 0)
      lines.push(`    unwanted: ${o.unwanted.map((id) => `#${o.top.indexOf(id) + 1} ${title(id)}`).join("; ")}`)
    if (o.missing.length > 0) lines.push(`    missing:  ${o.missing.map(entryTitle).join("; ")}`)
  }
  const crowded = report.ours.outcomes.filter((o) => o.crowded)
  if (crowded.length > 0)
    lines.push(
      "",
      "our pages opening with three variants of one item group:",
      ...crowded.map((o) => `  "${o.query}": ${o.top.slice(0, 3).map(title).join("; ")}`)
    )
  return lines.join("\n")
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (isMain) {
  measurePrecision().then(
    (report) => {
      console.log(formatReport(report))
      process.exit(0)
    },
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
