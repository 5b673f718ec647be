import { Effect } from "effect"
import type { ImageAnalyzerService, Priority, RgbImage } from "../services/image-analyzer/ImageAnalyzer.js"
import type { DecodedImage } from "../services/image-intake/IntakeErrors.js"
import { type RelativeArea, toRgb } from "../services/image-intake/Rgb.js"

/**
 * Other views of a photo that still show the same product: its mirror image and its centre.
 * Computed by a visual-space fit for the photos it samples (and stored beside their analyses for
 * later fits) as further samples of the product, they teach the learned visual space that a
 * product seen the other way round or from closer is the same product; a query is averaged with
 * its mirror image for the same reason.
 */

/** The part of a photo its centre view shows: most of the product, less of its surroundings. */
export const CENTRE: RelativeArea = { left: 0.15, top: 0.15, width: 0.7, height: 0.7 }

/** The centre of an area of a photo (of the whole photo without one). */
export const centreOf = (area?: RelativeArea): RelativeArea =>
  area === undefined
    ? CENTRE
    : {
        left: area.left + area.width * CENTRE.left,
        top: area.top + area.height * CENTRE.top,
        width: area.width * CENTRE.width,
        height: area.height * CENTRE.height
      }

/** The mirror image (left and right swapped). */
export const mirrored = (rgb: RgbImage): RgbImage => {
  const data = new Uint8Array(rgb.data.length)
  for (let y = 0; y < rgb.height; y++) {
    const row = y * rgb.width
    for (let x = 0; x < rgb.width; x++) {
      const a = (row + x) * 3
      const b = (row + rgb.width - 1 - x) * 3
      data[a] = rgb.data[b]
      data[a + 1] = rgb.data[b + 1]
      data[a + 2] = rgb.data[b + 2]
    }
  }
  return { width: rgb.width, height: rgb.height, data }
}

/** The features of a photo's mirror image and of its centre, in that order (`rgb`: the photo as analysed). */
export const viewFeatures = (
  analyzer: ImageAnalyzerService,
  decoded: DecodedImage,
  rgb: RgbImage,
  options: { readonly size: number; readonly priority: Priority }
) =>
  Effect.gen(function* () {
    const centre = yield* toRgb(decoded, { size: options.size, fit: "contain", crop: CENTRE })
    return yield* Effect.all([analyzer.embed(mirrored(rgb), options), analyzer.embed(centre, options)], {
      concurrency: 2
    })
  })

/** The mean of two unit vectors, unit length again. */
export const meanDirection = (a: Float32Array, b: Float32Array): Float32Array => {
  const out = new Float32Array(a.length)
  let norm = 0
  for (let i = 0; i < a.length; i++) {
    out[i] = a[i] + b[i]
    norm += out[i] * out[i]
  }
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0
  for (let i = 0; i < a.length; i++) out[i] *= inv
  return out
}
