import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { hexToRgb } from "../../../src/model/ColorNames.js"
import { EmbeddedImageAnalyzer } from "../../../src/services/image-analyzer/EmbeddedImageAnalyzer.js"
import { AnalyzeError, type DetectedObject, ImageAnalyzer } from "../../../src/services/image-analyzer/ImageAnalyzer.js"
import { crop, filled, humanSamplePhoto, jpegRoundTrip, solid, syntheticPhoto } from "./images.js"

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0)

const RED = [200, 30, 30] as const
const WHITE = [255, 255, 255] as const

const expectWithinUnitSquare = (objects: ReadonlyArray<DetectedObject>) => {
  for (const { rectangle: r, score } of objects) {
    expect(score).toBeGreaterThanOrEqual(0.3)
    expect(score).toBeLessThanOrEqual(1)
    for (const v of [r.left, r.top, r.width, r.height]) expect(v).toBeGreaterThanOrEqual(0)
    expect(r.left + r.width).toBeLessThanOrEqual(1)
    expect(r.top + r.height).toBeLessThanOrEqual(1)
  }
}

// The production layer (IMAGE_THREADS unset: one thread, both real models), built once.
layer(EmbeddedImageAnalyzer.layer, { timeout: 60_000 })("ImageAnalyzer", (it) => {
  it.effect("names a plainly red image red, with a low adult score and a 1792-d unit embedding", () =>
    Effect.gen(function* () {
      const analyzer = yield* ImageAnalyzer
      const analysis = yield* analyzer.analyze(yield* Effect.promise(() => jpegRoundTrip(solid(640, 480, RED))))
      expect(analysis.colors).toHaveLength(1)
      expect(analysis.colors[0]).toMatchObject({ name: "red", share: 1 })
      hexToRgb(analysis.colors[0].hex)!.forEach((v, i) => expect(Math.abs(v - RED[i])).toBeLessThanOrEqual(12))
      expect(analysis.adult).toBeGreaterThanOrEqual(0)
      expect(analysis.adult).toBeLessThan(0.3)
      expect(analyzer.dimensions).toBe(1792)
      expect(analysis.embedding).toBeInstanceOf(Float32Array)
      expect(analysis.embedding).toHaveLength(1792)
      expect(Math.sqrt(dot(analysis.embedding, analysis.embedding))).toBeCloseTo(1, 5)
    })
  )

  it.effect("finds both halves of a half-blue, half-yellow image, each about half", () =>
    Effect.gen(function* () {
      const analyzer = yield* ImageAnalyzer
      const image = filled(600, 400, (x) => (x < 300 ? [40, 80, 200] : [245, 220, 40]))
      const { colors } = yield* analyzer.analyze(yield* Effect.promise(() => jpegRoundTrip(image)), { detect: false })
      expect(colors.map((c) => c.name).sort()).toEqual(["blue", "yellow"])
      for (const color of colors) expect(color.share).toBeCloseTo(0.5, 1)
    })
  )

  it.effect("leaves out the white studio background of a product shot", () =>
    Effect.gen(function* () {
      const analyzer = yield* ImageAnalyzer
      const product = filled(800, 800, (x, y) => (Math.abs(x - 400) < 200 && Math.abs(y - 400) < 200 ? RED : WHITE))
      const { colors } = yield* analyzer.analyze(yield* Effect.promise(() => jpegRoundTrip(product)), { detect: false })
      expect(colors[0].name).toBe("red")
      expect(colors[0].share).toBeGreaterThan(0.9)
      expect(colors.map((c) => c.name)).not.toContain("white")
    })
  )

  it.effect("embeds the same image identically, through analyze and embed", () =>
    Effect.gen(function* () {
      const analyzer = yield* ImageAnalyzer
      const photo = yield* Effect.promise(() => syntheticPhoto("landscape"))
      const first = yield* analyzer.embed(photo)
      const again = yield* analyzer.embed(photo)
      const analysed = yield* analyzer.analyze(photo, { detect: false })
      expect(Array.from(again)).toEqual(Array.from(first))
      expect(Array.from(analysed.embedding)).toEqual(Array.from(first))
      expect(Math.sqrt(dot(first, first))).toBeCloseTo(1, 5)
    })
  )

  it.effect("puts two crops of one photo closer to each other than to a different photo", () =>
    Effect.gen(function* () {
      const analyzer = yield* ImageAnalyzer
      const landscape = yield* Effect.promise(() => syntheticPhoto("landscape"))
      const [topLeft, bottomRight, interior] = yield* Effect.promise(() =>
        Promise.all([
          crop(landscape, { left: 0, top: 0, width: 640, height: 640 }),
          crop(landscape, { left: 160, top: 160, width: 640, height: 640 }),
          syntheticPhoto("interior", 2)
        ])
      )
      const [a, b, other] = yield* Effect.forEach([topLeft, bottomRight, interior], (image) => analyzer.embed(image))
      const sameScene = dot(a, b)
      expect(sameScene).toBeGreaterThan(dot(a, other) + 0.1)
      expect(sameScene).toBeGreaterThan(dot(b, other) + 0.1)
    })
  )

  it.effect("detects the people in a real photo, with rectangles inside the image", () =>
    Effect.gen(function* () {
      const analyzer = yield* ImageAnalyzer
      const photo = yield* Effect.promise(humanSamplePhoto)
      const objects = yield* analyzer.detect(photo)
      expect(objects.length).toBeGreaterThanOrEqual(1)
      expect(objects.length).toBeLessThanOrEqual(10)
      expectWithinUnitSquare(objects)
      // The full-figure avatar stands in the left third and spans most of the height.
      const avatar = objects.find((o) => o.class === "person" && o.rectangle.left < 0.33 && o.rectangle.height > 0.6)
      expect(avatar).toMatchObject({ classId: 0, class: "person" })
      const analysis = yield* analyzer.analyze(photo)
      expect(analysis.objects).toEqual(objects)
      expect(analysis.adult).toBeLessThan(0.3)
    })
  )

  it.effect("skips detection when asked; a geometric picture scores low as adult", () =>
    Effect.gen(function* () {
      const analyzer = yield* ImageAnalyzer
      const interior = yield* Effect.promise(() => syntheticPhoto("interior"))
      expect((yield* analyzer.analyze(interior, { detect: false })).objects).toEqual([])
      // CenterNet does see shapes in cartoons (a red house as a stop sign at ~0.35).
      const analysis = yield* analyzer.analyze(interior)
      expectWithinUnitSquare(analysis.objects)
      expect(analysis.adult).toBeLessThan(0.3)
    })
  )

  it.effect("rejects bytes that do not match the stated size", () =>
    Effect.gen(function* () {
      const analyzer = yield* ImageAnalyzer
      const error = yield* Effect.flip(analyzer.embed({ data: new Uint8Array(10), width: 2, height: 2 }))
      expect(error).toEqual(new AnalyzeError({ message: "expected 12 RGB bytes for 2×2, got 10" }))
      const empty = yield* Effect.flip(analyzer.analyze({ data: new Uint8Array(0), width: 0, height: 5 }))
      expect(empty.message).toBe("image size must be positive integers, got 0×5")
    })
  )
})
