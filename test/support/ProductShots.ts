import * as http from "node:http"
import type { AddressInfo } from "node:net"
import sharp from "sharp"

/** A plain square JPEG of one colour. */
export const solid = (r: number, g: number, b: number, size = 256) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } }).jpeg().toBuffer()

/** A product shot: a coloured square on a white studio background. */
export const productShot = async (r: number, g: number, b: number) =>
  sharp({ create: { width: 400, height: 400, channels: 3, background: "#ffffff" } })
    .composite([{ input: await solid(r, g, b, 240), left: 80, top: 80 }])
    .jpeg()
    .toBuffer()

export interface PhotoHost {
  /** http://127.0.0.1:<port>, to prefix the file paths with. */
  readonly base: string
  readonly close: () => void
}

/** A real HTTP server on loopback serving `files` (path → JPEG bytes); 404 for anything else. */
export const startPhotoHost = async (files: ReadonlyMap<string, Buffer>): Promise<PhotoHost> => {
  const server = http.createServer((req, res) => {
    const body = files.get(req.url ?? "")
    if (!body) return res.writeHead(404).end()
    res.writeHead(200, { "content-type": "image/jpeg" }).end(body)
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}
