import { describe, expect, it } from "vitest"
import { kthLargest, kthSmallest } from "../../../src/services/catalog-index/TopK.js"

describe("kthLargest", () => {
  it("finds the k-th largest value for small and large k alike", () => {
    const values = Array.from({ length: 500 }, (_, i) => (i * 7919) % 500)
    const sorted = [...values].sort((a, b) => b - a)
    for (const k of [1, 5, 64, 65, 300, 500]) expect(kthLargest(values, k)).toBe(sorted[k - 1])
    expect(kthLargest(values, 501)).toBe(-Infinity)
    expect(kthLargest(values, 0)).toBe(-Infinity)
  })
})

describe("kthSmallest", () => {
  it("selects the value at each rank, with runs of equal values, infinities and sorted input", () => {
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const inputs = [
      Array.from({ length: 1000 }, () => Math.floor(random() * 20)), // many ties
      Array.from({ length: 777 }, () => (random() < 0.1 ? Infinity : random() * 100 - 50)),
      Array.from({ length: 300 }, (_, i) => i), // sorted
      Array.from({ length: 300 }, (_, i) => -i), // reversed
      Array.from({ length: 50 }, () => 3), // all equal
      [42]
    ]
    for (const values of inputs) {
      const sorted = [...values].sort((a, b) => a - b)
      for (let rank = 0; rank < values.length; rank += Math.max(1, Math.floor(values.length / 37))) {
        expect(kthSmallest(values, rank)).toBe(sorted[rank])
      }
      expect(kthSmallest(values, values.length - 1)).toBe(sorted[values.length - 1])
    }
  })
})
