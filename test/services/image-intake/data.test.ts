import { describe, expect, it } from "vitest"
import { createHash } from "node:crypto"
import sharp from "sharp"
import { animatedGif, gif, halfRedHalfBlue, jpeg, png, pngDeclaring, webp } from "./images.js"
import { failureOf, withIntake } from "./support.js"

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

describe("ImageIntake.fromData", () => {
  it("accepts JPEG, PNG, WebP and GIF, detecting the format from the bytes", async () => {
    for (const [format, make] of [
      ["jpeg", jpeg],
      ["png", png],
      ["webp", webp],
      ["gif", gif]
    ] as const) {
      const bytes = await make(64, 48)
      const image = await withIntake({}, (intake) => intake.fromData(b64(bytes), "query.image"))
      expect({ format: image.format, width: image.width, height: image.height }).toEqual({
        format,
        width: 64,
        height: 48
      })
      expect(Buffer.from(image.bytes).equals(bytes)).toBe(true)
      expect(image.sha256).toBe(createHash("sha256").update(bytes).digest("hex"))
    }
  })

  it("accepts a data URL, whatever type it claims, and base64 wrapped over lines", async () => {
    const bytes = await png(10, 20)
    const wrapped = b64(bytes).replace(/(.{76})/g, "$1\r\n")
    const fromUrl = await withIntake({}, (intake) =>
      intake.fromData(`data:image/jpeg;base64,${wrapped}`, "query.image")
    )
    expect([fromUrl.format, fromUrl.width, fromUrl.height]).toEqual(["png", 10, 20])
  })

  it("takes the first frame of an animated GIF", async () => {
    const data = b64(await animatedGif())
    const image = await withIntake({}, (intake) => intake.fromData(data, "query.image"))
    expect([image.format, image.width, image.height]).toEqual(["gif", 20, 10])
  })

  it("reports the size as displayed, after the EXIF orientation", async () => {
    const data = b64(await halfRedHalfBlue(40, 20, 6))
    const image = await withIntake({}, (intake) => intake.fromData(data, "query.image"))
    expect([image.format, image.width, image.height]).toEqual(["jpeg", 20, 40])
  })

  it("refuses garbage, other data URLs and empty input as malformed", async () => {
    for (const data of ["not base64 at all!", "data:text/plain;base64,aGVsbG8=", "data:image/png,rawbytes", "  "]) {
      const error = await withIntake({}, (intake) => failureOf(intake.fromData(data, "query.image")))
      expect(error).toMatchObject({ _tag: "ImageMalformed", field: "query.image" })
      expect(error.message).toMatch(/^query\.image: /)
    }
  })

  it("refuses valid base64 of non-image bytes as unsupported, and truncated images as undecodable", async () => {
    const notImage = b64(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))
    const full = await jpeg(400, 300)
    const truncated = b64(full.subarray(0, Math.floor(full.length / 2)))
    for (const [data, tag] of [
      [notImage, "ImageUnsupported"],
      [truncated, "ImageUndecodable"]
    ]) {
      const error = await withIntake({}, (intake) => failureOf(intake.fromData(data, "query.image")))
      expect(error).toMatchObject({ _tag: tag })
    }
  })

  it("refuses a decompression bomb as too many pixels before decoding it", async () => {
    const bomb = b64(await pngDeclaring(30000, 30000))
    const started = Date.now()
    const declared = await withIntake({}, (intake) => failureOf(intake.fromData(bomb, "q")))
    expect(declared).toMatchObject({ _tag: "ImageTooManyPixels" })
    expect(declared.message).toContain("30000×30000 (900 megapixels), more than the limit of 40 megapixels")
    // A real one: 16 megapixels of one colour compress to a few kB.
    const real = await sharp({ create: { width: 4000, height: 4000, channels: 3, background: "#fff" } })
      .png()
      .toBuffer()
    expect(real.length).toBeLessThan(100_000)
    const error = await withIntake({ maxPixels: 10_000_000 }, (intake) => failureOf(intake.fromData(b64(real), "q")))
    expect(error).toMatchObject({ _tag: "ImageTooManyPixels" })
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it("applies the same limits to raw bytes given to decode", async () => {
    const bytes = await webp(30, 30)
    const image = await withIntake({}, (intake) => intake.decode(bytes, "image"))
    expect([image.format, image.width]).toEqual(["webp", 30])
    const error = await withIntake({ maxBytes: 10 }, (intake) => failureOf(intake.decode(bytes, "image")))
    expect(error).toMatchObject({ _tag: "ImageTooLarge", field: "image" })
  })

  it("refuses an image over the size limit as too large, from its base64 length", async () => {
    const bytes = await png(64, 48)
    const error = await withIntake({ maxBytes: bytes.length - 1 }, (intake) =>
      failureOf(intake.fromData(b64(bytes), "query.image"))
    )
    expect(error).toMatchObject({ _tag: "ImageTooLarge" })
    const exact = await withIntake({ maxBytes: bytes.length }, (intake) => intake.fromData(b64(bytes), "query.image"))
    expect(exact.format).toBe("png")
  })
})
