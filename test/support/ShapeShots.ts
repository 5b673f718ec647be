import sharp from "sharp"
import { mulberry32 } from "../../bench/catalog/random.js"

/**
 * Products a photo tells apart: each a coloured shape (disc, box or triangle) with a stripe of
 * another colour. `studio(i)` is the catalog's photo, on white; `shelf(i)` a shopper's photo of
 * the same product, a little smaller and off-centre, on a beige shelf.
 */
export const shapeShots = (count: number, seed = 16) => {
  const random = mulberry32(seed)
  const colour = () =>
    `rgb(${Math.floor(random.next() * 255)},${Math.floor(random.next() * 255)},${Math.floor(random.next() * 255)})`
  const shapes = Array.from({ length: count }, (_, i) => ({
    kind: i % 3,
    fill: colour(),
    stripe: colour(),
    size: 0.35 + random.next() * 0.3
  }))
  const svgOf = (
    i: number,
    at: { readonly x: number; readonly y: number; readonly scale: number; readonly background: string }
  ) => {
    const s = shapes[i]
    const r = 200 * s.size * at.scale
    const body =
      s.kind === 0
        ? `<circle cx="${at.x}" cy="${at.y}" r="${r}" fill="${s.fill}"/>`
        : s.kind === 1
          ? `<rect x="${at.x - r}" y="${at.y - r * 0.7}" width="${2 * r}" height="${1.4 * r}" fill="${s.fill}"/>`
          : `<polygon points="${at.x},${at.y - r} ${at.x + r},${at.y + r} ${at.x - r},${at.y + r}" fill="${s.fill}"/>`
    const stripe =
      `<rect x="${at.x - r * 0.6}" y="${at.y - r * 0.12}" width="${r * 1.2}" ` +
      `height="${r * 0.24}" fill="${s.stripe}"/>`
    return Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" ` +
        `fill="${at.background}"/>${body}${stripe}</svg>`
    )
  }
  return {
    studio: (i: number) =>
      sharp(svgOf(i, { x: 200, y: 200, scale: 1, background: "#ffffff" }))
        .jpeg()
        .toBuffer(),
    shelf: (i: number) =>
      sharp(svgOf(i, { x: 190 + (i % 5) * 5, y: 210, scale: 0.9, background: "#ece8df" }))
        .jpeg()
        .toBuffer()
  }
}
