import { describe, expect, it } from "@effect/vitest"
import { SiteTerms, QueryScorer } from "../../../src/services/catalog-index/qdrant/SiteTerms.js"
import { documentTerms, fieldTermKey } from "../../../src/services/catalog-index/qdrant/SparseText.js"
import { defaultOptions } from "../../../src/services/catalog-index/embedded/EmbeddedIndexOptions.js"
import { boundedEditDistance } from "../../../src/text/EditDistance.js"
import { DEFAULT_WORD_MATCHING, queryWords } from "../../../src/text/TextAnalysis.js"
import { doc } from "./fixtures.js"
import { VARIANT_GROUP_COLUMN } from "../../../src/model/Columns.js"

const text = (title: string, description = "") => doc("x", { text: { title, description } }).text
const settings = { fuzzyWeight: 0.45, prefixWeight: 0.3 }
const submitted = DEFAULT_WORD_MATCHING
const live = { ...DEFAULT_WORD_MATCHING, live: true }
const word = (typed: string) => queryWords(typed)[0]

const withTitles = (...titles: Array<string>) => {
  const terms = new SiteTerms()
  titles.forEach((title, i) => terms.put(`p${i}`, { productId: `p${i}`, text: text(title), payload: {} }))
  return terms
}

/** The product ids `covering` finds for per-group terms (title keys), sorted. */
const covered = (
  terms: SiteTerms,
  groups: Array<Array<string>>,
  required: number,
  accept: (productId: string) => boolean = () => true,
  also: Array<string> = []
) =>
  terms
    .covering({ groups, required }, (holding) => accept(holding.productId), also)
    .map((holding) => holding.productId)
    .sort()

