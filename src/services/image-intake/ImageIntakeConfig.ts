import { Config, Context, Effect, Layer } from "effect"
import { parseCidr } from "./AddressPolicy.js"

export interface ImageIntakeSettings {
  /** Lets urls reach loopback, private and link-local addresses (an intranet image server). */
  readonly allowPrivateUrls: boolean
  /** Ranges opened one by one, even cloud metadata; e.g. "127.0.0.0/8" for a local proxy. */
  readonly allowedCidrs: ReadonlyArray<string>
  /** Largest encoded image accepted, from base64 or a url. */
  readonly maxBytes: number
  /** Largest width × height decoded: what stops decompression bombs. */
  readonly maxPixels: number
  /** For a whole url fetch: lookups, redirects and body. */
  readonly fetchTimeoutMs: number
  readonly maxRedirects: number
}

const defaults: ImageIntakeSettings = {
  allowPrivateUrls: false,
  allowedCidrs: [],
  maxBytes: 15 * 1024 * 1024,
  maxPixels: 40_000_000,
  fetchTimeoutMs: 10_000,
  maxRedirects: 3
}

const cidrList = Config.array(Config.string(), "IMAGE_ALLOWED_CIDRS").pipe(
  Config.map((items) => items.map((item) => item.trim()).filter((item) => item !== "")),
  // A typo here would silently leave a range closed (or worse, look open), so fail at start.
  Config.validate({
    message: "must be a comma-separated list of CIDRs, e.g. 127.0.0.0/8,fd12::/16",
    validation: (items) => items.every((item) => parseCidr(item) !== undefined)
  }),
  Config.withDefault(defaults.allowedCidrs)
)

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 }),
    Config.withDefault(fallback)
  )

export class ImageIntakeConfig extends Context.Tag("ImageIntakeConfig")<ImageIntakeConfig, ImageIntakeSettings>() {
  static readonly fromEnv = Layer.effect(
    ImageIntakeConfig,
    Effect.gen(function* () {
      return {
        allowPrivateUrls: yield* Config.boolean("IMAGE_ALLOW_PRIVATE_URLS").pipe(Config.withDefault(false)),
        allowedCidrs: yield* cidrList,
        maxBytes: yield* positive("IMAGE_MAX_BYTES", defaults.maxBytes),
        maxPixels: yield* positive("IMAGE_MAX_PIXELS", defaults.maxPixels),
        fetchTimeoutMs: yield* positive("IMAGE_FETCH_TIMEOUT_MS", defaults.fetchTimeoutMs),
        maxRedirects: yield* Config.integer("IMAGE_MAX_REDIRECTS").pipe(
          Config.validate({ message: "must be 0 or more", validation: (n) => n >= 0 }),
          Config.withDefault(defaults.maxRedirects)
        )
      }
    })
  )

  static readonly make = (overrides: Partial<ImageIntakeSettings> = {}) =>
    Layer.succeed(ImageIntakeConfig, { ...defaults, ...overrides })
}
