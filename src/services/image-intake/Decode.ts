import { Effect } from "effect"
import { createHash } from "node:crypto"
import sharp from "sharp"
import {
  type DecodedImage,
  imageFailure,
  type ImageFormat,
  type ImageRejected,
  ImageTooManyPixels,
  ImageUndecodable,
  ImageUnsupported
} from "./IntakeErrors.js"

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, at = 0) =>
  signature.every((byte, i) => bytes[at + i] === byte)

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

/**
 * The format from the leading bytes, whatever a header or data URL claimed. Only these four
 * ever reach libvips, so its SVG, TIFF, HEIF or PDF loaders are never exposed to requests.
 */
export const sniffFormat = (bytes: Uint8Array): ImageFormat | undefined => {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg"
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png"
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif"
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp"
  return undefined
}

const corrupt = (field: string, format: ImageFormat) => (cause: unknown) =>
  imageFailure(
    ImageUndecodable,
    field,
    `is not a readable ${format.toUpperCase()} image (${cause instanceof Error ? cause.message : String(cause)})`
  )

/**
 * Accepts a JPEG, PNG, WebP or GIF (the first frame of an animation) that decodes cleanly.
 * The pixel count is read from the header and judged before any pixel is decoded, so a
 * small file declaring a huge canvas costs nothing.
 */
export const decodeImage = (
  bytes: Uint8Array,
  field: string,
  maxPixels: number
): Effect.Effect<DecodedImage, ImageRejected> =>
  Effect.gen(function* () {
    const format = sniffFormat(bytes)
    if (format === undefined)
      return yield* imageFailure(ImageUnsupported, field, "is not a JPEG, PNG, WebP or GIF image")
    // Header only; the limit is ours to judge below, with a message that gives the numbers.
    const meta = yield* Effect.tryPromise({
      try: () => sharp(bytes, { limitInputPixels: false, failOn: "error" }).metadata(),
      catch: corrupt(field, format)
    })
    const { width, height } = meta
    if (meta.format !== format || !width || !height) return yield* corrupt(field, format)("unreadable header")
    if (width * height > maxPixels) {
      const megapixels = (n: number) => `${Math.round(n / 100_000) / 10} megapixels`
      return yield* imageFailure(
        ImageTooManyPixels,
        field,
        `the image is ${width}×${height} (${megapixels(width * height)}), ` +
          `more than the limit of ${megapixels(maxPixels)}`
      )
    }
    // A full decode at reduced scale reads every byte: truncated or damaged data fails here,
    // at intake with a 415, rather than later inside a model.
    yield* Effect.tryPromise({
      try: () =>
        sharp(bytes, { limitInputPixels: maxPixels, failOn: "error" })
          .resize(64, 64, { fit: "inside" })
          .raw()
          .toBuffer(),
      catch: corrupt(field, format)
    })
    return {
      format,
      width: meta.autoOrient.width,
      height: meta.autoOrient.height,
      bytes,
      sha256: createHash("sha256").update(bytes).digest("hex")
    }
  })
