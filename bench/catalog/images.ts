/**
 * Real encoded images for the vision benchmarks, made with sharp: seeded scenes (a gradient
 * backdrop with a dozen shapes, or a product on a white studio background) in varied sizes,
 * as JPEG or PNG, and a loopback HTTP host that serves them to the image intake.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import sharp from "sharp"
import type { Random } from "./random.js"

export interface EncodedImage {
  readonly bytes: Buffer
  readonly format: "jpeg" | "png"
  readonly width: number
  readonly height: number
}

const hue = (random: Random) => `hsl(${random.int(0, 359)},${random.int(40, 90)}%,${random.int(25, 75)}%)`

const shape = (random: Random, width: number, height: number) =>
  random.chance(0.5)
    ? `<circle cx="${random.next() * width}" cy="${random.next() * height}" ` +
      `r="${20 + (random.next() * width) / 5}" fill="${hue(random)}"/>`
    : `<rect x="${random.next() * width}" y="${random.next() * height}" ` +
      `width="${30 + (random.next() * width) / 2.5}" height="${30 + (random.next() * height) / 2.5}" ` +
      `fill="${hue(random)}"/>`

/** A busy scene: what a shopper's photo of a shelf or a room looks like to the models' cost. */
const sceneSvg = (random: Random, width: number, height: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="${random.next()}" y2="1">` +
  `<stop offset="0" stop-color="${hue(random)}"/><stop offset="1" stop-color="${hue(random)}"/></linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#g)"/>` +
  `${Array.from({ length: 12 }, () => shape(random, width, height)).join("")}</svg>`

/** A catalog-style shot: one or two coloured shapes centred on white. */
const productSvg = (random: Random, width: number, height: number) => {
  const w = width * (0.4 + random.next() * 0.3)
  const h = height * (0.4 + random.next() * 0.3)
  const body = random.chance(0.5)
    ? `<rect x="${(width - w) / 2}" y="${(height - h) / 2}" width="${w}" height="${h}" ` +
      `rx="${random.int(0, 40)}" fill="${hue(random)}"/>`
    : `<ellipse cx="${width / 2}" cy="${height / 2}" rx="${w / 2}" ry="${h / 2}" fill="${hue(random)}"/>`
  const detail =
    `<rect x="${width / 2 - w / 6}" y="${height / 2 - h / 6}" width="${w / 3}" ` +
    `height="${h / 3}" fill="${hue(random)}"/>`
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect ` +
    `width="${width}" height="${height}" fill="#ffffff"/>${body}${detail}</svg>`
  )
}

/**
 * One image: a scene or a product shot in a 3:4–4:3 aspect, as a JPEG (quality 70–92) of
 * 400–1,600 px on its longer side or, one time in four, a PNG (a screenshot) of 300–800 px.
 * Grain is added so that encoded sizes are those of photos, not of flat drawings.
 */
export const syntheticImage = async (random: Random): Promise<EncodedImage> => {
  const format = random.chance(0.25) ? "png" : "jpeg"
  const long = format === "png" ? random.int(300, 800) : random.int(400, 1600)
  const ratio = 0.75 + random.next() * 0.58
  const [width, height] = ratio >= 1 ? [long, Math.round(long / ratio)] : [Math.round(long * ratio), long]
  const svg = random.chance(0.5) ? sceneSvg(random, width, height) : productSvg(random, width, height)
  const noise = sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 8 } }
  })
  const grain = await noise.png().toBuffer()
  const base = sharp(Buffer.from(svg)).composite([{ input: grain, blend: "overlay" }])
  const bytes =
    format === "png" ? await base.png().toBuffer() : await base.jpeg({ quality: random.int(70, 92) }).toBuffer()
  return { bytes, format, width, height }
}

export const syntheticImages = async (random: Random, count: number): Promise<Array<EncodedImage>> => {
  const out: Array<EncodedImage> = []
  for (let i = 0; i < count; i++) out.push(await syntheticImage(random.fork(i)))
  return out
}

export interface ImageHost {
  readonly url: (name: string) => string
  /** Requests answered, per name. */
  readonly served: Map<string, number>
  readonly close: () => Promise<void>
}

/** Serves `images` by name over HTTP on 127.0.0.1 (the intake must be allowed that range). */
export const startImageHost = async (images: ReadonlyMap<string, EncodedImage>): Promise<ImageHost> => {
  const served = new Map<string, number>()
  const server = http.createServer((req, res) => {
    const name = (req.url ?? "").slice(1)
    const image = images.get(name)
    if (!image) return res.writeHead(404).end()
    served.set(name, (served.get(name) ?? 0) + 1)
    res
      .writeHead(200, { "content-type": `image/${image.format}`, "content-length": image.bytes.length })
      .end(image.bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: (name) => `${base}/${name}`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
