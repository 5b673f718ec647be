import { Effect, Layer } from "effect"
import { makeAddressPolicy } from "./AddressPolicy.js"
import { base64Bytes } from "./Base64.js"
import { decodeImage } from "./Decode.js"
import { imageFailure, ImageTooLarge, megabytes } from "./IntakeErrors.js"
import { ImageIntake, type ImageIntakeService } from "./ImageIntake.js"
import { ImageIntakeConfig, type ImageIntakeSettings } from "./ImageIntakeConfig.js"
import { fetchImageBytes } from "./SafeFetch.js"

const makeImageIntake = (settings: ImageIntakeSettings): ImageIntakeService => {
  const policy = makeAddressPolicy({ allowPrivate: settings.allowPrivateUrls, allowedCidrs: settings.allowedCidrs })
  const limits = {
    maxBytes: settings.maxBytes,
    timeoutMs: settings.fetchTimeoutMs,
    maxRedirects: settings.maxRedirects
  }
  // Raw bytes (a multipart upload) meet the same size limit as base64 and urls.
  const decode = (bytes: Uint8Array, field: string) =>
    bytes.length > settings.maxBytes
      ? Effect.fail(
          imageFailure(
            ImageTooLarge,
            field,
            `the image is ${megabytes(bytes.length)}, more than the limit of ${megabytes(settings.maxBytes)}`
          )
        )
      : decodeImage(bytes, field, settings.maxPixels)
  return {
    decode,
    fromData: (data, field) =>
      Effect.flatMap(base64Bytes(data, field, settings.maxBytes), (bytes) => decode(bytes, field)),
    fromUrl: (url, field) =>
      Effect.flatMap(fetchImageBytes(url, field, policy, limits), (bytes) => decode(bytes, field))
  }
}

/** Decoding (sharp) and url fetching in this process, under the limits of ImageIntakeConfig. */
export const EmbeddedImageIntake = {
  layer: Layer.effect(ImageIntake, Effect.map(ImageIntakeConfig, makeImageIntake))
}
