/**
 * Relevance evaluation: `npm run eval:relevance -- <set dir | set name> [options]`.
 *
 * Loads a relevance set (see /work/shared/data/README.md) into a fresh site of the real service
 * layers (temp dir, deleted at the end), ingests it the way PUT /product does, runs the dev
 * queries through textSearch (the POST /text-search code path) and prints nDCG@10, judged-only
 * nDCG@10 and recall@100 beside the BM25 peer the data README names (MiniSearch, title boost 2) computed in the same run, and
 * the precision of the whole result set (matches per query, the share of returned judged
 * products with gain 0, what 50 made-up two-word queries return). Extra runs call
 * CatalogIndex.search directly and are labelled as such.
 *
 * Options:
 *   --limit-queries N        first N scorable dev queries only (quick runs)
 *   --weights L,T            also run a direct search with fusion weights lexical L, text T
 *   --min-similarity X       also run a direct search with this dense minSimilarity
 *   --sweep                  fusion weight / minSimilarity grid (direct search, not the product path)
 *   --variants               index-tuning experiments on a private second index (field weights,
 *                            fuzzy/prefix off, title-only embeddings)
 *   --sweep-queries N        run the sweep and variants on the first N evaluated queries only
 *                            (their rows then compare with BM25 on the same N queries)
 *   --no-components          skip the lexical-only / dense-only breakdown
 *   --per-query FILE         write each query's nDCG@10, ours and the peer's, with its text (TSV; top 10s in FILE.json)
 *   --qdrant URL             also run the product path with the index in the Qdrant at URL (the
 *                            embedded index's documents copied into a fresh collection, dropped after)
 *   --synonyms FILE          also run the product path with the site's synonyms set to FILE's (a JSON
 *                            array of POST /synonyms/batch entries without ids; eval/relevance/synonyms.json)
 */
import { Effect, Logger, LogLevel } from "effect"
import { baselineRankings } from "./relevance/Baseline.js"
import { loadRelevanceSet, resolveSetDir } from "./relevance/Dataset.js"
import { ingest } from "./relevance/Harness.js"
import { ndcgAt, score, scorable } from "./relevance/Metrics.js"
import type { EvalQuery, Qrels } from "./relevance/Dataset.js"
import { writeFileSync } from "node:fs"
import { count, header, row } from "./relevance/Report.js"
import {
  directRankings,
  productRankings,
  queryVectors,
  sameTop,
  withIndex,
  type DirectConfig
} from "./relevance/Runs.js"
import { indexedDocuments, reembed, runOnVariantIndex } from "./relevance/Variants.js"
import { qdrantProductRankings } from "./relevance/QdrantRun.js"
import { makeEvalWorkspace } from "./Workspace.js"
import { withSynonyms } from "./relevance/Synonyms.js"
import { nonsenseOf, nonsenseQueries, precisionHeader, precisionOf, precisionRow } from "./relevance/Precision.js"
import { joinedTokenQueries, rankingsOf } from "./relevance/QueryGroups.js"

/** Made-up two-word queries asked of both systems (see Precision.ts). */
const NONSENSE_QUERIES = 50

