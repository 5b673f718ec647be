import { describe, expect, it } from "vitest"
import { corrections, typoBudget } from "../../../src/services/suggester/Fuzzy.js"

const words = ["bosch", "cord", "corded", "cordless", "drill", "drills", "grill", "makita"].sort()
const texts = (typed: string, budget: number, mode: "word" | "prefix") =>
  corrections(words, typed, budget, mode).map((c) => `${c.text}:${c.cost}`)

describe("corrections", () => {
  it("finds whole words within the edit budget, transpositions costing one", () => {
    expect(texts("drlil", 1, "word")).toEqual(["drill:1"])
    expect(texts("drill", 1, "word").sort()).toEqual(["drill:0", "drills:1", "grill:1"])
    expect(texts("mkaita", 1, "word")).toEqual(["makita:1"])
    expect(texts("bsoh", 1, "word")).toEqual([])
    expect(texts("bsoh", 2, "word")).toEqual(["bosch:2"])
  })

  it("finds word prefixes, keeping only the cheapest prefix of each branch", () => {
    // "cordl" (1) covers "cordless"; "cord" (2) would only repeat it at a higher cost, but
    // still adds "corded".
    expect(texts("crodl", 2, "prefix")).toEqual(["cordl:1", "cord:2"])
    expect(texts("cordlss", 1, "prefix")).toEqual(["cordles:1"])
    expect(texts("xyzzy", 2, "prefix")).toEqual([])
  })

  it("allows no typo below four characters, one up to seven, two from eight", () => {
    expect([3, 4, 7, 8].map(typoBudget)).toEqual([0, 1, 1, 2])
  })
})
