/**
 * The index calls of one text search through the Qdrant CatalogIndex (what src/search/TextSearch.ts
 * asks: the ranking of FACET_SAMPLE, the facets over it, a refinement preview among it):
 * `QDRANT_URL=http://127.0.0.1:6333 npx tsx bench/qdrant-text-search.ts [collection]`.
 * (Facets and the preview are counted from the ranking's hits: they cost no request.)
 * Runs over a collection bench/qdrant-lexical.ts built (default bench_lexical_20000) and prints
 * p50/p99 per stage and the Qdrant requests per search.
 */
import { Effect, Layer } from "effect"
import { CatalogIndex } from "../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../src/model/Filter.js"
import { QdrantCatalogIndex } from "../src/services/catalog-index/QdrantCatalogIndex.js"
import { sampledFacets, FACET_SAMPLE } from "../src/search/DynamicFilters.js"
import { conditionHolds } from "../src/services/catalog-index/ColumnValues.js"

const collection = process.argv[2] ?? "bench_lexical_20000"
const url = process.env.QDRANT_URL ?? "http://127.0.0.1:6333"

let requests = 0
const plainFetch = globalThis.fetch
globalThis.fetch = (input, init) => (requests++, plainFetch(input, init))

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]

const main = Effect.gen(function* () {
  const index = yield* CatalogIndex
  const texts = ["quality", "cordles dril", "cord", "red drill", "hammer"]
  const stages: Record<string, Array<number>> = { ranking: [], facets: [], preview: [], "text search": [] }
  const perSearch: Array<number> = []
  const rounds = Number(process.env.ROUNDS ?? 60)
  for (let i = 0; i < rounds + texts.length; i++) {
    const query = { siteId: 1, filter: emptyFilter, text: texts[i % texts.length] }
    const before = requests
    const started = performance.now()
    const ranked = (yield* index.search({ ...query, limit: FACET_SAMPLE })).hits
    const ranking = performance.now()
    yield* sampledFacets(query, [], Effect.succeed(ranked))
    const facets = performance.now()
    // As TextSearch previews a refinement: the ranked sample's best holding it.
    ranked.filter((hit) => conditionHolds({ column: "in_stock", anyOf: ["true"] }, hit.columns.in_stock)).slice(0, 3)
    const preview = performance.now()
    if (i < texts.length) continue // warm-up
    stages.ranking.push(ranking - started)
    stages.facets.push(facets - ranking)
    stages.preview.push(preview - facets)
    stages["text search"].push(preview - started)
    perSearch.push(requests - before)
  }
  perSearch.sort((a, b) => a - b)
  console.log(`${collection}: ${rounds} searches, ${percentile(perSearch, 0.5)} Qdrant requests per search (p50)`)
  for (const [stage, times] of Object.entries(stages)) {
    times.sort((a, b) => a - b)
    console.log(
      `${stage.padEnd(12)} p50 ${percentile(times, 0.5).toFixed(1).padStart(6)} ms  p99 ` +
        `${percentile(times, 0.99).toFixed(1).padStart(6)} ms`
    )
  }
})

const layer = QdrantCatalogIndex.layer({ url, collection, textDimension: 8, imageDimension: 8 })
Effect.runPromise(main.pipe(Effect.provide(Layer.orDie(layer)))).catch((error) => {
  console.error(error)
  process.exit(1)
})
