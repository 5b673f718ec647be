import { createRequire } from "node:module"
import * as path from "node:path"
import sharp from "sharp"
import type { RgbImage } from "../../../src/services/image-analyzer/ImageAnalyzer.js"

/**
 * Test pictures. Everything photo-like goes through a JPEG round trip with sharp, so the
 * analyser sees compression noise and soft edges as it will with real catalog images.
 */
type Rgb = readonly [number, number, number]

export const filled = (width: number, height: number, colorAt: (x: number, y: number) => Rgb): RgbImage => {
  const data = new Uint8Array(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(colorAt(x, y), (y * width + x) * 3)
  }
  return { data, width, height }
}

export const solid = (width: number, height: number, color: Rgb) => filled(width, height, () => color)

const decode = async (pipeline: sharp.Sharp): Promise<RgbImage> => {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data: new Uint8Array(data), width: info.width, height: info.height }
}

export const jpegRoundTrip = async (image: RgbImage, quality = 85) =>
  decode(
    sharp(
      await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
        .jpeg({ quality })
        .toBuffer()
    )
  )

export const crop = (image: RgbImage, area: { left: number; top: number; width: number; height: number }) =>
  decode(sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } }).extract(area))

/** Deterministic noise (a linear congruential generator), so every run sees the same pixels. */
const noise = (seed: number) => {
  let state = seed >>> 0
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5
}

/** Sensor-like grain added to a rendered scene. */
const grainy = (image: RgbImage, seed: number, amplitude = 24): RgbImage => {
  const next = noise(seed)
  return { ...image, data: image.data.map((v) => Math.max(0, Math.min(255, v + next() * amplitude))) }
}

/** Two distinct synthetic scenes: gradients, shapes and grain, 800×800 like a catalog photo. */
const scenes = {
  landscape:
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0" stop-color="#2a6fd6"/><stop offset="1" stop-color="#e8f2ff"/></linearGradient></defs>
    <rect width="800" height="800" fill="url(#sky)"/>
    <circle cx="620" cy="160" r="90" fill="#ffd23a"/>
    <ellipse cx="300" cy="820" rx="700" ry="330" fill="#2f8f3a"/>
    <rect x="180" y="420" width="220" height="170" fill="#b8322a"/>
    <polygon points="160,420 290,310 420,420" fill="#5a2a1a"/>
    <rect x="250" y="500" width="60" height="90" fill="#3b2412"/>
  </svg>`,
  interior:
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">
    <defs><radialGradient id="lamp" cx="0.3" cy="0.3" r="0.9">` +
    `<stop offset="0" stop-color="#ffb347"/><stop offset="1" stop-color="#3a1850"/></radialGradient></defs>
    <rect width="800" height="800" fill="url(#lamp)"/>
    ${Array.from({ length: 8 }, (_, i) => `<rect x="${i * 100}" y="520" width="50" height="280" fill="#9a9a9a"/>`).join(
      ""
    )}
    ${Array.from(
      { length: 6 },
      (_, i) => `<circle cx="${120 + i * 110}" cy="${200 + (i % 2) * 120}" r="40" fill="#1fb5a8"/>`
    ).join("")}
  </svg>`
}

export const syntheticPhoto = async (scene: keyof typeof scenes, seed = 1) =>
  jpegRoundTrip(grainy(await decode(sharp(Buffer.from(scenes[scene]))), seed))

const humanDir = path.resolve(path.dirname(createRequire(import.meta.url).resolve("@vladmandic/human")), "..")

/** A screenshot shipped with Human: a rendered full-figure avatar (left) and a webcam inset of a man (top right). */
export const humanSamplePhoto = () => decode(sharp(path.join(humanDir, "assets/screenshot-vrm.jpg")))
