/** The distributed bench's markdown table: one row per measurement, one column per topology. */
import { check, fmtRate } from "../catalog/common.js"
import { mb, ms } from "../catalog/stats.js"
import { cpuPer, type IndexRun } from "./ingestion.js"
import type { RssSnapshot } from "./cluster.js"
import type { BulkRun } from "./bulk.js"
import { type TopologyName, type TopologyResult, topologyLabel } from "./topology-run.js"

/** A topology that ran, or why it did not. */
export type Column =
  | { readonly name: TopologyName; readonly result: TopologyResult }
  | { readonly name: TopologyName; readonly skipped: string }

const TEXT_P50_RATIO = 1.5
const TEXT_P99_RATIO = 2
const VISUAL_P50_MS = 200
const PUSH_RATE = 1_000
const BULK_RATE = 5_000
const BULK_SEARCH_P99_MS = 150
const PATCH_RATE = 10_000
const PLAIN_RATIO = 0.5

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const plusMb = (bytes: number) => `${bytes >= 0 ? "+" : "−"}${mb(Math.abs(bytes))}`
const rate = (run: IndexRun) => run.products / run.seconds

/** Runs of one kind and worker count: the best rate, and the range over repeats. */
const bestOf = (runs: ReadonlyArray<IndexRun>) => {
  if (runs.length === 0) return undefined
  const sorted = [...runs].sort((a, b) => rate(b) - rate(a))
  return {
    best: sorted[0],
    range:
      runs.length > 1
        ? ` (${fmtRate(rate(sorted[sorted.length - 1]))}–${fmtRate(rate(sorted[0]))} over ${runs.length} runs)`
        : ""
  }
}

/** Non-2xx answers by status ("none" when all succeeded). */
const refused = (statuses: ReadonlyMap<number, number>) => {
  const bad = [...statuses].filter(([status]) => status < 200 || status >= 300)
  const total = [...statuses.values()].reduce((s, n) => s + n, 0)
  return {
    ok: bad.length === 0,
    text:
      bad.length === 0
        ? `none of ${total}`
        : `${bad.map(([status, n]) => `${n} × ${status === 0 ? "no answer" : status}`).join(", ")} of ` +
          `${total}${statuses.has(413) ? " (413: body rejected)" : ""}`
  }
}

