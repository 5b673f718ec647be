import { describe, expect, it } from "@effect/vitest"
import { dominantColors } from "../../../src/services/image-analyzer/DominantColors.js"
import { filled } from "./images.js"

const RED = [200, 30, 30] as const
const WHITE = [250, 250, 250] as const
const inBox = (x: number, y: number, from: number, to: number) => x >= from && x < to && y >= from && y < to

describe("dominantColors", () => {
  it("keeps white inside the product (a logo) while dropping the white around it", () => {
    // Red square (rows/cols 12-52) with a white patch (24-40) in its middle, on white.
    const swatch = filled(64, 64, (x, y) => (inBox(x, y, 24, 40) ? WHITE : inBox(x, y, 12, 52) ? RED : WHITE))
    expect(dominantColors(swatch)).toEqual([
      { name: "red", hex: "#c81e1e", share: 0.84 },
      { name: "white", hex: "#fafafa", share: 0.16 }
    ])
  })

  it("calls a white product on white white, rather than finding no colour", () => {
    const swatch = filled(64, 64, (x, y) => (inBox(x, y, 30, 33) ? RED : WHITE))
    expect(dominantColors(swatch).map((c) => c.name)).toEqual(["white"])
  })

  it("keeps a white area that touches only one edge: it is part of the picture, not a backdrop", () => {
    const swatch = filled(64, 64, (x) => (x < 20 ? WHITE : [40, 80, 200]))
    expect(dominantColors(swatch).map((c) => [c.name, c.share])).toEqual([
      ["blue", 0.688],
      ["white", 0.313]
    ])
  })

  it("merges shades that share a name and drops colours under a tenth, at most three", () => {
    const stripes = [
      [200, 30, 30],
      [215, 40, 35],
      [40, 150, 60],
      [40, 80, 200],
      [245, 220, 40],
      [120, 50, 150]
    ] as const
    // Two reds (16 columns each), then 8 columns of each other colour.
    const swatch = filled(64, 64, (x) => stripes[x < 32 ? x >> 4 : 2 + ((x - 32) >> 3)])
    const colors = dominantColors(swatch)
    expect(colors[0]).toMatchObject({ name: "red", share: 0.5 })
    expect(colors).toHaveLength(3)
    for (const color of colors) expect(color.share).toBeGreaterThanOrEqual(0.1)
  })
})
