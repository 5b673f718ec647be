/**
 * Embedded CatalogIndex at catalog scale: `npx tsx bench/catalog-index.ts [count]`.
 * A seeded synthetic catalog (brands, A > B > C categories, colours, prices, titles from
 * category and attribute words, Zipf-distributed descriptions) with random 512-d unit
 * vectors; prints build throughput, query latency percentiles per query kind, and RSS.
 */
import { Effect } from "effect"
import { CatalogIndex, type SearchQuery } from "../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter, type Filter } from "../src/model/Filter.js"
import type { IndexDocument } from "../src/model/IndexDocument.js"
import { EmbeddedCatalogIndex } from "../src/services/catalog-index/EmbeddedCatalogIndex.js"
import { mulberry32 } from "./catalog/random.js"
import { syntheticVocabulary } from "./catalog/vocabulary.js"
import { facetRequest } from "../src/search/DynamicFilters.js"

const count = Number(process.argv[2] ?? 100_000)
const DIM = 512

// Seeded, so every run indexes the same catalog.
const { next: random, pick } = mulberry32(42)
/** Zipf-like: low indexes are far more frequent, as in real descriptions. */
const zipf = <A>(items: ReadonlyArray<A>): A => items[Math.floor(items.length ** random()) - 1]

const unitVector = (): Float32Array => {
  const v = new Float32Array(DIM)
  let norm = 0
  for (let i = 0; i < DIM; i++) norm += (v[i] = random() - 0.5) ** 2
  norm = Math.sqrt(norm)
  for (let i = 0; i < DIM; i++) v[i] /= norm
  return v
}

const { adjectives, brands, coined, colours, nouns, vocabulary } = syntheticVocabulary(pick)
const tops = ["Tools", "Garden", "Kitchen", "Fashion", "Electronics", "Home", "Sports", "Toys"]
const leaves = tops.flatMap((top) =>
  Array.from({ length: 6 }, () => coined(2)).flatMap((mid) =>
    Array.from({ length: 5 }, () => ({ path: [top, mid, coined(2)], noun: pick(nouns) }))
  )
)

const product = (i: number): IndexDocument => {
  const leaf = pick(leaves)
  const brand = pick(brands)
  const colour = pick(colours)
  const adjective = pick(adjectives)
  const description = Array.from({ length: 30 + Math.floor(random() * 50) }, () => zipf(vocabulary)).join(" ")
  const ancestors = leaf.path.map((_, depth) => leaf.path.slice(0, depth + 1).join(" > "))
  return {
    siteId: 1,
    productId: `p${String(i).padStart(7, "0")}`,
    text: {
      title: `${brand} ${adjective} ${colour} ${leaf.noun} ${pick(["18v", "2x4", "xl", "500ml", "wi-fi", ""])}`,
      brand,
      productType: leaf.path.join(" "),
      category: leaf.path.join(" "),
      description,
      highlights: `${adjective} ${leaf.noun}, ${pick(adjectives)} design`,
      details: `colour ${colour} . material ${pick(["steel", "cotton", "plastic", "wood"])}`,
      extra: colour
    },
    payload: {
      category: ancestors,
      brand,
      color: [colour],
      price: Math.round(random() * 50_000) / 100,
      in_stock: random() < 0.8
    },
    vectors: { text: unitVector() }
  }
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i]
  return sum
}
const typo = (word: string) => {
  const at = 1 + Math.floor(random() * (word.length - 2))
  return word.slice(0, at) + word.slice(at + 1)
}
/** Memory now; with `node --expose-gc --import tsx` also after a full GC (retained, not garbage). */
const rss = () => `${memory()}${gc === undefined ? "" : `; after GC: ${(gc(), memory())}`}`
const gc = (globalThis as { gc?: () => void }).gc
const memory = () => {
  const m = process.memoryUsage()
  const mb = (n: number) => Math.round(n / 2 ** 20)
  return (
    `${mb(m.rss)} MB (heap used ${mb(m.heapUsed)} / total ${mb(m.heapTotal)}, external ` +
    `${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)} MB)`
  )
}
const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]

