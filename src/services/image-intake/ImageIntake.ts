import { Context, type Effect } from "effect"
import type { DecodedImage, ImageRejected, ImageUnavailable } from "./IntakeErrors.js"

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
