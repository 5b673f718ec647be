import { describe, expect, it } from "vitest"
import { bucketCounts, intervalsOf } from "../../../src/services/catalog-index/ColumnValues.js"
import { edgeCandidates, intervalsFromCounts } from "../../../src/services/catalog-index/IntervalEdges.js"

/** 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 7.5 times a power of ten, or 0, as a label would print it. */
const nice = (x: number): boolean => {
  if (x === 0) return true
  const magnitude = Math.abs(x)
  const power = 10 ** Math.floor(Math.log10(magnitude))
  const leading = Number((magnitude / power).toPrecision(6))
  return [1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5, 10].includes(leading) && String(x).length <= 8
}

/** Intervals that hold every number once, at ascending nice edges, with no empty one. */
const expectWellFormed = (numbers: ReadonlyArray<number>, buckets = 5) => {
  const found = intervalsOf(numbers, buckets)!
  const { edges, counts } = found
  expect(edges.every(nice), `edges ${edges}`).toBe(true)
  expect(edges.every((e, i) => i === 0 || e > edges[i - 1])).toBe(true)
  expect(edges[0]).toBeLessThanOrEqual(Math.min(...numbers))
  expect(edges.at(-1)).toBeGreaterThan(Math.max(...numbers))
  expect(counts).toHaveLength(edges.length - 1)
  expect(counts).toEqual(bucketCounts(numbers, edges))
  expect(counts.every((n) => n > 0)).toBe(true)
  expect(counts.length).toBeLessThanOrEqual(buckets)
  return found
}

const range = (count: number, from: number, to: number) =>
  Array.from({ length: count }, (_, i) => from + Math.round(((to - from) * i) / (count - 1)))

describe("price facet intervals", () => {
  it("follow a skewed set: most products at 15–90 get most buckets, the few at 250–400 one", () => {
    const prices = [...range(40, 15, 90), ...range(5, 250, 400)]
    const { edges, counts } = expectWellFormed(prices)
    expect(counts).toHaveLength(5)
    // Equal steps over 15–400 put 40 of the 45 in the first bucket.
    expect(Math.max(...counts)).toBeLessThanOrEqual(prices.length / 3)
    expect(edges).toEqual([15, 30, 50, 75, 100, 500])
    expect(counts).toEqual([8, 10, 13, 9, 5])
  })

  it("split a large spread by orders of magnitude", () => {
    const prices = Array.from({ length: 100 }, (_, i) => Math.round(10 ** (i / 20)))
    expect(expectWellFormed(prices)).toMatchObject({
      edges: [1, 10, 100, 1000, 10000, 100000],
      counts: [20, 20, 20, 20, 20]
    })
  })

  it("give a single value one bucket around it", () => {
    expect(intervalsOf([7, 7, 7], 5)).toEqual({ min: 7, max: 7, edges: [6, 7.5], counts: [3] })
    expect(intervalsOf([40], 5)).toEqual({ min: 40, max: 40, edges: [40, 50], counts: [1] })
    expect(intervalsOf([0], 5)).toEqual({ min: 0, max: 0, edges: [0, 1], counts: [1] })
  })

  it("give two values two buckets, at the rounder numbers between them", () => {
    expect(expectWellFormed([10, 20]).edges).toEqual([10, 20, 25])
    expect(expectWellFormed([19.99, 24.5]).edges).toEqual([15, 20, 25])
    expect(expectWellFormed([12, 12, 12, 95, 95]).edges).toEqual([10, 20, 100])
  })

  it("make no more buckets than there are distinct values, however many products", () => {
    const prices = [...Array(30).fill(19), ...Array(10).fill(49), ...Array(5).fill(99)]
    expect(expectWellFormed(prices).counts).toEqual([30, 10, 5])
  })

  it("cut negative numbers and zero at nice numbers, zero itself an edge", () => {
    const numbers = [-50, -20, -5, 0, 0, 3, 10, 25]
    const { edges } = expectWellFormed(numbers)
    expect(edges).toContain(0)
    // Between equally even cuts, 0 and 1 rather than 0.001.
    expect(edges).toEqual([-50, -10, 0, 1, 10, 30])
    expect(expectWellFormed([-50, -30, -10, 0]).edges).toEqual([-50, -40, -10, 0, 1])
    expect(expectWellFormed([0, 0, 0, 8, 9]).edges).toEqual([0, 1, 10])
    expectWellFormed([-0.4, -0.2, -0.05])
  })

  it("read small decimals as decimals", () => {
    expect(expectWellFormed([0.3, 0.45, 0.5, 0.9]).edges).toEqual([0.3, 0.4, 0.5, 0.6, 1])
  })

  it("keep to the buckets asked for", () => {
    const prices = range(100, 5, 500)
    expect(expectWellFormed(prices, 3).counts).toHaveLength(3)
    expect(expectWellFormed(prices, 1)).toMatchObject({ edges: [5, 600], counts: [100] })
  })

  it("balance a seeded random catalog of every shape", () => {
    let seed = 11
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    for (let round = 0; round < 200; round++) {
      const size = 1 + Math.floor(random() * 300)
      const scale = 10 ** Math.floor(random() * 6 - 2)
      const skew = 1 + random() * 4
      const prices = Array.from({ length: size }, () => Math.round(random() ** skew * 1000 * scale * 100) / 100)
      const { counts } = expectWellFormed(prices)
      // Many distinct values and nice edges in every decade: no bucket near the whole set.
      if (new Set(prices).size >= 20) expect(Math.max(...counts), `${prices}`).toBeLessThanOrEqual(size * 0.6)
    }
  })

  it("has no interval without a number", () => {
    expect(intervalsOf([], 5)).toBeNull()
    expect(intervalsOf([NaN, NaN], 5)).toBeNull()
    expect(intervalsOf([NaN, 20, 30], 5)).toMatchObject({ min: 20, max: 30, counts: [1, 1] })
  })
})

describe("edges from counts per candidate (what Qdrant can answer)", () => {
  it("offers the nice numbers within the range, a bounded number of them", () => {
    expect(edgeCandidates(15, 90)).toEqual([20, 25, 30, 40, 50, 60, 75])
    expect(edgeCandidates(7, 7)).toEqual([])
    expect(edgeCandidates(0, 2000).length).toBeLessThanOrEqual(45)
    expect(edgeCandidates(-1e6, 1e6).length).toBeLessThanOrEqual(91)
    expect(edgeCandidates(0.3, 0.9)).toEqual([0.4, 0.5, 0.6, 0.75])
  })

  it("cuts the same as the values themselves, knowing only how many lie below each candidate", () => {
    const prices = [...range(40, 15, 90), ...range(5, 250, 400)]
    const candidates = edgeCandidates(15, 400)
    const below = candidates.map((c) => prices.filter((x) => x < c).length)
    expect(intervalsFromCounts({ min: 15, max: 400, count: 45 }, candidates, below, 5)).toEqual(intervalsOf(prices, 5))
  })
})
