/**
 * Qdrant CatalogIndex at catalog scale, lexical side:
 * `QDRANT_URL=http://127.0.0.1:6333 npx tsx bench/qdrant-lexical.ts [count] [collection]`.
 * Builds (once: an existing collection of the same name and size is reused) a seeded
 * synthetic catalog of `count` products on site 1 (titles from brand, adjective, colour and
 * noun; Zipf-distributed descriptions over a 3,000-word vocabulary) and 1,000 products on
 * site 2, then prints p50/p99 latency and the response bytes per query kind. Bytes are the
 * bodies of every Qdrant response a search caused (global fetch is wrapped).
 */
import { Effect, Layer } from "effect"
import { CatalogIndex, type SearchQuery } from "../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../src/model/Filter.js"
import type { IndexDocument } from "../src/model/IndexDocument.js"
import { QdrantCatalogIndex } from "../src/services/catalog-index/QdrantCatalogIndex.js"
import { mulberry32 } from "./catalog/random.js"
import { syntheticVocabulary } from "./catalog/vocabulary.js"

const count = Number(process.argv[2] ?? 100_000)
const collection = process.argv[3] ?? `bench_lexical_${count}`
const url = process.env.QDRANT_URL ?? "http://127.0.0.1:6333"

let bytes = 0
let requests = 0
const plainFetch = globalThis.fetch
globalThis.fetch = async (input, init) => {
  const response = await plainFetch(input, init)
  const body = await response.arrayBuffer()
  bytes += body.byteLength
  requests++
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

const { next: random, pick, zipf } = mulberry32(42)
const { adjectives, brands, colours, nouns, vocabulary } = syntheticVocabulary(pick)

const product = (site: number, i: number): IndexDocument => {
  const brand = zipf(brands)
  const colour = pick(colours)
  const adjective = pick(adjectives)
  const noun = zipf(nouns)
  return {
    siteId: site,
    productId: `p${String(i).padStart(7, "0")}`,
    text: {
      title: `${brand} ${adjective} ${colour} ${noun} ${pick(["18v", "2x4", "xl", "500ml", "wi-fi", ""])}`,
      brand,
      productType: noun,
      category: `${pick(["Tools", "Garden", "Kitchen", "Fashion", "Home"])} ${noun}`,
      description: Array.from({ length: 30 + Math.floor(random() * 50) }, () => zipf(vocabulary)).join(" "),
      highlights: `${adjective} ${noun}, ${pick(adjectives)} design`,
      details: `colour ${colour} material ${pick(["steel", "cotton", "plastic", "wood"])}`,
      extra: colour
    },
    payload: { brand, color: [colour], price: Math.round(random() * 50_000) / 100, in_stock: random() < 0.8 },
    vectors: {}
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]

const main = Effect.gen(function* () {
  const index = yield* CatalogIndex
  const existing = yield* index.count(1, emptyFilter)
  if (existing !== count) {
    const started = performance.now()
    for (let start = existing; start < count; start += 1000) {
      yield* index.upsert(Array.from({ length: Math.min(1000, count - start) }, (_, j) => product(1, start + j)))
    }
    yield* index.upsert(Array.from({ length: 1000 }, (_, i) => product(2, i)))
    console.log(`built ${count - existing} products in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  }
  console.log(`collection ${collection}: ${count} products on site 1, ${yield* index.count(2, emptyFilter)} on site 2`)
  const kinds: Record<string, () => Partial<SearchQuery>> = {
    "very common word (quality)": () => ({ text: "quality" }),
    "common noun": () => ({ text: pick(nouns.slice(0, 5)) }),
    "colour + noun": () => ({ text: `${pick(colours)} ${pick(nouns.slice(0, 10))}` }),
    "typo (cordles dril)": () => ({ text: "cordles dril" }),
    "prefix as typed (cord)": () => ({ text: "cord" }),
    "browse, page 1": () => ({}),
    "browse + brand filter": () => ({ filter: { must: [{ column: "brand", anyOf: [brands[0]] }], mustNot: [] } })
  }
  const rounds = Number(process.env.ROUNDS ?? 30)
  for (const [label, make] of Object.entries(kinds)) {
    const times: Array<number> = []
    const sizes: Array<number> = []
    let total = 0
    for (let i = 0; i < rounds + 2; i++) {
      const query: SearchQuery = { siteId: 1, filter: emptyFilter, limit: 24, ...make() }
      const [before, calls] = [bytes, requests]
      const started = performance.now()
      const result = yield* index.search(query)
      if (i < 2) continue // warm-up
      times.push(performance.now() - started)
      sizes.push(bytes - before)
      total = result.total
      if (i === 2)
        console.log(
          `  ${label}: ${requests - calls} requests, total ${total}, top ${result.hits
            .slice(0, 3)
            .map((h) => h.productId)
            .join(" ")}`
        )
    }
    times.sort((a, b) => a - b)
    sizes.sort((a, b) => a - b)
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`
    console.log(
      `${label.padEnd(30)} p50 ${percentile(times, 0.5).toFixed(1).padStart(7)} ms  p99 ` +
        `${percentile(times, 0.99).toFixed(1).padStart(7)} ms` +
        `  response p50 ${kb(percentile(sizes, 0.5))}, max ${kb(sizes[sizes.length - 1])}`
    )
  }
})

const layer = QdrantCatalogIndex.layer({
  url,
  collection,
  textDimension: 8,
  imageDimension: 8,
  writeTimeoutMs: 120_000,
  queryTimeoutMs: 120_000
})
Effect.runPromise(main.pipe(Effect.provide(Layer.orDie(layer)))).catch((error) => {
  console.error(error)
  process.exit(1)
})