export const distributedTable = (
  columns: ReadonlyArray<Column>,
  workerCounts: ReadonlyArray<number>
): Array<Array<string>> => {
  const ran = columns.flatMap((c) => ("result" in c ? [c.result] : []))
  const rows: Array<Array<string>> = []
  /** A row with `cell` per topology that ran ("" where it has nothing to say) and "skipped" where not. */
  const row = (metric: string, target: string, cell: (r: TopologyResult) => string | undefined) => {
    const cells = columns.map((c) => ("result" in c ? (cell(c.result) ?? "—") : "skipped"))
    if (cells.some((v) => v !== "—" && v !== "skipped")) rows.push([metric, target, ...cells])
  }
  const products = ran[0]?.fill.products ?? 0

  row("Catalog when measured (bulk fill, see notes)", "", (r) =>
    r.fill.products === 0
      ? "empty (no fill)"
      : `${r.fill.products - r.fill.photos} text + ${r.fill.photos} with a photo: ` +
        `written in ${r.fill.seconds.toFixed(0)} s (${fmtRate(r.fill.products / r.fill.seconds)} ` +
        `products/s: store ${r.fill.storeSeconds.toFixed(0)} s, index ${r.fill.indexSeconds.toFixed(0)} s, ` +
        `vocabulary ${r.fill.suggestSeconds.toFixed(0)} s; ` +
        `photo anchors ${r.fill.anchorSeconds.toFixed(0)} s before); ` +
        `api serving all of it ${r.fill.servedSeconds.toFixed(1)} s later` +
        (r.fill.settledSeconds === undefined
          ? ""
          : `, Qdrant optimizers idle ${r.fill.settledSeconds.toFixed(0)} s after that`) +
        (r.fill.drainedJobs > 0
          ? `; ${r.fill.drainedJobs} jobs queued by reconcile meanwhile, run before measuring`
          : "")
  )
  // The Qdrant topology is held to the Redis-only one measured in the same run (ratios hold on
  // any machine); each absolute figure is printed beside.
  const redisRun = columns.flatMap((c) => (c.name === "redis" && "result" in c ? [c.result] : []))[0]
  const redisText = redisRun?.text
  const latency = (pick: "p50" | "p99", bound: number) => (r: TopologyResult) => {
    if (r.text === undefined) return undefined
    const own = r.text.latency[pick]
    if (r === redisRun || redisText === undefined) return `${ms(own)} ms`
    const ratio = own / redisText.latency[pick]
    return `${ms(own)} ms, ${ratio.toFixed(2)} × Redis-only ${check(ratio <= bound && r.text.errors === 0)}`
  }
  row(
    `Text search p50 (HTTP, ${ran[0]?.text?.latency.count ?? 0} queries one at a time)`,
    `Qdrant ≤ ${TEXT_P50_RATIO} × Redis-only`,
    latency("p50", TEXT_P50_RATIO)
  )
  row("Text search p99", `Qdrant ≤ ${TEXT_P99_RATIO} × Redis-only`, latency("p99", TEXT_P99_RATIO))
  row(
    "Text search p95 / max; mean results / zero-result share; errors",
    "",
    (r) => r.text && `${ms(r.text.latency.p95)} / ${ms(r.text.latency.max)} ms; ${r.text.hits}; ${r.text.errors} errors`
  )
  row("Text search stages, mean / p99 ms (the api's Server-Timing; stages overlap)", "", (r) => r.text?.stages)
  row(
    "Text search: dependent Qdrant rounds / requests per search, p50 / max (queries new to the run; repeated)",
    "≤ 2 rounds",
    (r) => r.text?.rounds
  )
  row(
    `Visual search p50 (HTTP, ${ran[0]?.visual?.latency.count ?? 0} JPEG/PNG queries, base64)`,
    `≤ ${VISUAL_P50_MS} ms`,
    (r) =>
      r.visual &&
      `${ms(r.visual.latency.p50)} ms ` +
        `${check(r.visual.latency.p50 <= VISUAL_P50_MS && r.visual.errors === 0)} ` +
        `(p95 ${ms(r.visual.latency.p95)}, p99 ${ms(r.visual.latency.p99)} ms; ` +
        `${r.visual.meanResults.toFixed(1)} results; ${r.visual.errors} errors)`
  )
  row("Visual search stages, mean / p99 ms (Server-Timing)", "", (r) => r.visual?.stages)
  row(
    `API accepts PUT /product (${ran[0]?.pushes[0]?.products ?? 0} products a push, no worker running)`,
    `≥ ${PUSH_RATE.toLocaleString("en")} products/s`,
    (r) => {
      if (r.pushes.length === 0) return undefined
      const rates = r.pushes.map((p) => p.rate)
      const ok = r.pushes.every((p) => p.rate >= PUSH_RATE && p.errors === 0)
      return (
        `${fmtRate(Math.min(...rates))}${rates.length > 1 ? `–${fmtRate(Math.max(...rates))}` : ""} ` +
        `products/s ${check(ok)} ` +
        `(PUT p50 ${r.pushes.map((p) => ms(p.latency.p50)).join("/")} ms, p99 ` +
        `${r.pushes.map((p) => ms(p.latency.p99)).join("/")} ms)`
      )
    }
  )
  const minWorkers = Math.min(...workerCounts)
  for (const kind of ["text", "images"] as const) {
    for (const w of workerCounts) {
      const label =
        `Ingestion${kind === "text" ? ", text only" : ", 1 photo each"}, ` +
        `${w} worker process${w > 1 ? "es" : ""} (fresh products on top of the catalog)`
      row(label, w > minWorkers ? "grows with workers" : "", (r) => {
        const mine = bestOf(r.runs.filter((run) => run.kind === kind && run.workers === w))
        if (!mine) return undefined
        const { best } = mine
        const base = bestOf(r.runs.filter((run) => run.kind === kind && run.workers === minWorkers))
        const growth =
          w > minWorkers && base
            ? ` ×${(rate(best) / rate(base.best)).toFixed(2)} ${check(rate(best) > rate(base.best))}`
            : ""
        const images =
          kind === "images"
            ? ` = ${fmtRate(best.images / best.seconds)} images/s, first pass ${best.firstPassSeconds.toFixed(0)} s`
            : ""
        return (
          `${fmtRate(rate(best))} products/s${growth}${mine.range} ` +
          `(${best.products} in ${best.seconds.toFixed(1)} s${images}; ${best.failedJobs} failed jobs; ` +
          `CPU ms per product ${cpuPer(best.cpu, best.products, r.indexingProcesses)}; ` +
          `workers ${(best.cpu.workers / best.seconds).toFixed(2)} cores busy)`
        )
      })
    }
  }
  // ---- Bulk pushes (against the embedded default's targets, for comparison) --------------------
  for (const w of workerCounts) {
    const runsOf = (r: TopologyResult) => r.bulk.filter((run) => run.workers === w)
    const workersLabel = `${w} worker process${w > 1 ? "es" : ""}`
    const cell = (r: TopologyResult, f: (run: BulkRun) => string) =>
      runsOf(r).length === 0 ? undefined : runsOf(r).map(f).join("; ")
    row(
      `Bulk push, ${workersLabel}: lines accepted (${ran[0]?.bulk[0]?.products ?? 0} text products, one ` +
        `POST /products/bulk, one shopper searching)`,
      `≥ ${BULK_RATE.toLocaleString("en")}/s`,
      (r) =>
        cell(
          r,
          (run) =>
            `${fmtRate(run.acceptRate)}/s ${check(run.acceptRate >= BULK_RATE && run.failed === 0)} ` +
            `(${run.failed} not 200); found by their words ${run.lexicalSeconds.toFixed(1)} s after the start`
        )
    )
    row(
      `Bulk push, ${workersLabel}: against Qdrant's own upsert of the same points (words, columns, text vector; ` +
        "batches of 256, two in flight, into a fresh collection of the same layout, its column indexes made first " +
        "inside its clock as ours are inside our push's, no worker running); ours here with a worker embedding " +
        "and a shopper searching, so not in its conditions (the next row is)",
      "",
      (r) =>
        cell(r, (run) => {
          if (run.plain === undefined) return "—"
          const plainRate = run.plain.products / run.plain.seconds
          const ratio = run.acceptRate / plainRate
          return (
            `plain ${fmtRate(plainRate)}/s; ours ${ratio.toFixed(2)} ×; Qdrant CPU ` +
            `ms a product: plain ${((1000 * run.plain.qdrantCpu) / run.plain.products).toFixed(2)}, ours ` +
            `${((1000 * run.cpu.qdrant) / run.products).toFixed(2)} (the push and the workers' writes until embedded)`
          )
        })
    )
    row(
      `Bulk push, ${workersLabel}: alone (the plain upsert's conditions: no worker taking jobs, nobody ` +
        "searching; the same products under other ids, deleted after), against the plain upsert",
      `ours ≥ ${PLAIN_RATIO} × the plain upsert`,
      (r) =>
        cell(r, (run) => {
          if (run.plain === undefined || run.alone === undefined) return "—"
          const ratio = run.alone.rate / (run.plain.products / run.plain.seconds)
          return (
            `${fmtRate(run.alone.rate)}/s (${run.alone.failed} not 200); ${ratio.toFixed(2)} × ` +
            `${check(ratio >= PLAIN_RATIO)} (${(run.alone.rate / (run.plain.products / run.plain.upsertSeconds)).toFixed(2)} × ` +
            `its upserts alone); Qdrant CPU ms a product: plain ` +
            `${((1000 * run.plain.qdrantCpu) / run.plain.products).toFixed(2)}, ours ` +
            `${((1000 * run.alone.qdrantCpu) / run.products).toFixed(2)}`
          )
        })
    )
    row(`Bulk push, ${workersLabel}: text search during the push p50 / p99`, `p99 ≤ ${BULK_SEARCH_P99_MS} ms`, (r) =>
      cell(
        r,
        (run) =>
          `${ms(run.searches.p50)} / ${ms(run.searches.p99)} ms ` +
          `${check(run.searches.p99 <= BULK_SEARCH_P99_MS && run.searchErrors === 0)} ` +
          `(${run.searches.count} searches, ${run.searchErrors} errors)`
      )
    )
    row(`Bulk push, ${workersLabel}: all embedded by the workers`, "as fast as the model allows", (r) =>
      cell(
        r,
        (run) =>
          `${run.embeddedSeconds.toFixed(0)} s after the start ` +
          `(${fmtRate(run.products / run.embeddedSeconds)}/s; CPU ms per product ` +
          `${cpuPer(run.cpu, run.products, r.indexingProcesses)})`
      )
    )
    row(`Bulk push, ${workersLabel}: price / stock patches`, `≥ ${PATCH_RATE.toLocaleString("en")}/s`, (r) =>
      cell(
        r,
        (run) =>
          `${fmtRate(run.patchRate)}/s ${check(run.patchRate >= PATCH_RATE && run.patchFailed === 0)} ` +
          `(${run.patchFailed} not 200; new price found by a filter at once: ${run.patchVisible ? "yes" : "no"})`
      )
    )
    row(`Bulk push, ${workersLabel}: peak RSS`, "", (r) =>
      cell(
        r,
        (run) =>
          `api ${mb(run.peakRss.api)}, ` +
          `redis ` +
          `${mb(run.peakRss.redis)}${run.peakRss.qdrant > 0 ? `, qdrant ${mb(run.peakRss.qdrant)}` : ""}, ` +
          `workers ${mb(run.peakRss.workers)}; load ${run.load}`
      )
    )
  }
  row("Worker start-up on the catalog (until it serves: replicas filled from the store)", "", (r) => {
    if (r.runs.length === 0) return undefined
    const [fastest, slowest] = [
      Math.min(...r.runs.map((run) => run.startSeconds)),
      Math.max(...r.runs.map((run) => run.startSeconds))
    ]
    return `${fastest.toFixed(1)}${slowest > fastest ? `–${slowest.toFixed(1)}` : ""} s`
  })
  row("PUT /product answers other than 2xx (pushes and ingestion)", "none (no body rejected)", (r) => {
    const { ok, text } = refused(r.statuses.put)
    return `${text} ${check(ok)}`
  })
  row("Search and polling answers other than 2xx", "none", (r) => {
    const { ok, text } = refused(r.statuses.search)
    return `${text} ${check(ok)}`
  })

  // ---- Memory -------------------------------------------------------------------------------
  const rssRow = (label: string, of: (s: RssSnapshot) => number | undefined) =>
    row(`RSS ${label}: before the fill → after → at the end`, "", (r) => {
      const [before, after, end] = [of(r.rss.beforeFill), of(r.rss.afterFill), of(r.rss.end)]
      return before === undefined || after === undefined
        ? undefined
        : `${mb(before)} → ${mb(after)} (${plusMb(after - before)}) → ${end === undefined ? "-" : mb(end)}`
    })
  rssRow("redis-server", (s) => s.redis)
  rssRow("qdrant", (s) => s.qdrant)
  rssRow("api", (s) => s.api)
  row("RSS of a worker once serving: empty catalog → full catalog", "", (r) => {
    const full = r.runs[0]?.workerRss[0]
    return r.workerRssEmpty === undefined || full === undefined
      ? undefined
      : `${mb(r.workerRssEmpty)} → ${mb(full)} (${plusMb(full - r.workerRssEmpty)})`
  })
  row("Qdrant storage on disk after the fill", "", (r) =>
    r.qdrantDiskBytes === undefined ? undefined : mb(r.qdrantDiskBytes)
  )
  /** RSS growth over the fill per filled product, per process. */
  const perProduct = (r: TopologyResult) => {
    const delta = (of: (s: RssSnapshot) => number | undefined) => {
      const [before, after] = [of(r.rss.beforeFill), of(r.rss.afterFill)]
      return before === undefined || after === undefined ? undefined : (after - before) / r.fill.products
    }
    const full = r.runs[0]?.workerRss[0]
    return {
      redis: delta((s) => s.redis),
      qdrant: delta((s) => s.qdrant),
      api: delta((s) => s.api),
      worker:
        r.workerRssEmpty === undefined || full === undefined ? undefined : (full - r.workerRssEmpty) / r.fill.products
    }
  }
  if (products > 0) {
    row("Memory per product (RSS growth over the fill ÷ products filled)", "", (r) => {
      const p = perProduct(r)
      return Object.entries(p)
        .flatMap(([name, v]) => (v === undefined ? [] : [`${name} ${kb(v)}`]))
        .join(", ")
    })
    row(
      "Memory per product, whole topology: redis [+ qdrant] + api + one worker " +
        "(every further api or worker adds its own share)",
      "",
      (r) => {
        const p = perProduct(r)
        const parts = [p.redis, p.qdrant, p.api, p.worker].filter((v): v is number => v !== undefined)
        return (
          `${kb(parts.reduce((s, v) => s + v, 0))} ` +
          `(${mb(parts.reduce((s, v) => s + v, 0) * r.fill.products)} for ${r.fill.products} products)`
        )
      }
    )
  }
  row("Load average (1 min): start → end of the topology's run", "", (r) => `${r.load.start} → ${r.load.end}`)
  return rows
}

export const tableHeader = (columns: ReadonlyArray<Column>) => [
  "Metric",
  "Target",
  ...columns.map((c) => topologyLabel[c.name])
]

/** Why a topology was skipped, as notes under the table. */
export const skipNotes = (columns: ReadonlyArray<Column>) =>
  columns.flatMap((c) => ("skipped" in c ? [`${topologyLabel[c.name]} skipped: ${c.skipped}.`] : []))
