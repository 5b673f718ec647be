/**
 * The bulk section's peer (bench/catalog/bulk.ts): MiniSearch, the JavaScript full-text library,
 * indexing the same synthetic products' text fields in memory, in a process of its own.
 * Prints {"rate": documents/s, "seconds": s} for the indexing alone (generation not timed).
 * Usage: node dist/bench/catalog/bulk-peer.js <products> <seed>
 */
import MiniSearch from "minisearch"
import { makeCatalog } from "./generator.js"

const products = Number(process.argv[2])
const seed = Number(process.argv[3])
const fields = [
  "title",
  "brand",
  "description",
  "product_type",
  "product_highlight",
  "product_detail",
  "color",
  "material"
] as const
const index = new MiniSearch({ idField: "id", fields: [...fields] })
const BATCH = 10_000
let seconds = 0
let batch: Array<Record<string, unknown>> = []
const flush = () => {
  const started = performance.now()
  index.addAll(batch)
  seconds += (performance.now() - started) / 1000
  batch = []
}
for (const { product } of makeCatalog(seed).generate(products)) {
  const doc: Record<string, unknown> = { id: product.id }
  for (const field of fields) doc[field] = product.data[field] ?? ""
  batch.push(doc)
  if (batch.length === BATCH) flush()
}
if (batch.length > 0) flush()
process.stdout.write(JSON.stringify({ rate: products / seconds, seconds }))
