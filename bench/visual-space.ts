/**
 * The learned visual space's cost at catalog scale: `npx tsx bench/visual-space.ts [--products N]
 * [--photos N]`. A fit job reads a bounded sample of the site's products (default 5,000 products
 * of a 100,000-product catalog, 2 photos each plus a flipped and a cropped copy: 30,000 samples
 * of 1,792-d features); this times the fit (within-product scatter from at most 5,000 samples,
 * Cholesky whitening, between-product directions from at most 1,024 products) and the projection
 * of one vector, and prints the process's peak RSS and the event loop's longest stall meanwhile
 * (the fit runs in a thread of its own). Features are synthetic: sparse non-negative
 * vectors around a per-product centre, like the image model's pooled activations.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import { mulberry32 } from "./catalog/random.js"
import { DEFAULT_FIT, fitVisualSpace, project, type LabelledVector } from "../src/visual-space/VisualSpace.js"

const args = process.argv.slice(2)
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const products = option("products", 5_000)
const photos = option("photos", 2)
const D = 1_792
const random = mulberry32(5)
let peak = process.memoryUsage().rss
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss))

const samples: Array<LabelledVector> = []
for (let p = 0; p < products; p++) {
  const centre = new Float32Array(D)
  for (let i = 0; i < D; i++) centre[i] = random.next() < 0.3 ? random.next() : 0
  for (let k = 0; k < photos * 3; k++) {
    const v = new Float32Array(D)
    for (let i = 0; i < D; i++) v[i] = Math.max(0, centre[i] + 0.3 * (random.next() - 0.5))
    samples.push({ label: `p${p}`, vector: v })
  }
}
sample()
const timer = setInterval(sample, 200)
const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()
const started = performance.now()
const space = await fitVisualSpace(samples)
const fitMs = performance.now() - started
clearInterval(timer)
loop.disable()
sample()
const t = performance.now()
const n = 2_000
for (let i = 0; i < n; i++) project(space, samples[i % samples.length].vector)
const projectUs = ((performance.now() - t) / n) * 1000
console.log(
  `fit: ${samples.length} samples of ${products} products (${JSON.stringify(DEFAULT_FIT)}) in ` +
    `${(fitMs / 1000).toFixed(1)} s → ${space.outputDims} dimensions`
)
console.log(`event loop during the fit: longest stall ${(loop.max / 1e6).toFixed(0)} ms`)
console.log(
  `projection: ${projectUs.toFixed(0)} µs a vector; peak RSS ${(peak / 2 ** 20).toFixed(0)} MB ` +
    `(samples ${((samples.length * D * 4) / 2 ** 20).toFixed(0)} MB)`
)
