import { describe, expect, it } from "@effect/vitest"
import { LruCache } from "../../src/platform/LruCache.js"

describe("LruCache", () => {
  it("evicts the least recently used entry beyond its capacity", () => {
    const cache = new LruCache<string, number>(2)
    cache.set("a", 1)
    cache.set("b", 2)
    cache.get("a") // "b" is now the oldest
    cache.set("c", 3)
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual([1, undefined, 3, 2])
  })

  it("a re-set key counts as used, and clear empties it", () => {
    const cache = new LruCache<string, number>(2)
    cache.set("a", 1)
    cache.set("b", 2)
    cache.set("a", 10)
    cache.set("c", 3)
    expect([cache.get("a"), cache.get("b")]).toEqual([10, undefined])
    cache.clear()
    expect(cache.size).toBe(0)
  })
})
