import { Data, Predicate } from "effect"

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

export const ImageFailureTypeId: unique symbol = Symbol.for("commerce-search/ImageFailure")

interface ImageFailureProps {
  readonly field: string
  /** Starts with the request field ("query.url: …"), so it reads on its own. */
  readonly message: string
}

/** The base class of every intake failure: recognisable by type (`isImageFailure`), named for what went wrong. */
const ImageFailure = <const Tag extends string>(tag: Tag) =>
  class extends Data.TaggedError(tag)<ImageFailureProps> {
    readonly [ImageFailureTypeId]: typeof ImageFailureTypeId = ImageFailureTypeId
  }

/** Not base64, not a well-formed data URL, or empty. */
export class ImageMalformed extends ImageFailure("ImageMalformed") {}
/** Not a URL, or not an http(s) one. */
export class ImageUrlInvalid extends ImageFailure("ImageUrlInvalid") {}
/** The URL (or a redirect) leads to an address we do not fetch from (private, loopback, metadata …). */
export class ImageAddressRefused extends ImageFailure("ImageAddressRefused") {}
/** More bytes than the size limit. */
export class ImageTooLarge extends ImageFailure("ImageTooLarge") {}
/** Not a JPEG, PNG, WebP or GIF image (by its bytes, or the content type the server sent). */
export class ImageUnsupported extends ImageFailure("ImageUnsupported") {}
/** A supported format whose data is corrupt or truncated. */
export class ImageUndecodable extends ImageFailure("ImageUndecodable") {}
/** A well-formed image with more pixels than the limit (a decompression bomb). */
export class ImageTooManyPixels extends ImageFailure("ImageTooManyPixels") {}
/** The image server could not be resolved or reached, or dropped the connection. */
export class ImageHostUnreachable extends ImageFailure("ImageHostUnreachable") {}
/** The image server answered with an error status, or redirected too often. */
export class ImageHostBadResponse extends ImageFailure("ImageHostBadResponse") {}
/** The image server did not deliver within the fetch timeout. */
export class ImageHostTimedOut extends ImageFailure("ImageHostTimedOut") {}

/**
 * The client's image will not be taken: the image or its address is at fault, and asking again gets
 * the same answer.
 */
export type ImageRejected =
  | ImageMalformed
  | ImageUrlInvalid
  | ImageAddressRefused
  | ImageTooLarge
  | ImageUnsupported
  | ImageUndecodable
  | ImageTooManyPixels

/** The image server failed us: asking again later may work. */
export type ImageUnavailable = ImageHostUnreachable | ImageHostBadResponse | ImageHostTimedOut

export type ImageFailure = ImageRejected | ImageUnavailable

export const isImageFailure = (u: unknown): u is ImageFailure => Predicate.hasProperty(u, ImageFailureTypeId)

export const isImageUnavailable = (e: ImageFailure): e is ImageUnavailable =>
  e instanceof ImageHostUnreachable || e instanceof ImageHostBadResponse || e instanceof ImageHostTimedOut

/** `new Failure({ field, message: "<field>: <text>" })`. */
export const imageFailure = <E extends ImageFailure>(
  Failure: new (props: ImageFailureProps) => E,
  field: string,
  text: string
): E => new Failure({ field, message: `${field}: ${text}` })

export const megabytes = (bytes: number) =>
  bytes < 1_048_576 ? `${Math.ceil(bytes / 1024)} kB` : `${Math.round((bytes / 1_048_576) * 10) / 10} MB`
