import { describe, expect, it } from "vitest"
import { SIGNATURE_BINS, signatureOfPixels, signatureVector } from "../../src/visual-space/ColorSignature.js"
import { COLOR_WEIGHT, learnedProjection } from "../../src/visual-space/SiteVisualSpaces.js"
import { project, type VisualSpace } from "../../src/visual-space/VisualSpace.js"

const solid = (r: number, g: number, b: number, pixels = 64) =>
  Uint8Array.from({ length: 3 * pixels }, (_, i) => [r, g, b][i % 3])
const halves = (a: Uint8Array, b: Uint8Array) => Uint8Array.from([...a, ...b])
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0)

describe("colour signature", () => {
  it("is the root shares of an RGB and an HSV histogram, a byte a bin", () => {
    const red = signatureOfPixels(solid(230, 10, 10))
    expect(red.length).toBe(SIGNATURE_BINS)
    // One RGB bin (7, 0, 0) and one HSV bin (hue 0, saturated, bright) hold every pixel.
    expect(red[(7 << 6) | 0]).toBe(255)
    expect(red[512 + ((0 << 6) | (7 << 3) | 7)]).toBe(255)
    expect(red.reduce((n, x) => n + (x > 0 ? 1 : 0), 0)).toBe(2)
    // Half red, half blue: √½ of the way in each of four bins.
    const mixed = signatureOfPixels(halves(solid(230, 10, 10), solid(10, 10, 230)))
    expect([...mixed].filter((x) => x > 0)).toEqual([180, 180, 180, 180])
  })

  it("leaves a white background out, unless the photo is almost all white", () => {
    const red = signatureOfPixels(solid(230, 10, 10))
    expect(signatureOfPixels(halves(solid(250, 250, 250, 900), solid(230, 10, 10, 100)))).toEqual(red)
    const white = signatureOfPixels(solid(250, 250, 250))
    expect(white[(7 << 6) | (7 << 3) | 7]).toBe(255)
    // Fewer than 1 % coloured pixels: a white product, counted whole.
    expect(
      signatureOfPixels(halves(solid(250, 250, 250, 995), solid(230, 10, 10, 5)))[(7 << 6) | (7 << 3) | 7]
    ).toBeGreaterThan(250)
  })

  it("as a vector: unit length, its dot product the mean Bhattacharyya coefficient of the two histograms", () => {
    const red = signatureVector(signatureOfPixels(solid(230, 10, 10)))
    const blue = signatureVector(signatureOfPixels(solid(10, 10, 230)))
    const mixed = signatureVector(signatureOfPixels(halves(solid(230, 10, 10), solid(10, 10, 230))))
    expect(dot(red, red)).toBeCloseTo(1, 6)
    expect(dot(red, blue)).toBe(0)
    expect(dot(red, mixed)).toBeCloseTo(Math.SQRT1_2, 2)
  })

  it("joins the learned features in one cosine: (learned cosine + weight × colour similarity) / (1 + weight)", () => {
    const d = 1_792
    const projection = new Float32Array(3 * d)
    for (let r = 0; r < 3; r++) projection[r * d + r] = 1
    const space: VisualSpace = { inputDims: d, outputDims: 3, mean: new Float64Array(d), projection }
    const feature = (a: number, b: number, c: number) => {
      const v = new Float32Array(d)
      v.set([a, b, c])
      return v
    }
    const into = learnedProjection(space)
    const red = signatureOfPixels(solid(230, 10, 10))
    const mixed = signatureOfPixels(halves(solid(230, 10, 10), solid(10, 10, 230)))
    const x = into(feature(1, 2, 0), red)
    const y = into(feature(2, 1, 1), mixed)
    expect(x.length).toBe(d)
    expect(dot(x, x)).toBeCloseTo(1, 5)
    const learned = dot(project(space, feature(1, 2, 0)), project(space, feature(2, 1, 1)))
    const colours = dot(signatureVector(red), signatureVector(mixed))
    expect(dot(x, y)).toBeCloseTo((learned + COLOR_WEIGHT * colours) / (1 + COLOR_WEIGHT), 5)
    // Without a signature, the learned part alone; nothing beyond the two parts.
    expect(dot(into(feature(1, 2, 0)), into(feature(1, 2, 0)))).toBeCloseTo(1, 5)
    expect(x.subarray(3 + SIGNATURE_BINS).every((v) => v === 0)).toBe(true)
  })
})
