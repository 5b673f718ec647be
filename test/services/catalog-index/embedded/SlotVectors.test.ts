import { describe, expect, it } from "vitest"
import { SlotVectors } from "../../../../src/services/catalog-index/embedded/SlotVectors.js"

const ref = (label: number, row: number, norm: number) => ({ label, row, norm })

describe("SlotVectors", () => {
  it("keeps one or several vectors per slot, first one first, and counts the slots holding any", () => {
    const slots = new SlotVectors()
    expect(slots.size).toBe(0)
    expect(slots.has(3)).toBe(false)
    expect(slots.get(3)).toEqual([])
    slots.set(3, [ref(10, 0, 1.5)])
    slots.set(7, [ref(11, 1, 0.5), ref(12, 2, 2), ref(13, 3, 0.25)])
    expect(slots.size).toBe(2)
    expect(slots.get(3)).toEqual([ref(10, 0, 1.5)])
    expect(slots.firstRow(3)).toBe(0)
    expect(slots.extra(3)).toEqual([])
    expect(slots.get(7)).toEqual([ref(11, 1, 0.5), ref(12, 2, 2), ref(13, 3, 0.25)])
    expect(slots.firstRow(7)).toBe(1)
    expect(slots.extra(7).map((r) => r.row)).toEqual([2, 3])
    expect(slots.has(0)).toBe(false)
  })

  it("replaces a slot's vectors on set, and delete returns what the slot held", () => {
    const slots = new SlotVectors()
    slots.set(1, [ref(1, 1, 1), ref(2, 2, 1)])
    slots.set(1, [ref(5, 9, 3)])
    expect(slots.size).toBe(1)
    expect(slots.get(1)).toEqual([ref(5, 9, 3)])
    expect(slots.extra(1)).toEqual([])
    expect(slots.delete(1)).toEqual([ref(5, 9, 3)])
    expect(slots.delete(1)).toEqual([])
    expect(slots.has(1)).toBe(false)
    expect(slots.size).toBe(0)
    expect(() => slots.set(2, [])).toThrow(/at least one vector/)
  })

  it("grows past its initial capacity without losing earlier slots", () => {
    const slots = new SlotVectors()
    for (let slot = 0; slot < 5_000; slot += 3) slots.set(slot, [ref(slot, slot + 1, slot / 10)])
    slots.set(4_999, [ref(1, 2, 3), ref(4, 5, 6)])
    expect(slots.size).toBe(Math.ceil(5_000 / 3) + 1)
    expect(slots.get(2_997)).toEqual([ref(2_997, 2_998, 299.7)])
    expect(slots.get(0)).toEqual([ref(0, 1, 0)])
    expect(slots.has(1)).toBe(false)
    expect(slots.get(4_999)).toEqual([ref(1, 2, 3), ref(4, 5, 6)])
  })
})
