import { describe, expect, it } from "vitest"
import { SlotList } from "../../../../src/services/catalog-index/embedded/SlotList.js"

const members = (list: SlotList) => {
  const out: Array<number> = []
  list.forEach((slot) => out.push(slot))
  return out.sort((a, b) => a - b)
}

describe("SlotList", () => {
  it("adds, ignores an immediate repeat, and removes members in any order", () => {
    const list = new SlotList()
    for (const slot of [5, 9, 9, 2, 7]) list.add(slot)
    expect(list.size).toBe(4)
    expect(members(list)).toEqual([2, 5, 7, 9])
    list.delete(5)
    list.delete(42)
    expect(members(list)).toEqual([2, 7, 9])
    list.delete(9)
    list.delete(2)
    list.delete(7)
    expect(list.size).toBe(0)
    expect(members(list)).toEqual([])
  })

  it("grows and shrinks through thousands of members without losing any", () => {
    const list = new SlotList()
    for (let slot = 0; slot < 10_000; slot++) list.add(slot)
    expect(list.size).toBe(10_000)
    for (let slot = 0; slot < 10_000; slot++) if (slot % 10 !== 0) list.delete(slot)
    expect(list.size).toBe(1_000)
    expect(members(list)).toEqual(Array.from({ length: 1_000 }, (_, i) => i * 10))
    list.add(3)
    expect(members(list).slice(0, 3)).toEqual([0, 3, 10])
  })
})
