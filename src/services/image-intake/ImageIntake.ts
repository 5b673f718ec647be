import { Context, Data, type Effect } from "effect"

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

/**
 * Turns what a request carries (base64, a data URL, or a url fetched server-side) into a
 * checked image. `field` names the request field ("query.url", "images.0.url") in errors.
 */
export interface ImageIntakeService {
  readonly fromData: (data: string, field: string) => Effect.Effect<DecodedImage, ImageRejected>
  readonly fromUrl: (url: string, field: string) => Effect.Effect<DecodedImage, ImageRejected | ImageUnavailable>
  readonly decode: (bytes: Uint8Array, field: string) => Effect.Effect<DecodedImage, ImageRejected>
}

export class ImageIntake extends Context.Tag("ImageIntake")<ImageIntake, ImageIntakeService>() {}