describe("SiteTerms", () => {
  it("counts a result set to its last member from the term keys, as writes change it", () => {
    const terms = withTitles("Cordless drill", "Drill press", "Garden hose", "Cordless hose reel")
    expect(covered(terms, [["cordless"], ["drill"]], 1)).toEqual(["p0", "p1", "p3"])
    expect(covered(terms, [["cordless"], ["drill"]], 2)).toEqual(["p0"])
    // A group is held by any of its keys, and counted once.
    expect(covered(terms, [["drill", "hose"], ["cordless"]], 2)).toEqual(["p0", "p3"])
    expect(covered(terms, [["cordless"], ["drill"]], 1, (id) => id !== "p1")).toEqual(["p0", "p3"])
    // Named points join once, within the scope.
    expect(covered(terms, [["drill"]], 1, (id) => id !== "p3", ["p2", "p0", "p3"])).toEqual(["p0", "p1", "p2"])
    // A changed text leaves its old keys (their lists keep the slot until swept: it must not count).
    terms.put("p0", { productId: "p0", text: text("Cordless screwdriver"), payload: {} })
    expect(covered(terms, [["drill"]], 1)).toEqual(["p1"])
    terms.remove("p1")
    // The freed slot goes to a new point holding other words.
    terms.put("p9", { productId: "p9", text: text("Hose clamp"), payload: {} })
    expect(covered(terms, [["drill"]], 1)).toEqual([])
    expect(covered(terms, [["hose"]], 1)).toEqual(["p2", "p3", "p9"])
    // Many rewrites of one point: its lists are swept, and it counts once.
    for (let i = 0; i < 50; i++)
      terms.put("p2", { productId: "p2", text: text(i % 2 === 0 ? "Garden hose" : "Garden rake"), payload: {} })
    expect(covered(terms, [["garden"]], 1)).toEqual(["p2"])
    expect(covered(terms, [["rake"]], 1)).toEqual(["p2"])
    expect(covered(terms, [["hose"]], 1)).toEqual(["p3", "p9"])
  })

  it("weighs a term per field by the site's own IDF, and forgets what a point no longer holds", () => {
    const terms = withTitles("Cordless drill", "Drill press", "Garden hose")
    const idf = (documents: number, frequency: number) =>
      Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))
    const title = defaultOptions.fieldWeights.title
    expect(terms.weights("drill", defaultOptions.fieldWeights)).toEqual(
      new Map([[fieldTermKey("title", "drill"), title * idf(3, 2)]])
    )
    expect(terms.knows("hose")).toBe(true)
    terms.put("p2", { productId: "p2", text: text("Garden hose reel"), payload: {} })
    terms.remove("p1")
    expect(terms.documents).toBe(2)
    expect(terms.weights("drill", defaultOptions.fieldWeights).get(fieldTermKey("title", "drill"))).toBeCloseTo(
      title * idf(2, 1),
      12
    )
    expect(terms.knows("press")).toBe(false)
    expect(terms.weights("press", defaultOptions.fieldWeights).size).toBe(0)
  })

  it("keeps a point's newer version when an older one arrives late, as Qdrant's upsert guard does", () => {
    const terms = new SiteTerms()
    terms.put("p", { productId: "p", text: text("Red kettle"), payload: {}, version: 2 })
    terms.put("p", { productId: "p", text: text("Blue kettle"), payload: {}, version: 1 })
    expect(terms.knows("red")).toBe(true)
    expect(terms.knows("blue")).toBe(false)
    terms.put("p", { productId: "p", text: text("Green kettle"), payload: {}, version: 3 })
    expect([terms.knows("red"), terms.knows("green")]).toEqual([false, true])
  })

  it("a new version of the same text changes its columns and item group only; a changed text is analysed again", () => {
    const terms = new SiteTerms()
    const kettle = text("Red kettle")
    terms.put("p", { productId: "p", text: kettle, payload: { [VARIANT_GROUP_COLUMN]: "g1" }, version: 1 })
    terms.put("q", { productId: "q", text: text("Red mug"), payload: {}, version: 1 })
    const first = terms.holding("p")!
    const weights = terms.weights("red", defaultOptions.fieldWeights)
    // A price patch: same words, new columns, moved to another item group.
    terms.put("p", {
      productId: "p",
      text: { ...kettle },
      payload: { [VARIANT_GROUP_COLUMN]: "g2", price: 9 },
      version: 2
    })
    const second = terms.holding("p")!
    expect(second.keys).toBe(first.keys)
    expect(second.columns).toEqual({ [VARIANT_GROUP_COLUMN]: "g2", price: 9 })
    expect(second.version).toBe(2)
    expect([...terms.groupMembers("g1")]).toEqual([])
    expect([...terms.groupMembers("g2")]).toEqual(["p"])
    expect(terms.weights("red", defaultOptions.fieldWeights)).toEqual(weights)
    expect(terms.documents).toBe(2)
    // The words change: the old ones are forgotten, the new ones counted.
    terms.put("p", { productId: "p", text: text("Blue kettle"), payload: {}, version: 3 })
    expect(terms.knows("blue")).toBe(true)
    expect(terms.weights("red", defaultOptions.fieldWeights).get(fieldTermKey("title", "red"))).toBeCloseTo(
      defaultOptions.fieldWeights.title * Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5)),
      12
    )
    expect([...terms.groupMembers("g2")]).toEqual([])
    // A text that differs only in which field holds a word is another text.
    terms.put("q", { productId: "q", text: { ...text("Red"), description: "mug" }, payload: {}, version: 2 })
    expect(terms.weights("mug", defaultOptions.fieldWeights).has(fieldTermKey("description", "mug"))).toBe(true)
    expect(terms.weights("mug", defaultOptions.fieldWeights).has(fieldTermKey("title", "mug"))).toBe(false)
  })

  it("knows which points have no text vector yet (unknown counts as none)", () => {
    const terms = new SiteTerms()
    terms.put("a", { productId: "a", text: text("Kettle"), payload: {}, version: 1 })
    terms.put("b", { productId: "b", text: text("Mug"), payload: {}, version: 1, embedded: true })
    expect(terms.unembedded).toBe(1)
    terms.put("a", { productId: "a", text: text("Kettle"), payload: {}, version: 1, embedded: true })
    expect(terms.unembedded).toBe(0)
    // A new text replaces the point without a vector until the worker embeds it.
    terms.put("b", { productId: "b", text: text("Tea mug"), payload: {}, version: 2, embedded: false })
    expect(terms.unembedded).toBe(1)
    terms.remove("b")
    expect(terms.unembedded).toBe(0)
  })

  it("finds typos of any word and completions only while typing, never the exact stem", () => {
    const terms = withTitles("Cordless drill", "Cord reel", "Bulb", "Grill", "Still life")
    const cordless = terms.variants(word("cordles"), true, submitted, settings)
    expect([...cordless.keys()]).toEqual(["cordless"])
    expect(cordless.get("cordless")!.weight).toBeCloseTo((0.45 * 8) / 9, 9)
    // "bulb" is one edit from the stem "bulbe" of "bulbes" but drops typed letters: it counts far less.
    expect(terms.variants(word("bulbes"), true, submitted, settings).get("bulb")!.weight).toBeCloseTo(
      (0.3 * 0.45 * 4) / 5,
      9
    )
    // A typo of a word the site knows is found the same way (the caller gates it): a typo, not a completion.
    expect([...terms.variants(word("drill"), true, submitted, settings)]).toEqual([
      ["grill", { weight: (0.45 * 5) / 6, typo: true }]
    ])
    expect([...terms.variants(word("dri"), true, live, settings)]).toEqual([
      ["drill", { weight: (0.3 * 5) / (5 + 0.6), typo: false }]
    ])
    expect(terms.variants(word("dri"), true, submitted, settings).size).toBe(0)
  })

  it("scores a point on several queries in one pass, as Qdrant's dot product would", () => {
    const terms = withTitles("Cordless drill driver")
    const holding = terms.holding("p0")!
    const lexical = documentTerms(text("Cordless drill driver")).lexical
    const drill = fieldTermKey("title", "drill")
    const driver = fieldTermKey("title", "driver")
    const scores = new QueryScorer([
      new Map([[drill, 2]]),
      new Map([
        [drill, 1],
        [driver, 0.5]
      ]),
      new Map([[fieldTermKey("title", "hose"), 1]])
    ]).score(holding)
    const value = (key: number) => lexical.values[lexical.indices.indexOf(key)]
    expect(scores[0]).toBeCloseTo(2 * value(drill), 6)
    expect(scores[1]).toBeCloseTo(value(drill) + 0.5 * value(driver), 6)
    expect(scores[2]).toBe(0)
  })
})

describe("boundedEditDistance", () => {
  it("bounds the edit distance, a swap of neighbours one edit", () => {
    expect(boundedEditDistance("cordles", "cordless", 1)).toBe(1)
    expect(boundedEditDistance("drill", "still", 1)).toBe(2)
    expect(boundedEditDistance("a", "abcd", 1)).toBe(2)
    expect(boundedEditDistance("candel", "candle", 1)).toBe(1)
    expect(boundedEditDistance("ab", "ba", 2)).toBe(1)
  })
})
