import { describe, expect, it } from "vitest"
import { mulberry32 } from "../../bench/catalog/random.js"
import { fitVisualSpace, project } from "../../src/visual-space/VisualSpace.js"

/**
 * Ten products whose photos differ a little in the three dimensions that tell them apart and a
 * lot in seventeen that do not (light, background): raw cosine confuses them, the learned space
 * does not.
 */
const D = 20
const random = mulberry32(11)
const gaussian = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next())
const centres = Array.from({ length: 10 }, () =>
  Float32Array.from({ length: D }, (_, i) => (i < 3 ? gaussian() : 0) + 5)
)
const photo = (product: number) => Float32Array.from(centres[product], (c, i) => c + (i < 3 ? 0.15 : 2) * gaussian())
const unit = (v: Float32Array) => {
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0)

const gallery = Array.from({ length: 10 }, (_, p) =>
  Array.from({ length: 30 }, () => ({ label: `p${p}`, vector: photo(p) }))
).flat()
const queries = Array.from({ length: 200 }, (_, i) => ({ product: i % 10, vector: photo(i % 10) }))

const accuracy = (embed: (v: Float32Array) => Float32Array) => {
  const stored = gallery.map((g) => ({ label: g.label, vector: embed(g.vector) }))
  let right = 0
  for (const q of queries) {
    const v = embed(q.vector)
    const best = stored.reduce((a, b) => (dot(v, b.vector) > dot(v, a.vector) ? b : a))
    if (best.label === `p${q.product}`) right++
  }
  return right / queries.length
}

describe("visual space", () => {
  it("tells products apart that raw cosine confuses", async () => {
    const space = await fitVisualSpace(gallery)
    const raw = accuracy(unit)
    const learned = accuracy((v) => project(space, v))
    // Measured 0.23 and 0.76 on this seed.
    expect(raw).toBeLessThan(0.4)
    expect(learned).toBeGreaterThan(0.7)
    // At most classes − 1 directions; unit-length outputs.
    expect(space.outputDims).toBeLessThanOrEqual(9)
    expect(Math.hypot(...project(space, gallery[0].vector))).toBeCloseTo(1, 6)
  })

  it("is the same space for the same samples, and copes with one photo per product", async () => {
    const a = await fitVisualSpace(gallery)
    const b = await fitVisualSpace([...gallery])
    expect(Array.from(a.projection)).toEqual(Array.from(b.projection))
    const single = await fitVisualSpace(centres.map((c, p) => ({ label: `p${p}`, vector: c })))
    expect(single.outputDims).toBeGreaterThan(0)
    expect(project(single, centres[0]).every(Number.isFinite)).toBe(true)
  })
})
