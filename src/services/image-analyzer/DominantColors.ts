import { nearestColorName } from "../../catalog/ColorNames.js"
import type { RgbImage } from "../ImageAnalyzer.js"

const SAMPLE = 64
const K = 5
const ITERATIONS = 8
/** Near-white pixels touching the border are the studio background of a catalog photo, not the product. */
const isBackground = (r: number, g: number, b: number) => r > 235 && g > 235 && b > 235

const hex = (v: number) => Math.round(v).toString(16).padStart(2, "0")

/** Pixels of a 64×64 nearest-neighbour downsample, minus a white border background. */
const samplePixels = (image: RgbImage): Array<[number, number, number]> => {
  const pixels: Array<[number, number, number]> = []
  const background = new Uint8Array(SAMPLE * SAMPLE)
  const at = (x: number, y: number): [number, number, number] => {
    const sx = Math.min(image.width - 1, Math.floor(((x + 0.5) * image.width) / SAMPLE))
    const sy = Math.min(image.height - 1, Math.floor(((y + 0.5) * image.height) / SAMPLE))
    const i = (sy * image.width + sx) * 3
    return [image.data[i], image.data[i + 1], image.data[i + 2]]
  }
  // Flood the background inwards from the border so white inside the product is kept.
  const stack: Array<number> = []
  for (let i = 0; i < SAMPLE; i++) stack.push(i, (SAMPLE - 1) * SAMPLE + i, i * SAMPLE, i * SAMPLE + SAMPLE - 1)
  while (stack.length > 0) {
    const p = stack.pop()!
    if (background[p]) continue
    const x = p % SAMPLE, y = Math.floor(p / SAMPLE)
    if (!isBackground(...at(x, y))) continue
    background[p] = 1
    if (x > 0) stack.push(p - 1)
    if (x < SAMPLE - 1) stack.push(p + 1)
    if (y > 0) stack.push(p - SAMPLE)
    if (y < SAMPLE - 1) stack.push(p + SAMPLE)
  }
  for (let p = 0; p < SAMPLE * SAMPLE; p++) if (!background[p]) pixels.push(at(p % SAMPLE, Math.floor(p / SAMPLE)))
  // An all-white image is white, not empty.
  return pixels.length > 0 ? pixels : [[255, 255, 255]]
}

/**
 * Dominant colours by k-means on a downsample, named with the shop palette; clusters with the
 * same name merge. Deterministic (seeded from evenly spaced pixels).
 */
export const dominantColors = (image: RgbImage): Array<{ name: string; hex: string; share: number }> => {
  const pixels = samplePixels(image)
  const centres = Array.from({ length: Math.min(K, pixels.length) }, (_, i) => [...pixels[Math.floor((i * pixels.length) / K)]])
  const assignment = new Int32Array(pixels.length)
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    for (let p = 0; p < pixels.length; p++) {
      let best = 0, bestDistance = Infinity
      for (let c = 0; c < centres.length; c++) {
        const d = (pixels[p][0] - centres[c][0]) ** 2 + (pixels[p][1] - centres[c][1]) ** 2 + (pixels[p][2] - centres[c][2]) ** 2
        if (d < bestDistance) { bestDistance = d; best = c }
      }
      assignment[p] = best
    }
    const sums = centres.map(() => [0, 0, 0, 0])
    for (let p = 0; p < pixels.length; p++) {
      const s = sums[assignment[p]]
      s[0] += pixels[p][0]; s[1] += pixels[p][1]; s[2] += pixels[p][2]; s[3]++
    }
    sums.forEach((s, c) => { if (s[3] > 0) centres[c] = [s[0] / s[3], s[1] / s[3], s[2] / s[3]] })
  }
  const counts = new Array<number>(centres.length).fill(0)
  for (let p = 0; p < pixels.length; p++) counts[assignment[p]]++
  const byName = new Map<string, { name: string; hex: string; share: number; weight: number }>()
  centres.forEach((c, i) => {
    if (counts[i] === 0) return
    const name = nearestColorName(c[0], c[1], c[2])
    const share = counts[i] / pixels.length
    const known = byName.get(name)
    if (known === undefined || known.weight < share) byName.set(name, { name, hex: `#${hex(c[0])}${hex(c[1])}${hex(c[2])}`, share: (known?.share ?? 0) + share, weight: share })
    else known.share += share
  })
  return [...byName.values()]
    .map(({ hex, name, share }) => ({ name, hex, share: Math.round(share * 1000) / 1000 }))
    .filter((c) => c.share >= 0.1)
    .sort((a, b) => b.share - a.share)
    .slice(0, 3)
}
