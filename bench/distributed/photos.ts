/**
 * Small distinct product photos for the image-indexing runs, made with sharp: a coloured
 * object (box or ellipse, with a detail) on a white or tinted studio background, 240–400 px,
 * JPEG quality 80 with a little grain, so every photo decodes and analyses like a real one.
 * Served by a loopback HTTP host, under a per-run prefix so each run's image ids are new.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import sharp from "sharp"
import { mulberry32 } from "../catalog/random.js"

const svg = (seed: number) => {
  const random = mulberry32(seed)
  const width = random.int(240, 400)
  const height = Math.round(width * (0.75 + random.next() * 0.5))
  const hue = (seed * 137) % 360
  const colour = (h: number) => `hsl(${h % 360},${random.int(45, 90)}%,${random.int(30, 65)}%)`
  const background = random.chance(0.7) ? "#ffffff" : `hsl(${(hue + 180) % 360},20%,90%)`
  const w = width * (0.35 + random.next() * 0.35)
  const h = height * (0.35 + random.next() * 0.35)
  const body = random.chance(0.5)
    ? `<rect x="${(width - w) / 2}" y="${(height - h) / 2}" width="${w}" height="${h}" ` +
      `rx="${random.int(0, 30)}" fill="${colour(hue)}"/>`
    : `<ellipse cx="${width / 2}" cy="${height / 2}" rx="${w / 2}" ry="${h / 2}" fill="${colour(hue)}"/>`
  const detail =
    `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(w, h) / 6}" ` +
    `fill="${colour(hue + random.int(60, 300))}"/>`
  return {
    width,
    height,
    text:
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect ` +
      `width="${width}" height="${height}" fill="${background}"/>${body}${detail}</svg>`
  }
}

/** `count` distinct JPEGs (hue, shape, size and background vary with the index). */
export const makePhotos = async (count: number, seed = 7): Promise<Array<Buffer>> => {
  const out: Array<Buffer> = []
  for (let i = 0; i < count; i++) {
    const { height, text, width } = svg(seed * 100_003 + i)
    const grain = await sharp({
      create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 6 } }
    })
      .png()
      .toBuffer()
    out.push(
      await sharp(Buffer.from(text))
        .composite([{ input: grain, blend: "overlay" }])
        .jpeg({ quality: 80 })
        .toBuffer()
    )
  }
  return out
}

export interface PhotoHost {
  /** The URL of photo `index` under `prefix` (any prefix serves the same bytes). */
  readonly url: (prefix: string, index: number) => string
  /** Photo requests answered. */
  readonly served: () => number
  readonly close: () => Promise<void>
}

/** Serves /<prefix>/<index>.jpg on 127.0.0.1 (the workers must be allowed 127.0.0.0/8). */
export const startPhotoHost = async (photos: ReadonlyArray<Buffer>): Promise<PhotoHost> => {
  let served = 0
  const server = http.createServer((req, res) => {
    const match = /^\/[\w-]+\/(\d+)\.jpg$/.exec(req.url ?? "")
    const photo = match ? photos[Number(match[1])] : undefined
    if (!photo) return res.writeHead(404).end()
    served++
    res.writeHead(200, { "content-type": "image/jpeg", "content-length": photo.length }).end(photo)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: (prefix, index) => `${base}/${prefix}/${index % photos.length}.jpg`,
    served: () => served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
