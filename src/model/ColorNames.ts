/**
 * A small palette of colour names shoppers use, with a representative RGB each. Hex colours
 * (the deprecated `color` parameter, dominant image colours) are named by their nearest entry.
 */
const palette: ReadonlyArray<readonly [string, number, number, number]> = [
  ["black", 20, 20, 20],
  ["white", 245, 245, 245],
  ["grey", 128, 128, 128],
  ["silver", 192, 192, 192],
  ["red", 200, 30, 30],
  ["dark red", 120, 20, 30],
  ["pink", 240, 150, 180],
  ["orange", 245, 140, 30],
  ["yellow", 245, 220, 40],
  ["beige", 220, 200, 160],
  ["brown", 120, 75, 40],
  ["gold", 200, 160, 50],
  ["green", 40, 150, 60],
  ["olive", 110, 120, 40],
  ["light green", 150, 210, 120],
  ["turquoise", 40, 190, 190],
  ["blue", 40, 80, 200],
  ["navy", 20, 30, 90],
  ["light blue", 140, 190, 235],
  ["purple", 120, 50, 150]
]

export const hexToRgb = (hex: string): readonly [number, number, number] | null => {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim())
  if (!m) return null
  const n = parseInt(m[1], 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

/** The palette name nearest to an RGB colour (Euclidean distance weighted for perceived brightness). */
export const nearestColorName = (r: number, g: number, b: number): string => {
  let best = palette[0][0]
  let bestDistance = Infinity
  for (const [name, pr, pg, pb] of palette) {
    const d = 2 * (r - pr) ** 2 + 4 * (g - pg) ** 2 + 3 * (b - pb) ** 2
    if (d < bestDistance) {
      bestDistance = d
      best = name
    }
  }
  return best
}

export const colorNameOfHex = (hex: string): string | null => {
  const rgb = hexToRgb(hex)
  return rgb ? nearestColorName(...rgb) : null
}
