/**
 * TextEmbedder throughput and query latency on real product texts.
 *
 *   npx tsx bench/text-embedder.ts [relevance-data-dir]
 *
 * The folder is the evaluation set described in /work/shared/data/README.md (read in
 * place, never copied): 1,000 crowdflower products (title + description) and 1,000
 * homedepot titles, interleaved, and real homedepot shopper queries.
 */
import { Effect, Fiber } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { makeTextEmbedder } from "../src/services/text-embedder/EmbeddedTextEmbedder.js"

const dataDir = process.argv[2] ?? "/work/shared/data/relevance"

const products = (set: string) =>
  readFileSync(join(dataDir, set, "products.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { title: string; description?: string })
const crowdflower = products("crowdflower")
  .slice(0, 1_000)
  .map((p) => `${p.title}. ${(p.description ?? "").replace(/<[^>]*>/g, " ")}`)
const homedepot = products("homedepot")
  .slice(0, 1_000)
  .map((p) => p.title)
const catalog = crowdflower.flatMap((text, i) => [text, homedepot[i]])
const queries = [
  ...new Set(
    readFileSync(join(dataDir, "homedepot", "queries.dev.tsv"), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split("\t")[1])
  )
].slice(0, 300)
// Distinct sets, so the idle run does not warm the cache for the loaded one.
const idleQueries = queries.slice(200)
const loadQueries = queries.slice(0, 200)

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]
const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 1)} ms`

const timed = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const start = performance.now()
    yield* effect
    return performance.now() - start
  })

const latencies = (
  label: string,
  texts: ReadonlyArray<string>,
  embedQuery: (text: string) => Effect.Effect<unknown, unknown>
) =>
  Effect.gen(function* () {
    const times = (yield* Effect.forEach(texts, (text) => timed(embedQuery(text)))).sort((a, b) => a - b)
    console.log(
      `  ${label.padEnd(34)} p50 ${ms(percentile(times, 0.5))}  p99 ${ms(percentile(times, 0.99))}  ` +
        `(${times.length} queries)`
    )
  })

const throughput = (threads: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const embedder = yield* makeTextEmbedder({ threads })
      const elapsed = yield* timed(embedder.embed(catalog))
      console.log(
        `  ${threads} thread(s): ${(catalog.length / (elapsed / 1_000)).toFixed(1)} texts/s ` +
          `(${(elapsed / 1_000).toFixed(1)} s)`
      )
    })
  )

const queriesUnderLoad = Effect.scoped(
  Effect.gen(function* () {
    const embedder = yield* makeTextEmbedder({ threads: 2 })
    yield* latencies("idle, uncached", idleQueries, embedder.embedQuery)
    const load = yield* Effect.fork(embedder.embed(catalog))
    yield* Effect.sleep("200 millis") // the whole catalog is queued and both threads are busy
    yield* latencies("during catalog load, uncached", loadQueries, embedder.embedQuery)
    yield* latencies("during catalog load, cached", loadQueries, embedder.embedQuery)
    const loadStillRunning = load.unsafePoll() === null
    console.log(`  (catalog load still running when the last query finished: ${loadStillRunning})`)
    yield* Fiber.interrupt(load)
  })
)

const program = Effect.gen(function* () {
  const chars = catalog.map((t) => Math.min(t.length, 2_000)).sort((a, b) => a - b)
  console.log(`${catalog.length} product texts, median ${percentile(chars, 0.5)} chars (after the 2,000-char cut)`)
  console.log("document throughput (embed of the whole catalog):")
  yield* throughput(1)
  yield* throughput(2)
  console.log("embedQuery latency, 2 threads:")
  yield* queriesUnderLoad
})

Effect.runPromise(program).catch((error) => {
  console.error(error)
  process.exitCode = 1
})
