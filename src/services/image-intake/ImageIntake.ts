import { Context, Effect, Layer } from "effect"
import { makeAddressPolicy } from "./AddressPolicy.js"
import { base64Bytes } from "./Base64.js"
import { decodeImage } from "./Decode.js"
import { type DecodedImage, imageFailure, type ImageRejected, ImageTooLarge, type ImageUnavailable, megabytes } from "./Errors.js"
import { ImageIntakeConfig, type ImageIntakeSettings } from "./ImageIntakeConfig.js"
import { fetchImageBytes } from "./SafeFetch.js"

export type { DecodedImage, ImageFormat } from "./Errors.js"
export {
  ImageAddressRefused,
  type ImageFailure,
  ImageHostBadResponse,
  ImageHostTimedOut,
  ImageHostUnreachable,
  ImageMalformed,
  type ImageRejected,
  ImageTooLarge,
  ImageTooManyPixels,
  type ImageUnavailable,
  ImageUndecodable,
  ImageUnsupported,
  ImageUrlInvalid,
  isImageFailure,
  isImageUnavailable
} from "./Errors.js"
export { ImageIntakeConfig, type ImageIntakeSettings } from "./ImageIntakeConfig.js"
export { type RelativeArea, type RgbImage, type RgbOptions, toRgb } from "./Rgb.js"

/**
 * Turns what a request carries (base64, a data URL, or a url fetched server-side) into a
 * checked image. `field` names the request field ("query.url", "images.0.url") in errors.
 */
export interface ImageIntakeService {
  readonly fromData: (data: string, field: string) => Effect.Effect<DecodedImage, ImageRejected>
  readonly fromUrl: (url: string, field: string) => Effect.Effect<DecodedImage, ImageRejected | ImageUnavailable>
  readonly decode: (bytes: Uint8Array, field: string) => Effect.Effect<DecodedImage, ImageRejected>
}

export const makeImageIntake = (settings: ImageIntakeSettings): ImageIntakeService => {
  const policy = makeAddressPolicy({ allowPrivate: settings.allowPrivateUrls, allowedCidrs: settings.allowedCidrs })
  const limits = { maxBytes: settings.maxBytes, timeoutMs: settings.fetchTimeoutMs, maxRedirects: settings.maxRedirects }
  // Raw bytes (a multipart upload) meet the same size limit as base64 and urls.
  const decode = (bytes: Uint8Array, field: string) =>
    bytes.length > settings.maxBytes
      ? Effect.fail(imageFailure(ImageTooLarge, field, `the image is ${megabytes(bytes.length)}, more than the limit of ${megabytes(settings.maxBytes)}`))
      : decodeImage(bytes, field, settings.maxPixels)
  return {
    decode,
    fromData: (data, field) => Effect.flatMap(base64Bytes(data, field, settings.maxBytes), (bytes) => decode(bytes, field)),
    fromUrl: (url, field) => Effect.flatMap(fetchImageBytes(url, field, policy, limits), (bytes) => decode(bytes, field))
  }
}

export class ImageIntake extends Context.Tag("ImageIntake")<ImageIntake, ImageIntakeService>() {
  static readonly layer = Layer.effect(ImageIntake, Effect.map(ImageIntakeConfig, makeImageIntake))
}