const parseArgs = (argv: ReadonlyArray<string>) => {
  const positional: Array<string> = []
  const options = {
    qdrant: undefined as undefined | string,
    limit: Infinity,
    weights: undefined as undefined | { lexical: number; text: number },
    minSimilarity: undefined as undefined | number,
    sweep: false,
    variants: false,
    components: true,
    sweepLimit: Infinity,
    perQuery: undefined as undefined | string,
    synonyms: undefined as undefined | string
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${arg} needs a value`)
      return v
    }
    if (arg === "--limit-queries") options.limit = Number(value())
    else if (arg === "--weights") {
      const [lexical, text] = value().split(",").map(Number)
      if (!Number.isFinite(lexical) || !Number.isFinite(text))
        throw new Error("--weights takes lexical,text (e.g. 1,0.5)")
      options.weights = { lexical, text }
    } else if (arg === "--min-similarity") options.minSimilarity = Number(value())
    else if (arg === "--synonyms") options.synonyms = value()
    else if (arg === "--sweep") options.sweep = true
    else if (arg === "--variants") options.variants = true
    else if (arg === "--sweep-queries") options.sweepLimit = Number(value())
    else if (arg === "--no-components") options.components = false
    else if (arg === "--qdrant") options.qdrant = value()
    else if (arg === "--per-query") options.perQuery = value()
    else if (arg.startsWith("--")) throw new Error(`unknown option ${arg}`)
    else positional.push(arg)
  }
  if (positional.length !== 1)
    throw new Error(
      "usage: npm run eval:relevance -- <set dir> [--limit-queries N] [--weights L,T] [--min-similarity X] " +
        "[--sweep] [--variants] [--qdrant URL]"
    )
  return { setDir: resolveSetDir(positional[0]), ...options }
}

const writePerQuery = (
  file: string,
  queries: ReadonlyArray<EvalQuery>,
  qrels: Qrels,
  ours: ReadonlyMap<string, ReadonlyArray<string>>,
  peer: ReadonlyMap<string, ReadonlyArray<string>>
) => {
  const ndcg = (rankings: ReadonlyMap<string, ReadonlyArray<string>>, id: string) =>
    ndcgAt(rankings.get(id) ?? [], qrels.get(id) ?? new Map(), 10).toFixed(4)
  const lines = queries.map((q) => [q.id, ndcg(ours, q.id), ndcg(peer, q.id), q.text].join("\t"))
  writeFileSync(file, `${["query_id", "ours", "peer", "query"].join("\t")}\n${lines.join("\n")}\n`)
  const tops = Object.fromEntries(
    queries.map((q) => [q.id, { ours: ours.get(q.id)?.slice(0, 10), peer: peer.get(q.id)?.slice(0, 10) }])
  )
  writeFileSync(`${file}.json`, JSON.stringify(tops))
}

const SWEEP: ReadonlyArray<DirectConfig> = [
  { label: "wL 1, wT 0", weights: { lexical: 1, text: 0 } },
  { label: "wL 1, wT 0.25", weights: { lexical: 1, text: 0.25 } },
  { label: "wL 1, wT 0.5", weights: { lexical: 1, text: 0.5 } },
  { label: "wL 1, wT 1 (shipped)", weights: { lexical: 1, text: 1 } },
  { label: "wL 1, wT 2", weights: { lexical: 1, text: 2 } },
  { label: "wL 1, wT 1, minSim 0.25", weights: { lexical: 1, text: 1 }, minSimilarity: 0.25 },
  { label: "wL 1, wT 1, minSim 0.45", weights: { lexical: 1, text: 1 }, minSimilarity: 0.45 },
  { label: "wL 1, wT 1, minSim 0.55", weights: { lexical: 1, text: 1 }, minSimilarity: 0.55 },
  { label: "wL 1, wT 1, no dense-only matches (minSim 1.01)", weights: { lexical: 1, text: 1 }, minSimilarity: 1.01 },
  { label: "wL 1, wT 3", weights: { lexical: 1, text: 3 } },
  { label: "wL 1, wT 2, minSim 0.45", weights: { lexical: 1, text: 2 }, minSimilarity: 0.45 },
  { label: "wL 1, wT 2, no dense-only matches", weights: { lexical: 1, text: 2 }, minSimilarity: 1.01 }
]

const main = async () => {
  const args = parseArgs(process.argv.slice(2))
  const started = performance.now()
  const set = loadRelevanceSet(args.setDir)
  const withJudgement = set.queries.filter((q) => scorable(q.id, set.qrels))
  const queries = withJudgement.slice(0, args.limit)
  console.log(
    `relevance set ${set.name} (${set.dir}): ${count(set.products.length)} products ` +
      `(${set.hasDescription ? "title + description" : "title only"}), ` +
      `${count(set.queries.length)} dev queries, ${count(withJudgement.length)} with a product of gain > ` +
      `0; evaluating ${count(queries.length)}`
  )
  console.log(
    "metrics: exponential gains 2^g - 1, nDCG@10 (unjudged = gain 0), judged-only nDCG@10, " +
      "recall@100 of gain > 0; mean over queries"
  )

  const baseline = baselineRankings(set.products, queries, set.hasDescription, 100)
  const baselineScores = score(baseline.rankings, set.qrels)

  const workspace = await makeEvalWorkspace("relevance-eval-", { EMBED_THREADS: 2 })
  const program = Effect.gen(function* () {
    const ready = performance.now()
    console.log(
      `ready to ingest after ${((ready - started) / 1000).toFixed(1)} s ` +
        `(data load, BM25 baseline, services with 2 embedding threads)`
    )
    const ingestion = yield* ingest(workspace.siteId, set.products)
    console.log(
      `ingestion: ${count(ingestion.indexed)}/${count(ingestion.products)} searchable in ` +
        `${(ingestion.totalMs / 1000).toFixed(1)} s ` +
        `= ${(ingestion.products / (ingestion.totalMs / 1000)).toFixed(0)} products/s ` +
        `(store writes + enqueue ${(ingestion.putMs / 1000).toFixed(1)} s)`
    )

    const product = yield* productRankings(workspace.siteId, queries)
    const productScores = score(product.rankings, set.qrels)
    console.log("")
    console.log(header("PRODUCT PATH"))
    console.log(row("hybrid: textSearch (shipped defaults)", productScores, product.ms, baselineScores))
    console.log(row("peer: MiniSearch BM25, title boost 2", baselineScores, baseline.searchMs))
    if (args.perQuery !== undefined)
      writePerQuery(args.perQuery, queries, set.qrels, product.rankings, baseline.rankings)
    if (args.synonyms !== undefined) {
      const count = yield* withSynonyms(workspace.siteId, args.synonyms)
      const synonymed = yield* productRankings(workspace.siteId, queries)
      const synonymedScores = score(synonymed.rankings, set.qrels)
      console.log(row(`hybrid: textSearch, ${count} synonyms`, synonymedScores, synonymed.ms, baselineScores))
      const changed = queries.filter(
        (q) => (synonymed.rankings.get(q.id) ?? []).join() !== (product.rankings.get(q.id) ?? []).join()
      )
      console.log(`  queries whose ranking the synonyms changed: ${changed.length}`)
      yield* withSynonyms(workspace.siteId, undefined)
    }
    if (args.qdrant !== undefined) {
      const inQdrant = yield* qdrantProductRankings(
        args.qdrant,
        yield* indexedDocuments(workspace.siteId),
        workspace.siteId,
        queries
      )
      const qdrantScores = score(inQdrant.rankings, set.qrels)
      console.log(row("hybrid: textSearch, index in Qdrant", qdrantScores, inQdrant.ms, baselineScores))
      console.log(
        `  (Qdrant collection loaded in ${(inQdrant.loadMs / 1000).toFixed(1)} s; nDCG@10 Qdrant − ` +
          `embedded ${(qdrantScores.ndcg10 - productScores.ndcg10).toFixed(4)}, ` +
          `same top 10 on ${sameTop(product.rankings, inQdrant.rankings)}/${queries.length} queries)`
      )
    }

    // The joined-token group (see QueryGroups.ts) and the other queries, both systems.
    const joined = joinedTokenQueries(queries, set.qrels, set.products)
    console.log("")
    console.log(
      header(
        `QUERY GROUPS: joined-token words (${count(joined.size)} queries) / the other ` +
          `${count(queries.length - joined.size)}`
      )
    )
    for (const [label, inGroup] of [
      ["joined-token", true],
      ["other", false]
    ] as const) {
      const baselineGroup = score(rankingsOf(baseline.rankings, joined, inGroup), set.qrels)
      console.log(
        row(
          `hybrid: textSearch, ${label} queries`,
          score(rankingsOf(product.rankings, joined, inGroup), set.qrels),
          0,
          baselineGroup
        )
      )
      console.log(row(`baseline: BM25, ${label} queries`, baselineGroup, 0))
    }

    const vectors = yield* queryVectors(queries)
    const index = yield* withIndex(Effect.succeed)
    const direct = (config: DirectConfig) => directRankings(index, workspace.siteId, queries, vectors, config)
    const same = yield* direct({ label: "direct, defaults" })
    console.log(
      `check: direct CatalogIndex.search with textSearch's inputs holds the product top 10 in its top 30 ` +
        `(text search re-ranks its first 30 places by title heads) on ` +
        `${same.rankings.size === 0 ? 0 : sameTop(product.rankings, same.rankings, 10, 30)}/${queries.length} queries`
    )

    // Precision of the whole returned set, and what made-up words return, beside BM25.
    const nonsense = nonsenseQueries(NONSENSE_QUERIES).map((text, i) => ({ id: `nonsense-${i}`, text }))
    const nonsenseRun = yield* directRankings(index, workspace.siteId, nonsense, yield* queryVectors(nonsense), {
      label: "nonsense"
    })
    console.log("")
    console.log(precisionHeader("PRECISION (result set: direct search's total)"))
    console.log(
      precisionRow(
        "hybrid: textSearch (shipped defaults)",
        precisionOf(product.rankings, same.totals, set.qrels),
        nonsenseOf([...nonsenseRun.totals.values()]),
        nonsense.length
      )
    )
    console.log(
      precisionRow(
        "peer: MiniSearch BM25, title boost 2",
        precisionOf(baseline.rankings, baseline.totals, set.qrels),
        nonsenseOf(nonsense.map((q) => baseline.matches(q.text))),
        nonsense.length
      )
    )

    const extra: Array<DirectConfig> = []
    if (args.components) {
      extra.push({ label: "component: lexical only (no query vector)", dense: false })
      extra.push({ label: "component: dense only (no query text, minSim default)", lexical: false })
    }
    if (args.weights !== undefined || args.minSimilarity !== undefined) {
      extra.push({
        label:
          `override: ${args.weights ? `wL ${args.weights.lexical}, wT ${args.weights.text}` : "default weights"}` +
          `${args.minSimilarity !== undefined ? `, minSim ${args.minSimilarity}` : ""}`,
        weights: args.weights,
        minSimilarity: args.minSimilarity
      })
    }
    if (extra.length > 0) {
      console.log("")
      console.log(header("DIRECT CatalogIndex.search (not the product path)"))
      for (const config of extra) {
        const run = yield* direct(config)
        console.log(row(config.label, score(run.rankings, set.qrels), run.ms, baselineScores))
      }
    }

    const sweepQueries = queries.slice(0, args.sweepLimit)
    const subsetNote = sweepQueries.length < queries.length ? ` (first ${sweepQueries.length} queries)` : ""
    const sweepBaseline = score(new Map(sweepQueries.map((q) => [q.id, baseline.rankings.get(q.id) ?? []])), set.qrels)
    if (subsetNote !== "" && (args.sweep || args.variants)) {
      console.log("")
      console.log(header(`SUBSET${subsetNote} for the tables below`))
      console.log(
        row(
          "hybrid: textSearch (shipped defaults)",
          score(new Map(sweepQueries.map((q) => [q.id, product.rankings.get(q.id) ?? []])), set.qrels),
          0,
          sweepBaseline
        )
      )
      console.log(row("peer: MiniSearch BM25, title boost 2", sweepBaseline, 0))
    }
    if (args.sweep) {
      console.log("")
      console.log(header(`SWEEP${subsetNote}: direct CatalogIndex.search, NOT the product path`))
      for (const config of SWEEP) {
        const run = yield* directRankings(index, workspace.siteId, sweepQueries, vectors, config)
        console.log(row(config.label, score(run.rankings, set.qrels), run.ms, sweepBaseline))
      }
    }

    if (args.variants) {
      const docs = yield* indexedDocuments(workspace.siteId)
      const configs: ReadonlyArray<DirectConfig> = [{ label: "hybrid" }, { label: "lexical only", dense: false }]
      const variants: Array<{ name: string; overrides: Parameters<typeof runOnVariantIndex>[0]; docs?: typeof docs }> =
        []
      // The control reproduces the product index; skipped on big sets to save an HNSW build.
      if (docs.length <= 20_000) variants.push({ name: "same options (control)", overrides: {} })
      // Weight 0 trips a scoring bug (zero-score postings are counted again and again as
      // matches), so "off" is approximated by a negligible weight.
      variants.push({
        name: "fuzzy/prefix weight 1e-6 (≈ exact words)",
        overrides: { fuzzyWeight: 1e-6, prefixWeight: 1e-6 }
      })
      variants.push({ name: "partial gate 0.45", overrides: { partialGate: 0.45 } })
      variants.push({ name: "partial gate 0.4", overrides: { partialGate: 0.4 } })
      variants.push({ name: "partial gate 0.35", overrides: { partialGate: 0.35 } })
      variants.push({
        name: "partial gate 0.4, 500 candidates",
        overrides: { partialGate: 0.4, partialCandidates: 500 }
      })
      variants.push({ name: "no partial matches", overrides: { partialGate: 2 } })
      variants.push({ name: "phrase weight 1", overrides: { phraseWeight: 1 } })
      variants.push({ name: "fuzzy weight 0.3", overrides: { fuzzyWeight: 0.3 } })
      if (set.hasDescription) {
        variants.push({ name: "description weight 0.3", overrides: { fieldWeights: { description: 0.3 } } })
        variants.push({
          name: "description weight 0.3, partial gate 0.4",
          overrides: { partialGate: 0.4, fieldWeights: { description: 0.3 } }
        })
        variants.push({
          name: "embed title + description head (160 ch)",
          overrides: {},
          docs: yield* reembed(docs, (d) =>
            [d.text.title, d.text.description.slice(0, 160)].filter((s) => s.length > 0).join(". ")
          )
        })
      }
      console.log("")
      console.log(header(`VARIANTS${subsetNote}: private second index, direct search, NOT the product path`))
      for (const variant of variants) {
        const result = yield* runOnVariantIndex(
          variant.overrides,
          variant.docs ?? docs,
          workspace.siteId,
          sweepQueries,
          vectors,
          configs
        )
        for (const { config, run } of result.runs) {
          console.log(row(`${variant.name}: ${config.label}`, score(run.rankings, set.qrels), run.ms, sweepBaseline))
        }
      }
    }
  }).pipe(Effect.provide(workspace.layer), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)), Effect.scoped)

  try {
    await Effect.runPromise(program)
  } finally {
    workspace.dispose()
  }
  console.log(`\ntotal time ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
