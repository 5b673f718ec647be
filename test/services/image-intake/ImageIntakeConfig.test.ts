import { ConfigProvider, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { ImageIntakeConfig } from "../../../src/services/image-intake/ImageIntakeConfig.js"

const read = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    ImageIntakeConfig.pipe(
      Effect.provide(
        ImageIntakeConfig.fromEnv.pipe(
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
        )
      )
    )
  )

describe("ImageIntakeConfig.fromEnv", () => {
  it("defaults to closed private ranges and the documented limits", async () => {
    const exit = await read({})
    expect(exit._tag === "Success" && exit.value).toEqual({
      allowPrivateUrls: false,
      allowedCidrs: [],
      maxBytes: 15 * 1024 * 1024,
      maxPixels: 40_000_000,
      fetchTimeoutMs: 10_000,
      maxRedirects: 3
    })
  })

  it("reads every setting, CIDRs as a comma-separated list", async () => {
    const exit = await read({
      IMAGE_ALLOW_PRIVATE_URLS: "true",
      IMAGE_ALLOWED_CIDRS: "127.0.0.0/8, fd12::/16",
      IMAGE_MAX_BYTES: "1000",
      IMAGE_MAX_PIXELS: "2000",
      IMAGE_FETCH_TIMEOUT_MS: "3000",
      IMAGE_MAX_REDIRECTS: "0"
    })
    expect(exit._tag === "Success" && exit.value).toEqual({
      allowPrivateUrls: true,
      allowedCidrs: ["127.0.0.0/8", "fd12::/16"],
      maxBytes: 1000,
      maxPixels: 2000,
      fetchTimeoutMs: 3000,
      maxRedirects: 0
    })
  })

  it("fails at start on a malformed CIDR or limit", async () => {
    expect((await read({ IMAGE_ALLOWED_CIDRS: "127.0.0.0/8,10.0.0/8" }))._tag).toBe("Failure")
    expect((await read({ IMAGE_MAX_BYTES: "0" }))._tag).toBe("Failure")
  })
})
