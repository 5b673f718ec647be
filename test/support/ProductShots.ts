import sharp from "sharp"
import { type LoopbackHost, startLoopbackHost } from "./LoopbackHost.js"

/** A plain square JPEG of one colour. */
export const solid = (r: number, g: number, b: number, size = 256) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer()

/** A product shot: a coloured square on a white studio background. */
export const productShot = async (r: number, g: number, b: number) =>
  sharp({ create: { width: 400, height: 400, channels: 3, background: "#ffffff" } })
    .composite([{ input: await solid(r, g, b, 240), left: 80, top: 80 }])
    .jpeg()
    .toBuffer()

/** Product shots in three plainly different colours, and the same keyed by path for a photo host. */
export const colourShots = async () => {
  const [red, blue, green] = await Promise.all([
    productShot(210, 20, 20),
    productShot(30, 60, 210),
    productShot(30, 160, 60)
  ])
  return {
    red,
    blue,
    green,
    files: new Map([
      ["/red.jpg", red],
      ["/blue.jpg", blue],
      ["/green.jpg", green]
    ])
  }
}

/** A loopback host serving `files` (path → JPEG bytes); 404 for anything else. */
export const startPhotoHost = (files: ReadonlyMap<string, Buffer>): Promise<LoopbackHost> =>
  startLoopbackHost(
    Object.fromEntries(
      [...files].map(([path, body]) => [
        path,
        (_req, res) => {
          res.writeHead(200, { "content-type": "image/jpeg" }).end(body)
        }
      ])
    )
  )
