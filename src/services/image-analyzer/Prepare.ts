import sharp from "sharp"
import type { RgbImage } from "./ImageAnalyzer.js"

/** MobileNetV2Mid's input side. */
export const FEATURE_SIZE = 224
/** Colours are clustered on this square: 4,096 pixels keep k-means cheap. */
export const SWATCH_SIZE = 64
/**
 * CenterNet's input side; a larger image would only be shrunk again inside the thread. It is
 * fixed: the graph upsamples to constant sizes (fed 384 px, a 24×24 map meets a 32×32 one and
 * the run fails), and Human stretches a smaller image back to 512, so a lower resolution
 * cannot make detection cheaper; running it as a later pass (ProductImages) does.
 */
export const DETECTION_MAX_SIZE = 512

/** Each part only when asked for. */
export interface PreparedImage {
  /** 224×224 RGB, stretched like nsfwjs does (its classifier was trained that way). */
  readonly features?: Uint8Array
  /** 64×64 RGB; stretching scales every region alike, so colour shares are unchanged. */
  readonly swatch?: RgbImage
  /** At most 512 px a side, aspect kept; rectangles come back relative, so they still fit the original. */
  readonly detection?: RgbImage
}

export const validationError = (image: RgbImage): string | undefined => {
  const { width, height, data } = image
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    return `image size must be positive integers, got ${width}×${height}`
  }
  if (data.length !== width * height * 3)
    return `expected ${width * height * 3} RGB bytes for ${width}×${height}, got ${data.length}`
  return undefined
}

const resized = async (image: RgbImage, width: number, height: number, fit: "fill" | "inside"): Promise<RgbImage> => {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit, withoutEnlargement: fit === "inside" })
    .raw()
    .toBuffer({ resolveWithObject: true })
  // A copy the pool can transfer to its thread: sharp's Buffer may not be detachable.
  return { data: new Uint8Array(data), width: info.width, height: info.height }
}

/**
 * The model inputs, resized with sharp: on libuv's thread pool, so the api's event loop
 * stays free, and with area-averaging filters instead of the aliasing a 224-px bilinear
 * sample of a 2,000-px photo would give.
 */
export const prepare = async (
  image: RgbImage,
  what: { features: boolean; detection: boolean }
): Promise<PreparedImage> => {
  const [features, swatch, detection] = await Promise.all([
    what.features ? resized(image, FEATURE_SIZE, FEATURE_SIZE, "fill") : undefined,
    what.features ? resized(image, SWATCH_SIZE, SWATCH_SIZE, "fill") : undefined,
    what.detection ? resized(image, DETECTION_MAX_SIZE, DETECTION_MAX_SIZE, "inside") : undefined
  ])
  return { features: features?.data, swatch, detection }
}
