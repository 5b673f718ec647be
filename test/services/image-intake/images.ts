import sharp from "sharp"
import { crc32 } from "node:zlib"

/** Real encoded images, made with sharp, for the intake tests. */
const solid = (width: number, height: number, colour = "#c04020") =>
  sharp({ create: { width, height, channels: 3, background: colour } })

export const jpeg = (width = 64, height = 48) => solid(width, height).jpeg().toBuffer()
export const png = (width = 64, height = 48) => solid(width, height).png().toBuffer()
export const webp = (width = 64, height = 48) => solid(width, height).webp().toBuffer()
export const gif = (width = 64, height = 48) => solid(width, height).gif().toBuffer()

/** Two 20×10 frames, red then blue. */
export const animatedGif = async () =>
  sharp([await solid(20, 10, "#ff0000").png().toBuffer(), await solid(20, 10, "#0000ff").png().toBuffer()], {
    join: { animated: true }
  })
    .gif()
    .toBuffer()

/** Left half red, right half blue; `orientation` is written to EXIF. */
export const halfRedHalfBlue = async (width: number, height: number, orientation?: number) => {
  const half = Math.round(width / 2)
  const image = sharp({ create: { width, height, channels: 3, background: "#ff0000" } }).composite([
    { input: { create: { width: width - half, height, channels: 3, background: "#0000ff" } }, left: half, top: 0 }
  ])
  return orientation === undefined ? image.png().toBuffer() : image.jpeg().withMetadata({ orientation }).toBuffer()
}

/**
 * A genuine PNG whose header declares a `width`×`height` canvas: the attacker's shape of a
 * decompression bomb (a tiny file, a huge allocation). Its pixel data is that of a 1×1 image,
 * so only the header check stands between it and libvips.
 */
export const pngDeclaring = async (width: number, height: number) => {
  const bytes = Buffer.from(await solid(1, 1).png().toBuffer())
  // IHDR: length (4) "IHDR" (4) width (4) height (4) ... CRC over type and data, at byte 29.
  bytes.writeUInt32BE(width, 16)
  bytes.writeUInt32BE(height, 20)
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29)
  return bytes
}
