/**
 * ImageAnalyzer throughput per catalog pass, query latency and model start-up, on 100
 * synthetic 800×800 photos (gradients, shapes, grain) encoded as JPEG and decoded with sharp,
 * as intake does.
 *
 *   npx tsx bench/image-analyzer.ts
 */
import { Effect, Fiber } from "effect"
import sharp from "sharp"
import { makeImageAnalyzer } from "../src/services/image-analyzer/EmbeddedImageAnalyzer.js"
import type { AnalyzeError, RgbImage } from "../src/services/image-analyzer/ImageAnalyzer.js"

const SIZE = 800
const COUNT = 100

const random = (seed: number) => {
  let state = seed >>> 0
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
}

const hue = (next: () => number) =>
  `hsl(${Math.floor(next() * 360)},${40 + Math.floor(next() * 50)}%,${25 + Math.floor(next() * 50)}%)`

/** A scene of its own per seed: a gradient backdrop and a dozen shapes, JPEG at quality 85. */
const syntheticJpeg = async (seed: number) => {
  const next = random(seed)
  const shapes = Array.from({ length: 12 }, () =>
    next() < 0.5
      ? `<circle cx="${next() * SIZE}" cy="${next() * SIZE}" r="${20 + next() * 150}" fill="${hue(next)}"/>`
      : `<rect x="${next() * SIZE}" y="${next() * SIZE}" width="${30 + next() * 300}" ` +
        `height="${30 + next() * 300}" fill="${hue(next)}"/>`
  )
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="${next()}" y2="1">` +
    `<stop offset="0" stop-color="${hue(next)}"/><stop offset="1" stop-color="${hue(next)}"/></linearGradient></defs>
    <rect width="${SIZE}" height="${SIZE}" fill="url(#g)"/>${shapes.join("")}</svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer()
}

const decode = async (jpeg: Buffer): Promise<RgbImage> => {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]
const ms = (value: number) => `${value.toFixed(0)} ms`

const timed = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const start = performance.now()
    yield* effect
    return performance.now() - start
  })

const report = (label: string, times: Array<number>) => {
  times.sort((a, b) => a - b)
  console.log(
    `  ${label.padEnd(44)} p50 ${ms(percentile(times, 0.5))}  p95 ${ms(percentile(times, 0.95))}  (${times.length})`
  )
}

const startUp = (label: string, threads: number) =>
  Effect.gen(function* () {
    const start = performance.now()
    const analyzer = yield* makeImageAnalyzer({ threads })
    const { modelLoadMs } = yield* analyzer.stats
    console.log(
      `  ${label}: ready in ${ms(performance.now() - start)} ` +
        `(features ${ms(modelLoadMs!.features)}, detector ${ms(modelLoadMs!.detector)}, with warm-up ` +
        `${ms(modelLoadMs!.total)})`
    )
    return analyzer
  })

/** The catalog's two passes (ProductImages), and both in one call as attribute prediction runs them. */
const throughput = (threads: number, images: ReadonlyArray<RgbImage>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const analyzer = yield* makeImageAnalyzer({ threads })
      const passes: ReadonlyArray<readonly [string, (image: RgbImage) => Effect.Effect<unknown, AnalyzeError>]> = [
        ["first pass: features, adult, colours", (image) => analyzer.analyze(image, { detect: false })],
        ["detection pass: objects", (image) => analyzer.detect(image, { priority: "background" })],
        ["both in one call", (image) => analyzer.analyze(image, { detect: true })]
      ]
      for (const [label, pass] of passes) {
        const elapsed = yield* timed(Effect.forEach(images, pass, { concurrency: "unbounded" }))
        const perSecond = images.length / (elapsed / 1_000)
        console.log(
          `  ${threads} thread(s), ${label.padEnd(38)} ${perSecond.toFixed(1)} images/s ` +
            `(${(perSecond / threads).toFixed(1)} per thread)`
        )
      }
    })
  )

const main = Effect.gen(function* () {
  const jpegs = yield* Effect.promise(() => Promise.all(Array.from({ length: COUNT }, (_, i) => syntheticJpeg(i + 1))))
  const decodeTimes: Array<number> = []
  const images: Array<RgbImage> = []
  for (const jpeg of jpegs) {
    const start = performance.now()
    images.push(yield* Effect.promise(() => decode(jpeg)))
    decodeTimes.push(performance.now() - start)
  }
  console.log(
    `${COUNT} synthetic ${SIZE}×${SIZE} JPEGs, ` +
      `${(jpegs.reduce((n, j) => n + j.length, 0) / COUNT / 1024).toFixed(0)} KB average`
  )
  report("sharp decode to RGB", decodeTimes)

  console.log("Model start-up (one thread; no disk cache, see image-model-thread.cjs):")
  yield* Effect.scoped(startUp("first start in this process", 1))

  yield* Effect.scoped(
    Effect.gen(function* () {
      const analyzer = yield* startUp("second start", 1)
      console.log("Visual-search query (one thread):")
      report("embed, idle", yield* Effect.forEach(images.slice(0, 50), (image) => timed(analyzer.embed(image))))
      report(
        "decode + embed, idle",
        yield* Effect.forEach(jpegs.slice(50), (jpeg) =>
          timed(
            Effect.flatMap(
              Effect.promise(() => decode(jpeg)),
              (image) => analyzer.embed(image)
            )
          )
        )
      )
      // The catalog's load: both passes of every image, as ProductImages queues them.
      const indexing = yield* Effect.fork(
        Effect.forEach(
          images,
          (image) =>
            Effect.zip(analyzer.analyze(image, { detect: false }), analyzer.detect(image, { priority: "background" }), {
              concurrent: true
            }),
          { concurrency: "unbounded" }
        )
      )
      yield* Effect.sleep("300 millis")
      const query = (jpeg: Buffer) =>
        timed(
          Effect.flatMap(
            Effect.promise(() => decode(jpeg)),
            (image) => analyzer.embed(image)
          )
        )
      // Back to back, each query lands just as the next catalog call starts: the worst case.
      report("decode + embed, catalog load, back to back", yield* Effect.forEach(jpegs.slice(0, 20), query))
      // Shoppers arrive independently of the catalog's calls: seeded gaps of 0-300 ms.
      const gap = random(7)
      report(
        "decode + embed, catalog load, spaced",
        yield* Effect.forEach(jpegs.slice(20, 40), (jpeg) =>
          Effect.zipRight(Effect.sleep(`${Math.floor(gap() * 300)} millis`), query(jpeg))
        )
      )
      yield* Fiber.interrupt(indexing)
    })
  )

  console.log("Catalog throughput (all images queued at once):")
  yield* throughput(1, images)
  yield* throughput(2, images)
})

Effect.runPromise(main).catch((error) => {
  console.error(error)
  process.exit(1)
})
