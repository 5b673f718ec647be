import sharp from "sharp"

/**
 * The colour-histogram baseline: each image is decoded and resized to 64×64 (sharp), binned
 * into an 8×8×8 histogram (RGB or HSV), L1-normalised, and compared by histogram intersection
 * (Σ min(a, b), 1 = identical). A product's score is its best image's.
 */
export type ColorSpace = "rgb" | "hsv"

const SIDE = 64
const BINS = 8

export interface Histograms {
  readonly rgb: Float32Array
  readonly hsv: Float32Array
}

const bin = (v: number) => Math.min(BINS - 1, Math.floor(v * BINS))

/** H in [0, 1), S and V in [0, 1]. */
const toHsv = (r: number, g: number, b: number): [number, number, number] => {
  const max = Math.max(r, g, b),
    min = Math.min(r, g, b),
    d = max - min
  let h = 0
  if (d > 0) {
    if (max === r) h = ((g - b) / d + 6) % 6
    else if (max === g) h = (b - r) / d + 2
    else h = (r - g) / d + 4
    h /= 6
  }
  return [h, max === 0 ? 0 : d / max, max]
}

export const histogramsOf = async (file: string): Promise<Histograms> => {
  const { data, info } = await sharp(file)
    .rotate()
    .removeAlpha()
    .resize(SIDE, SIDE, { fit: "fill" })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const rgb = new Float32Array(BINS ** 3)
  const hsv = new Float32Array(BINS ** 3)
  const pixels = info.width * info.height
  for (let p = 0; p < pixels; p++) {
    const r = data[p * info.channels] / 255,
      g = data[p * info.channels + 1] / 255,
      b = data[p * info.channels + 2] / 255
    rgb[(bin(r) * BINS + bin(g)) * BINS + bin(b)] += 1 / pixels
    const [h, s, v] = toHsv(r, g, b)
    hsv[(bin(h) * BINS + bin(s)) * BINS + bin(v)] += 1 / pixels
  }
  return { rgb, hsv }
}

export const intersection = (a: Float32Array, b: Float32Array) => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += Math.min(a[i], b[i])
  return sum
}

/** Product ids ranked by their best image's intersection with the query, best first. */
export const rankProducts = (
  query: Histograms,
  gallery: ReadonlyArray<{ readonly productId: string; readonly histograms: Histograms }>,
  space: ColorSpace,
  limit: number
): ReadonlyArray<string> => {
  const best = new Map<string, number>()
  for (const item of gallery) {
    const s = intersection(query[space], item.histograms[space])
    if (s > (best.get(item.productId) ?? -1)) best.set(item.productId, s)
  }
  return [...best.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([id]) => id)
}
