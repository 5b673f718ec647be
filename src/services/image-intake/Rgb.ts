import { Effect } from "effect"
import sharp from "sharp"
import type { DecodedImage } from "./IntakeErrors.js"

/** A rectangle relative to the displayed image, each value in [0, 1]. */
export interface RelativeArea {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}

export interface RgbOptions {
  /** Square output side; without it the (cropped) image keeps its size. */
  readonly size?: number
  readonly crop?: RelativeArea
  /** How the area meets the square: crop to fill (default), letterbox, or stretch. */
  readonly fit?: "cover" | "contain" | "fill"
}

/** Interleaved 8-bit RGB, row by row: width × height × 3 bytes. */
export interface RgbImage {
  readonly data: Uint8Array
  readonly width: number
  readonly height: number
}

const WHITE = { r: 255, g: 255, b: 255 }

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value))

/** Pixel bounds of a relative area, rounded and kept inside the image, never empty. */
export const pixelArea = (area: RelativeArea, width: number, height: number) => {
  const left = clamp(Math.round(area.left * width), 0, width - 1)
  const top = clamp(Math.round(area.top * height), 0, height - 1)
  const right = clamp(Math.round((area.left + area.width) * width), left + 1, width)
  const bottom = clamp(Math.round((area.top + area.height) * height), top + 1, height)
  return { left, top, width: right - left, height: bottom - top }
}

/**
 * Pixels for the models (224×224) and colour analysis. The EXIF orientation is applied first,
 * so a crop means what the user saw. Transparency is flattened onto white, the usual product
 * backdrop, rather than dropped (dropping exposes whatever colour hides under alpha 0).
 * Intake already decoded these bytes in full, so a failure here is a defect, not an error.
 */
export const toRgb = (image: DecodedImage, options: RgbOptions = {}): Effect.Effect<RgbImage> =>
  Effect.promise(async () => {
    let pipeline = sharp(image.bytes).autoOrient()
    if (options.crop) pipeline = pipeline.extract(pixelArea(options.crop, image.width, image.height))
    if (options.size !== undefined) {
      pipeline = pipeline.resize(options.size, options.size, { fit: options.fit ?? "cover", background: WHITE })
    }
    const { data, info } = await pipeline
      .flatten({ background: WHITE })
      .toColourspace("srgb")
      .raw()
      .toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  })
