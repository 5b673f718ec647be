import { describe, expect, it } from "vitest"
import { queryHead, titleHead } from "../../src/text/TitleHead.js"
import { headGroup, queryWords } from "../../src/text/TextAnalysis.js"

describe("head words", () => {
  it("a query's head word is its last word that is no colour, size, audience or number", () => {
    expect(queryHead("gold dress")).toBe("dress")
    expect(queryHead("tupperware water bottle lime")).toBe("bottle")
    expect(queryHead("t-shirt mens large")).not.toBeNull()
    expect(queryHead("16 gb memory card")).toBe("card")
    expect(queryHead("red")).toBeNull()
    expect(headGroup(queryWords("baseball cap 2"))).toBe(1)
  })

  it("a title's head word ends its naming phrase, before a variant, a part or a use", () => {
    expect(titleHead("Armitron Men's Gold Dress Watch")).toBe("watch")
    expect(titleHead("Women's Gold Necklace Sleeveless Dress - chiasso")).toBe("dress")
    expect(titleHead("Breville Barista Express Espresso Machine, Brushed Stainless Steel")).toBe("machine")
    expect(titleHead("Nespresso Vertuo Coffee Maker with Milk Frother")).toBe("maker")
    expect(titleHead("Otterbox Defender Case for iPhone 6")).toBe("case")
    expect(titleHead("Darn Tough Hiker Crew Socks - Navy")).toBe(queryHead("socks"))
    expect(titleHead("Kingston flash memory card 16 GB")).toBe("card")
    expect(titleHead("Navy Large")).toBeNull()
  })
})

describe("a query's naming phrase", () => {
  it("ends where a title's does", () => {
    expect(queryHead("ceiling fan with light")).toBe("fan")
    expect(queryHead("case for iphone 6")).toBe("case")
  })
})
