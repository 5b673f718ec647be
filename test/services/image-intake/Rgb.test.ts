import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import sharp from "sharp"
import { pixelArea, toRgb } from "../../../src/services/image-intake/Rgb.js"
import { halfRedHalfBlue, png } from "./images.js"
import { withIntake } from "./support.js"

const decoded = (bytes: Uint8Array) => withIntake({}, (intake) => intake.decode(bytes, "image"))

/** Mean of each channel. */
const meanColour = ({ data }: { data: Uint8Array }) => {
  const sums = [0, 0, 0]
  for (let i = 0; i < data.length; i++) sums[i % 3] += data[i]
  return sums.map((sum) => Math.round(sum / (data.length / 3)))
}

describe("toRgb", () => {
  it("returns size × size × 3 bytes for the models", async () => {
    const image = await decoded(await png(300, 200))
    for (const fit of ["cover", "contain", "fill"] as const) {
      const rgb = await Effect.runPromise(toRgb(image, { size: 224, fit }))
      expect([rgb.width, rgb.height, rgb.data.length], fit).toEqual([224, 224, 224 * 224 * 3])
    }
  })

  it("crops a relative area: the left half of a half-red, half-blue image is red", async () => {
    const image = await decoded(await halfRedHalfBlue(100, 60))
    const left = await Effect.runPromise(toRgb(image, { crop: { left: 0, top: 0, width: 0.5, height: 1 } }))
    expect([left.width, left.height]).toEqual([50, 60])
    expect(meanColour(left)).toEqual([255, 0, 0])
    const right = await Effect.runPromise(
      toRgb(image, { size: 32, crop: { left: 0.5, top: 0, width: 0.5, height: 1 } })
    )
    expect(meanColour(right)).toEqual([0, 0, 255])
  })

  it("crops what the user saw: after the EXIF orientation", async () => {
    // Stored left red / right blue, rotated 90° clockwise for display: top red, bottom blue.
    const image = await decoded(await halfRedHalfBlue(40, 20, 6))
    const top = await Effect.runPromise(toRgb(image, { crop: { left: 0, top: 0, width: 1, height: 0.4 } }))
    expect([top.width, top.height]).toEqual([20, 16])
    const [r, g, b] = meanColour(top)
    expect(r).toBeGreaterThan(200)
    expect(Math.max(g, b)).toBeLessThan(50)
  })

  it("gives three channels for grey and transparent images, transparency on white", async () => {
    const grey = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#808080" } })
      .greyscale()
      .png()
      .toBuffer()
    const clear = await sharp({
      create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } }
    })
      .png()
      .toBuffer()
    const greyRgb = await Effect.runPromise(toRgb(await decoded(grey)))
    expect(greyRgb.data.length).toBe(8 * 8 * 3)
    expect(meanColour(await Effect.runPromise(toRgb(await decoded(clear))))).toEqual([255, 255, 255])
  })

  it("rounds a crop to pixels and keeps it inside the image, never empty", () => {
    expect(pixelArea({ left: 0.25, top: 0.1, width: 0.5, height: 0.5 }, 101, 10)).toEqual({
      left: 25,
      top: 1,
      width: 51,
      height: 5
    })
    expect(pixelArea({ left: -0.2, top: 0.9, width: 2, height: 0.5 }, 100, 100)).toEqual({
      left: 0,
      top: 90,
      width: 100,
      height: 10
    })
    expect(pixelArea({ left: 1, top: 1, width: 0, height: 0 }, 100, 100)).toEqual({
      left: 99,
      top: 99,
      width: 1,
      height: 1
    })
  })
})
