/**
 * Suggester benchmark: `npx tsx bench/suggest.ts` (add `--expose-gc` via NODE_OPTIONS for
 * steadier memory figures). Seeded synthetic 100k-product catalog, then suggest latency for
 * short, exact, partial-last-word and typo prefixes, through the real layer and SQLite.
 */
import { Layer, ManagedRuntime } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { settings } from "../test/support/Settings.js"
import { Sqlite } from "../src/platform/Sqlite.js"
import { EmbeddedSuggester } from "../src/services/suggester/EmbeddedSuggester.js"
import type { ProductText } from "../src/services/suggester/Phrases.js"
import { Suggester } from "../src/services/suggester/Suggester.js"
import { mulberry32 } from "./catalog/random.js"

const PRODUCTS = 100_000
const SAMPLES = 3_000
const SITE = 1

// Seeded, so every run indexes the same catalog.
const { next: random, pick } = mulberry32(42)
const syllables = ["ka", "lo", "mi", "ta", "ro", "ven", "dor", "sil", "tek", "mar", "zen", "bel", "gra", "nox", "pri"]
const capital = (s: string) => s[0].toUpperCase() + s.slice(1)

const brands = Array.from({ length: 400 }, () =>
  capital(pick(syllables) + pick(syllables) + (random() < 0.5 ? pick(syllables) : ""))
)
const adjectives = (
  "cordless compact heavy duty professional wireless portable ergonomic stainless waterproof " +
  "lightweight adjustable foldable rechargeable digital smart classic premium organic vintage slim " +
  "extra large mini outdoor indoor electric manual quiet powerful soft durable bamboo leather cotton " +
  "woollen ceramic glass wooden magnetic insulated nonstick ultra thin thick warm cooling"
).split(" ")
const departments: Record<string, Array<string>> = {
  "Tools > Power Tools": ["drill", "driver", "grinder", "sander", "jigsaw", "saw", "router", "planer", "nailer"],
  "Tools > Hand Tools": ["hammer", "screwdriver", "wrench", "pliers", "chisel", "level", "clamp", "toolbox"],
  "Home > Kitchen": ["kettle", "toaster", "blender", "mixer", "pan", "skillet", "knife", "grater", "teapot", "mug"],
  "Home > Bedroom": ["pillow", "duvet", "blanket", "mattress", "lamp", "nightstand", "wardrobe"],
  "Garden > Watering": ["hose", "sprinkler", "watering can", "nozzle", "hose reel"],
  "Garden > Furniture": ["bench", "parasol", "hammock", "lounger", "table", "chair"],
  "Fashion > Clothing": ["jacket", "sweater", "hoodie", "shirt", "trousers", "dress", "scarf", "coat", "jeans"],
  "Fashion > Shoes": ["sneakers", "boots", "sandals", "loafers", "slippers"],
  "Electronics > Audio": ["headphones", "earbuds", "speaker", "soundbar", "microphone", "turntable"],
  "Electronics > Computing": ["laptop", "keyboard", "mouse", "monitor", "webcam", "router", "tablet"]
}
const nouns = Object.entries(departments).flatMap(([path, ns]) => ns.map((noun) => ({ path, noun })))
const colours = ["black", "white", "red", "blue", "green", "grey", "silver", "navy", "beige"]

const product = (): ProductText => {
  const { path: dept, noun } = pick(nouns)
  const adjs = Array.from({ length: Math.floor(random() * 3) }, () => pick(adjectives))
  const model =
    String.fromCharCode(65 + Math.floor(random() * 26), 65 + Math.floor(random() * 26)) +
    Math.floor(random() * 9000 + 100)
  const brand = pick(brands)
  const colour = random() < 0.4 ? ` ${capital(pick(colours))}` : ""
  return {
    title: `${brand} ${adjs.join(" ")} ${noun} ${model}${colour}`,
    brand,
    categories: [`${dept} > ${capital(noun)}s`]
  }
}

