/**
 * The floor of a Qdrant-served text search: per query one batch of the words' exact lists (the
 * page of 24 and 300 more, ids and scores, site filter) and then one retrieve of the best 300
 * with product id and columns — two dependent rounds and nothing else (no statistics, variants,
 * kNN, completion, count, embedding or api). Against bench/qdrant-lexical.ts's synthetic
 * collection (build it first): `QDRANT_URL=http://127.0.0.1:6333 npx tsx bench/qdrant-floor.ts [queries] [collection]`.
 * The client is configured as the index's (uncompressed answers: see qdrant/Client.ts).
 */
import { QdrantClient } from "@qdrant/js-client-rest"
import { queryWords } from "../src/text/TextAnalysis.js"
import { termKeys } from "../src/services/catalog-index/qdrant/TermStatistics.js"
import { mulberry32 } from "./catalog/random.js"
import { ms, summarize } from "./catalog/stats.js"
import { syntheticVocabulary } from "./catalog/vocabulary.js"

const { pick, zipf } = mulberry32(42)
const { adjectives, brands, colours, nouns } = syntheticVocabulary(pick)
const r = mulberry32(7)
// Title words of the synthetic catalog (brand, adjective, colour, noun), the last 1–3 of them.
const queries = Array.from({ length: 50 + Number(process.argv[2] ?? 500) }, () => {
  const words = [zipf(brands), r.pick(adjectives), r.pick(colours), zipf(nouns)]
  const n = 1 + Math.floor(r.next() * 3)
  return words.slice(4 - n).join(" ")
})
const client = new QdrantClient({
  url: process.env.QDRANT_URL ?? "http://127.0.0.1:6333",
  checkCompatibility: false,
  headers: { "accept-encoding": "identity" }
})
const collection = process.argv[3] ?? "bench_lexical_100000"
const filter = { must: [{ key: "site_id", match: { value: "1" } }] }
const run = async () => {
  const lists: Array<number> = [],
    payloads: Array<number> = [],
    both: Array<number> = []
  for (const [i, text] of queries.entries()) {
    const words = queryWords(text)
    const t0 = performance.now()
    const responses = await client.queryBatch(collection, {
      searches: words.map((w) => {
        const indices = [...new Set(termKeys(w.stem))].sort((a, b) => a - b)
        return {
          query: { indices, values: indices.map(() => 1) },
          using: "lexical",
          filter,
          limit: 324,
          with_payload: false
        }
      })
    })
    const t1 = performance.now()
    const scores = new Map<string, number>()
    for (const res of responses)
      for (const p of res.points) scores.set(String(p.id), (scores.get(String(p.id)) ?? 0) + p.score)
    const ids = [...scores]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 300)
      .map(([id]) => id)
    if (ids.length > 0)
      await client.retrieve(collection, { ids, with_payload: ["product_id", "columns"], with_vector: false })
    const t2 = performance.now()
    // The first 50 warm the connection and the page cache.
    if (i >= 50) {
      lists.push(t1 - t0)
      payloads.push(t2 - t1)
      both.push(t2 - t0)
    }
  }
  const f = (xs: Array<number>) => {
    const s = summarize(xs)
    return `p50 ${ms(s.p50)} p99 ${ms(s.p99)} mean ${ms(s.mean)}`
  }
  console.log(`floor over ${both.length} queries: lists ${f(lists)}; payload ${f(payloads)}; both ${f(both)}`)
}
run().catch((e) => {
  console.error(e)
  process.exit(1)
})
