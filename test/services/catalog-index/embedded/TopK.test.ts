import { describe, expect, it } from "vitest"
import { kthLargest } from "../../../../src/services/catalog-index/embedded/TopK.js"

describe("kthLargest", () => {
  it("finds the k-th largest value for small and large k alike", () => {
    const values = Array.from({ length: 500 }, (_, i) => (i * 7919) % 500)
    const sorted = [...values].sort((a, b) => b - a)
    for (const k of [1, 5, 64, 65, 300, 500]) expect(kthLargest(values, k)).toBe(sorted[k - 1])
    expect(kthLargest(values, 501)).toBe(-Infinity)
    expect(kthLargest(values, 0)).toBe(-Infinity)
  })
})