const percentiles = (ms: Array<number>) => {
  const s = [...ms].sort((a, b) => a - b)
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(3)
  return `p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms  max ${s[s.length - 1].toFixed(3)} ms`
}
const typo = (word: string): string => {
  const i = 1 + Math.floor(random() * (word.length - 2))
  const edits = [
    () => word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2), // transposition
    () => word.slice(0, i) + word.slice(i + 1), // deletion
    () => word.slice(0, i) + pick(["e", "a", "x", "o"]) + word.slice(i + 1) // substitution
  ]
  return pick(edits)()
}
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`
const gc = (globalThis as { gc?: () => void }).gc

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "suggest-bench-"))
const runtime = ManagedRuntime.make(
  EmbeddedSuggester.layer.pipe(
    Layer.provide(Sqlite.layer),
    Layer.provide(settings({ DATA_DIR: dataDir, SITES_FILE: path.join(dataDir, "sites.json") }))
  )
)
const suggester = await runtime.runPromise(Suggester)
const catalog = Array.from({ length: PRODUCTS }, product)
gc?.()
const baseline = process.memoryUsage()

let started = performance.now()
runtime.runSync(suggester.indexProducts(catalog.map((source, i) => ({ siteId: SITE, productId: `p${i}`, source }))))
const indexMs = performance.now() - started
for (let i = 0; i < 20_000; i++) {
  const q = random() < 0.5 ? `${pick(adjectives)} ${pick(nouns).noun}` : `${pick(brands)} ${pick(nouns).noun}`
  runtime.runSync(suggester.recordQuery(SITE, q, 1 + Math.floor(random() * 50)))
}
gc?.()
const loaded = process.memoryUsage()
console.log(
  `indexed ${PRODUCTS} products in ${indexMs.toFixed(0)} ms: ${(PRODUCTS / (indexMs / 1000)).toFixed(0)} products/s`
)
console.log(
  `memory: rss ${mb(loaded.rss)} (+${mb(loaded.rss - baseline.rss)}), ` +
    `heap ${mb(loaded.heapUsed)} (+${mb(loaded.heapUsed - baseline.heapUsed)} for the index)`
)

const words = [...adjectives, ...nouns.map((n) => n.noun), ...brands.map((b) => b.toLowerCase())]
const cases: Record<string, () => string> = {
  "short (1-2 chars)": () => pick(words).slice(0, 1 + Math.floor(random() * 2)),
  "exact (3-8 chars)": () => pick(words).slice(0, 3 + Math.floor(random() * 6)),
  "partial last word": () => `${pick(brands).toLowerCase()} ${pick(adjectives).slice(0, 2 + Math.floor(random() * 3))}`,
  "typo (one edit)": () => typo(pick(words.filter((w) => w.length >= 6))).slice(0, 4 + Math.floor(random() * 6)),
  "typo (two words)": () => `${typo(pick(adjectives))} ${pick(nouns).noun.slice(0, 3)}`
}
// The first pass over each set is "cold": buckets dirtied by the bulk load get ordered by
// popularity on first read. The second pass is the steady state between catalog updates.
for (const [name, prefixOf] of Object.entries(cases)) {
  const prefixes = Array.from({ length: SAMPLES }, prefixOf)
  for (const pass of ["cold", "warm"]) {
    const timings: Array<number> = []
    let empty = 0
    for (const prefix of prefixes) {
      started = performance.now()
      const result = runtime.runSync(suggester.suggest(SITE, prefix, 10))
      timings.push(performance.now() - started)
      if (result.length === 0) empty++
    }
    console.log(
      `${name.padEnd(18)} ${pass}  ${percentiles(timings)}  (empty ${empty}/${SAMPLES}, e.g. "${prefixes[0]}")`
    )
  }
}
console.log(`example "${"crodless dri"}":`, runtime.runSync(suggester.suggest(SITE, "crodless dri", 5)))
await runtime.dispose()
fs.rmSync(dataDir, { recursive: true, force: true })
