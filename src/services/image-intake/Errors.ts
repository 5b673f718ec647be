import { Data } from "effect"

export type ImageFormat = "jpeg" | "png" | "webp" | "gif"

/** An image that passed intake: a supported format, within the pixel limit, fully decodable. */
export interface DecodedImage {
  readonly format: ImageFormat
  /** Of the image as displayed, i.e. after its EXIF orientation. */
  readonly width: number
  readonly height: number
  /** The original encoded bytes: crops and high-resolution work go back to them. */
  readonly bytes: Uint8Array
  /** Hex SHA-256 of `bytes`, for dedup and caching. */
  readonly sha256: string
}

/**
 * The client's image will not be taken. `status` is the answer the HTTP layer gives: 400 bad
 * base64, data URL or URL, 403 refused address, 413 too large, 415 unsupported or corrupt,
 * 422 too many pixels. `message` starts with the request field, so it reads on its own.
 */
export class ImageRejected extends Data.TaggedError("ImageRejected")<{
  readonly field: string
  readonly message: string
  readonly status: 400 | 403 | 413 | 415 | 422
}> {}

/** The image server failed us: unreachable or bad answer (502), or too slow (504). */
export class ImageUnavailable extends Data.TaggedError("ImageUnavailable")<{
  readonly field: string
  readonly message: string
  readonly status: 502 | 504
}> {}

export const rejected = (field: string, status: ImageRejected["status"], text: string) =>
  new ImageRejected({ field, status, message: `${field}: ${text}` })

export const unavailable = (field: string, status: ImageUnavailable["status"], text: string) =>
  new ImageUnavailable({ field, status, message: `${field}: ${text}` })

export const megabytes = (bytes: number) =>
  bytes < 1_048_576 ? `${Math.ceil(bytes / 1024)} kB` : `${Math.round((bytes / 1_048_576) * 10) / 10} MB`
