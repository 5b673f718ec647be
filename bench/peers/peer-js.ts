/**
 * One in-process JavaScript search engine as the bench's ingestion peer, in a process of its own
 * (its memory apart from the api's): `node dist/bench/peers/peer-js.js <minisearch|orama>
 * <catalog.ndjson> <queries.json>`. Reads the very lines the bench pushes to us (untimed), then,
 * timed until searchable: parses each line and indexes the product's text fields; then answers
 * the queries one at a time (top 10). Prints one JSON line (PeerResult, Peers.ts).
 */
import { readFileSync } from "node:fs"
import { create, insertMultiple, search as oramaSearch } from "@orama/orama"
import MiniSearch from "minisearch"
import { PEER_FIELDS, peerDocument } from "./PeerDocument.js"

const [engine, catalogFile, queriesFile] = process.argv.slice(2)
const lines = readFileSync(catalogFile, "utf8")
  .split("\n")
  .filter((line) => line.length > 0)
const queries = JSON.parse(readFileSync(queriesFile, "utf8")) as ReadonlyArray<string>

/** Indexes in batches of this many documents (each engine's bulk call). */
const BATCH = 10_000

interface Engine {
  readonly add: (docs: ReadonlyArray<Record<string, string>>) => Promise<void> | void
  readonly search: (query: string) => Promise<number> | number
}

const miniSearch = (): Engine => {
  const index = new MiniSearch({ idField: "id", fields: [...PEER_FIELDS] })
  return {
    add: (docs) => index.addAll(docs),
    search: (query) => index.search(query).slice(0, 10).length
  }
}

const orama = async (): Promise<Engine> => {
  const schema: Record<string, "string"> = { id: "string" }
  for (const field of PEER_FIELDS) schema[field] = "string"
  const db = await create({ schema })
  return {
    add: async (docs) => {
      await insertMultiple(db, docs as Array<Record<string, string>>, BATCH)
    },
    search: async (query) =>
      (await oramaSearch(db, { term: query, properties: [...PEER_FIELDS] as Array<string>, limit: 10 })).hits.length
  }
}

const main = async () => {
  const index = engine === "orama" ? await orama() : engine === "minisearch" ? miniSearch() : undefined
  if (index === undefined) throw new Error(`unknown engine ${engine}`)
  const started = performance.now()
  for (let at = 0; at < lines.length; at += BATCH) {
    await index.add(lines.slice(at, at + BATCH).map((line) => peerDocument(JSON.parse(line))))
  }
  const indexSeconds = (performance.now() - started) / 1000
  const latencies: Array<number> = []
  let hits = 0
  for (const query of queries) {
    const asked = performance.now()
    hits += await index.search(query)
    latencies.push(performance.now() - asked)
  }
  latencies.sort((a, b) => a - b)
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN
  process.stdout.write(
    `${JSON.stringify({
      engine,
      documents: lines.length,
      indexSeconds,
      p50: at(0.5),
      p99: at(0.99),
      hits,
      // Peak RSS (kB on Linux), as the Tantivy peer reports it.
      rssMb: process.resourceUsage().maxRSS / 1024
    })}\n`
  )
}

await main()