const timed = <A>(run: () => A): [A, number] => {
  const start = performance.now()
  const result = run()
  return [result, performance.now() - start]
}

const report = (label: string, times: Array<number>, extra = "") => {
  times.sort((a, b) => a - b)
  const f = (ms: number) => ms.toFixed(1).padStart(6)
  console.log(
    `${label.padEnd(34)} p50 ${f(percentile(times, 0.5))}  p95 ${f(percentile(times, 0.95))}  p99 ` +
      `${f(percentile(times, 0.99))} ms ${extra}`
  )
}

const main = Effect.gen(function* () {
  const index = yield* CatalogIndex
  const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runSync(effect)
  console.log(`catalog of ${count} products, ${DIM}-d text vectors`)
  let build = 0
  for (let start = 0; start < count; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - start) }, (_, j) => product(start + j))
    build += timed(() => run(index.upsert(batch)))[1]
  }
  console.log(
    `build: ${(build / 1000).toFixed(1)} s indexing time, ${Math.round(count / (build / 1000))} docs/s, RSS ${rss()}`
  )

  const kinds: Record<string, () => Partial<SearchQuery>> = {
    "1 word (leaf noun)": () => ({ text: pick(nouns) }),
    "1 common word": () => ({ text: pick(["quality", "design", "home", "durable"]) }),
    "3 words": () => ({ text: `${pick(adjectives)} ${pick(colours)} ${pick(nouns)}` }),
    typo: () => ({ text: `${pick(adjectives)} ${typo(pick(nouns.filter((n) => n.length >= 6)))}` }),
    "1 word + filters": () => ({ text: pick(nouns), filter: inTopAndPrice(pick(tops)) }),
    "hybrid 3 words + vector": () => ({
      text: `${pick(adjectives)} ${pick(colours)} ${pick(nouns)}`,
      textVector: unitVector()
    }),
    "hybrid common word + vector": () => ({ text: "quality", textVector: unitVector() }),
    "hybrid + filters": () => ({ text: pick(nouns), textVector: unitVector(), filter: inTopAndPrice(pick(tops)) }),
    "vector only": () => ({ textVector: unitVector(), minSimilarity: 0 }),
    "vector + selective filter": () => ({ textVector: unitVector(), minSimilarity: 0, filter: brandFilter() })
  }
  for (const [label, make] of Object.entries(kinds)) {
    const times: Array<number> = []
    let total = 0
    for (let i = 0; i < 200; i++) {
      const query: SearchQuery = { siteId: 1, filter: emptyFilter, limit: 24, ...make() }
      const [result, ms] = timed(() => run(index.search(query)))
      if (i >= 10) times.push(ms)
      total += result.total
    }
    report(label, times, `(avg total ${Math.round(total / 200)})`)
  }

  // What a text search asks besides its page: exact facets of the whole result set.
  const facetKinds: Record<string, () => Omit<SearchQuery, "limit">> = {
    "facets: 1 word": () => ({ siteId: 1, filter: emptyFilter, text: pick(nouns) }),
    "facets: 3 words + vector": () => ({
      siteId: 1,
      filter: emptyFilter,
      text: `${pick(adjectives)} ${pick(colours)} ${pick(nouns)}`,
      textVector: unitVector()
    }),
    "facets: common word + vector": () => ({
      siteId: 1,
      filter: emptyFilter,
      text: "quality",
      textVector: unitVector()
    }),
    "facets: 3 of 8 departments": () => ({ siteId: 1, filter: threeTops() })
  }
  for (const [label, make] of Object.entries(facetKinds)) {
    const times: Array<number> = []
    for (let i = 0; i < 110; i++) {
      const scope = make()
      const [, ms] = timed(() => run(index.facets(scope, facetRequest)))
      if (i >= 10) times.push(ms)
    }
    report(label, times)
  }
  // A category page deep in a large listing: ~37k products sorted by price, page 50 of 24.
  const pageTimes: Array<number> = []
  let listed = 0
  for (let i = 0; i < 110; i++) {
    const filter = threeTops()
    const [result, ms] = timed(() =>
      run(
        index.search({
          siteId: 1,
          filter,
          limit: 24,
          offset: 49 * 24,
          sort: [{ column: "price", order: i % 2 === 0 ? "asc" : "desc" }]
        })
      )
    )
    if (i >= 10) pageTimes.push(ms)
    listed += result.total
  }
  report("page 50 of 3 departments by price", pageTimes, `(avg total ${Math.round(listed / 110)})`)
  const deepTimes: Array<number> = []
  for (let i = 0; i < 60; i++) {
    const [, ms] = timed(() =>
      run(index.search({ siteId: 1, filter: emptyFilter, text: pick(nouns), limit: 24, offset: 10_000 }))
    )
    if (i >= 10) deepTimes.push(ms)
  }
  report("1 word, relevance page at offset 10,000", deepTimes)
  const groupTimes: Array<number> = []
  for (let i = 0; i < 110; i++) {
    const [, ms] = timed(() =>
      run(index.search({ siteId: 1, filter: emptyFilter, text: pick(nouns), limit: 24, groupBy: "brand" }))
    )
    if (i >= 10) groupTimes.push(ms)
  }
  report("1 word grouped (by brand)", groupTimes)

  const facetTimes: Array<number> = []
  let matched = 0
  for (let i = 0; i < 50; i++) {
    // Browsing a top category: about 1/8 of the catalog, 12.5k products at 100k.
    const [, ms] = timed(() => {
      const filter = must("category", pick(tops))
      matched += run(index.matchIds({ siteId: 1, filter })).length
      for (const column of ["brand", "color", "category"]) run(index.facet(1, column, { filter }, 20))
      run(index.numericStats(1, "price", { filter }))
    })
    facetTimes.push(ms)
  }
  report("matchIds + 3 facets + stats", facetTimes, `(avg ${Math.round(matched / 50)} matches)`)
  const scopeTimes = Array.from(
    { length: 50 },
    () => timed(() => run(index.facet(1, "brand", { filter: must("category", pick(tops)) }, 20)))[1]
  )
  report("facet over a 1/8 category filter", scopeTimes)
  console.log(`RSS at end: ${rss()}`)

  // Recall of the dense path against an exact scan of every stored vector.
  const stored = run(index.scroll(1, emptyFilter, count)).docs
  let overlap = 0
  for (let i = 0; i < 20; i++) {
    const query = unitVector()
    const exact = stored
      .map((doc) => [doc.productId, dot(doc.vectors.text!, query)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 24)
      .map(([id]) => id)
    const found = new Set(
      run(index.search({ siteId: 1, filter: emptyFilter, limit: 24, textVector: query, minSimilarity: -1 })).hits.map(
        (h) => h.productId
      )
    )
    overlap += exact.filter((id) => found.has(id)).length
  }
  console.log(`vector-only recall@24 vs exact scan: ${(overlap / (20 * 24)).toFixed(3)}`)
})

const must = (column: string, value: string): Filter => ({ must: [{ column, anyOf: [value] }], mustNot: [] })
const inTopAndPrice = (top: string): Filter => ({
  must: [
    { column: "category", anyOf: [top] },
    { column: "price", range: { gte: 50, lt: 300 } },
    { column: "in_stock", equals: true }
  ],
  mustNot: []
})
const brandFilter = (): Filter => must("brand", pick(brands))
const threeTops = (): Filter => ({
  must: [{ column: "category", anyOf: [...tops].sort(() => random() - 0.5).slice(0, 3) }],
  mustNot: []
})

Effect.runSync(main.pipe(Effect.provide(EmbeddedCatalogIndex.layer)))
