import { Effect } from "effect"
import type { DecodedImage } from "../services/image-intake/IntakeErrors.js"
import { type RelativeArea, toRgb } from "../services/image-intake/Rgb.js"

/**
 * A photo's colours as a vector: an 8×8×8 histogram of its RGB values and one of its HSV
 * values, each as the square roots of the shares (unit length: the dot product of two is their
 * Bhattacharyya coefficient), stored as one byte a bin (1,024 bytes a photo). Near-white pixels
 * are left out (a studio background says nothing about the product) unless almost nothing else
 * is there; a visual query takes the centre of the searched area, where a shopper frames the
 * product (both chosen on the evaluation's val photos).
 *
 * Why: the image model's features say little about colour (a blue square is nearer a red mug
 * than a blue one), and in a grocery shelf photo the colours tell much (the golden apples from
 * the green). Added to the learned visual space's cosine (SiteVisualSpaces), it lifts the grocery
 * evaluation's top-5.
 */
export const SIGNATURE_BINS = 1_024
const SIDE = 128

/** RGB → HSV with each channel in 0–255, as PIL's "HSV" mode computes it (the evaluation's reference). */
const hsv = (r: number, g: number, b: number): readonly [number, number, number] => {
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  if (max === min) return [0, 0, max]
  const delta = max - min
  const rc = (max - r) / delta,
    gc = (max - g) / delta,
    bc = (max - b) / delta
  const h = r === max ? bc - gc : g === max ? 2 + rc - bc : 4 + gc - rc
  const hue = (((h / 6 + 1) % 1) + 1) % 1
  return [Math.min(255, Math.floor(hue * 255)), Math.min(255, Math.floor((delta / max) * 255)), max]
}

/** A pixel this light in every channel counts as background. */
const WHITE = 225
/** Unless fewer than this share of the pixels are anything else (a white product). */
const MIN_COLOURED = 0.01

/** The signature of RGB bytes (3 a pixel). */
export const signatureOfPixels = (data: Uint8Array): Uint8Array => {
  const pixels = Math.floor(data.length / 3)
  let coloured = 0
  for (let p = 0; p < pixels; p++)
    if (!(data[3 * p] > WHITE && data[3 * p + 1] > WHITE && data[3 * p + 2] > WHITE)) coloured++
  const skipWhite = coloured >= MIN_COLOURED * pixels
  const rgb = new Float64Array(512)
  const hsvCounts = new Float64Array(512)
  let counted = 0
  for (let p = 0; p < pixels; p++) {
    const r = data[3 * p],
      g = data[3 * p + 1],
      b = data[3 * p + 2]
    if (skipWhite && r > WHITE && g > WHITE && b > WHITE) continue
    counted++
    rgb[((r >> 5) << 6) | ((g >> 5) << 3) | (b >> 5)]++
    const [h, s, v] = hsv(r, g, b)
    hsvCounts[((h >> 5) << 6) | ((s >> 5) << 3) | (v >> 5)]++
  }
  const out = new Uint8Array(SIGNATURE_BINS)
  if (counted === 0) return out
  for (let i = 0; i < 512; i++) {
    out[i] = Math.round(255 * Math.sqrt(rgb[i] / counted))
    out[512 + i] = Math.round(255 * Math.sqrt(hsvCounts[i] / counted))
  }
  return out
}

/** The signature of a photo (or of an area of it), from the whole frame without padding. */
export const colorSignature = (image: DecodedImage, area?: RelativeArea) =>
  Effect.map(toRgb(image, { size: SIDE, fit: "fill", ...(area ? { crop: area } : {}) }), (rgb) =>
    signatureOfPixels(rgb.data)
  )

/** A signature as a unit vector: both histograms' root shares, each half of unit length, together scaled to one. */
export const signatureVector = (signature: Uint8Array): Float32Array => {
  const out = new Float32Array(SIGNATURE_BINS)
  for (const [from, to] of [
    [0, 512],
    [512, 1024]
  ] as const) {
    let norm = 0
    for (let i = from; i < to; i++) norm += signature[i] * signature[i]
    const scale = norm > 0 ? 1 / Math.sqrt(2 * norm) : 0
    for (let i = from; i < to; i++) out[i] = signature[i] * scale
  }
  return out
}
