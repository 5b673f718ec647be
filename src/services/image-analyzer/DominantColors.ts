import { nearestColorName } from "../../model/ColorNames.js"
import type { DominantColor, RgbImage } from "./ImageAnalyzer.js"

const K = 5
const ITERATIONS = 8
const MIN_SHARE = 0.1
const MAX_COLORS = 3

/** Studio white after JPEG and lighting: bright and nearly grey. */
const isNearWhite = (data: Uint8Array, p: number) => {
  const r = data[p * 3],
    g = data[p * 3 + 1],
    b = data[p * 3 + 2]
  const low = Math.min(r, g, b)
  return low >= 220 && Math.max(r, g, b) - low <= 24
}

/**
 * Pixels that are not the white background of a catalog photo: near-white pixels reachable
 * from the border, flooded inwards so white inside the product (a logo, a collar) stays.
 * Only when most of the border is white, so a photo with one white edge keeps it; and all
 * pixels when almost nothing would remain (a white product on white).
 */
const foregroundPixels = ({ data, width, height }: RgbImage): Array<number> => {
  const total = width * height
  const border: Array<number> = []
  for (let x = 0; x < width; x++) border.push(x, (height - 1) * width + x)
  for (let y = 1; y < height - 1; y++) border.push(y * width, y * width + width - 1)
  const all = Array.from({ length: total }, (_, p) => p)
  if (border.filter((p) => isNearWhite(data, p)).length < border.length / 2) return all

  const background = new Uint8Array(total)
  const stack = border.filter((p) => isNearWhite(data, p))
  for (const p of stack) background[p] = 1
  while (stack.length > 0) {
    const p = stack.pop()!
    const x = p % width
    for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width]) {
      if (q >= 0 && q < total && !background[q] && isNearWhite(data, q)) {
        background[q] = 1
        stack.push(q)
      }
    }
  }
  const foreground = all.filter((p) => !background[p])
  return foreground.length >= total * 0.05 ? foreground : all
}

/** Deterministic seeds: the means of the K fullest cells of a 4×4×4 RGB histogram. */
const seedCentres = (data: Uint8Array, pixels: ReadonlyArray<number>): Array<Array<number>> => {
  const cells = new Map<number, Array<number>>()
  for (const p of pixels) {
    const key = (data[p * 3] >> 6) * 16 + (data[p * 3 + 1] >> 6) * 4 + (data[p * 3 + 2] >> 6)
    const cell = cells.get(key) ?? [0, 0, 0, 0]
    cell[0] += data[p * 3]
    cell[1] += data[p * 3 + 1]
    cell[2] += data[p * 3 + 2]
    cell[3]++
    cells.set(key, cell)
  }
  return [...cells.values()]
    .sort((a, b) => b[3] - a[3])
    .slice(0, K)
    .map((c) => [c[0] / c[3], c[1] / c[3], c[2] / c[3], 0])
}

const toHex = (rgb: ReadonlyArray<number>) =>
  `#${rgb
    .slice(0, 3)
    .map((v) => Math.round(v).toString(16).padStart(2, "0"))
    .join("")}`

/**
 * Dominant colours by k-means in RGB on a small swatch, named with the shop palette.
 * Clusters that get the same name (two shades of red) are one colour to a shopper, so
 * they merge, the hex becoming their pixel-weighted centre.
 */
export const dominantColors = (swatch: RgbImage): Array<DominantColor> => {
  const { data } = swatch
  const pixels = foregroundPixels(swatch)
  const centres = seedCentres(data, pixels)
  // Each centre carries its pixel count as a fourth value once assigned.
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const sums = centres.map(() => [0, 0, 0, 0])
    for (const p of pixels) {
      const r = data[p * 3],
        g = data[p * 3 + 1],
        b = data[p * 3 + 2]
      let nearest = sums[0]
      let nearestDistance = Infinity
      for (let k = 0; k < centres.length; k++) {
        const d = (r - centres[k][0]) ** 2 + (g - centres[k][1]) ** 2 + (b - centres[k][2]) ** 2
        if (d < nearestDistance) {
          nearestDistance = d
          nearest = sums[k]
        }
      }
      nearest[0] += r
      nearest[1] += g
      nearest[2] += b
      nearest[3]++
    }
    sums.forEach(
      (s, k) => (centres[k] = s[3] > 0 ? [s[0] / s[3], s[1] / s[3], s[2] / s[3], s[3]] : [...centres[k].slice(0, 3), 0])
    )
  }

  const byName = new Map<string, Array<number>>()
  for (const [r, g, b, count] of centres) {
    if (count === 0) continue
    const name = nearestColorName(r, g, b)
    const merged = byName.get(name) ?? [0, 0, 0, 0]
    byName.set(name, [merged[0] + r * count, merged[1] + g * count, merged[2] + b * count, merged[3] + count])
  }
  return [...byName]
    .map(([name, [r, g, b, count]]) => ({
      name,
      hex: toHex([r / count, g / count, b / count]),
      share: Math.round((count / pixels.length) * 1000) / 1000
    }))
    .filter((color) => color.share >= MIN_SHARE)
    .sort((a, b) => b.share - a.share)
    .slice(0, MAX_COLORS)
}
