import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import type { Rule, Synonym } from "../../src/domain/Merchandising.js"
import type { Campaign } from "../../src/domain/Site.js"
import { withPromotions } from "../../src/search/QueryRules.js"
import { forgetSiteMerchandising } from "../../src/search/SiteMerchandising.js"
import { textSearch, type TextSearchInput } from "../../src/search/TextSearch.js"
import { MerchandisingStore } from "../../src/services/merchandising/MerchandisingStore.js"
import { ids, type ShopProduct, shopLayer, stock, twoSites } from "../support/Shop.js"

const SITE_A = 1
const SITE_B = 2

const product = (id: string, title: string, type: string, price = 20): ShopProduct => ({
  id,
  data: { title, product_type: type, price, availability: "in_stock", brand: id === "drill-1" ? "Bosch" : "Acme" }
})

/** A shop whose words need synonyms: what a shopper types is not what the titles say. */
const catalog: ReadonlyArray<ShopProduct> = [
  product("buds-1", "Galaxy Buds Pro", "Electronics > Audio > Headphones", 150),
  product("earbuds-1", "Sport earbuds wired", "Electronics > Audio > Headphones", 25),
  product("headphones-1", "Bluetooth over-ear headphones", "Electronics > Audio > Headphones", 90),
  product("sofa-1", "Velvet three seat sofa", "Home > Furniture > Sofas", 700),
  product("tee-1", "Organic cotton tee", "Clothing > Tops", 15),
  product("grill-1", "Charcoal kettle grill", "Garden > Grills", 120),
  product("drill-1", "Cordless drill 18V", "Tools > Drills", 89),
  product("drill-2", "Hammer drill corded", "Tools > Drills", 59),
  product("kettle-1", "Electric kettle 1.7 L", "Home > Kitchen > Kettles", 35),
  product("kettle-2", "Stovetop whistling kettle", "Home > Kitchen > Kettles", 28),
  product("mug-1", "Stoneware mug", "Home > Kitchen > Mugs", 9)
]

const campaigns: ReadonlyArray<Campaign> = [
  { id: 0, name: "default", resultsCount: 100 },
  { id: 7, name: "holiday", resultsCount: 100 }
]

const shop = Layer.unwrapEffect(
  Effect.map(twoSites(campaigns), ({ a, b }) =>
    Layer.effectDiscard(
      Effect.zipRight(stock(a.id, catalog), stock(b.id, [product("sofa-b", "Leather sofa", "Furniture", 900)]))
    ).pipe(Layer.provideMerge(shopLayer([a, b])))
  )
)

const search = (input: TextSearchInput, siteId = SITE_A) => textSearch(siteId, input)
const found = (query: string, siteId = SITE_A) => Effect.map(search({ query }, siteId), (r) => ids(r.data.products))

/** Replaces the site's synonyms and rules (the store's batch, as POST /…/batch does) and drops this process's copy. */
const merchandise = (siteId: number, synonyms: ReadonlyArray<Synonym>, rules: Record<string, Rule> = {}) =>
  Effect.gen(function* () {
    const store = yield* MerchandisingStore
    yield* store.batch(
      siteId,
      "synonym",
      synonyms.map((value, i) => ({ id: `s${i}`, value, updatedAt: 0 })),
      true,
      100
    )
    yield* store.batch(
      siteId,
      "rule",
      Object.entries(rules).map(([id, value]) => ({ id, value, updatedAt: 0 })),
      true,
      100
    )
    yield* forgetSiteMerchandising(siteId)
  })

describe("synonyms at query time", () => {
  it.layer(shop)((it) => {
    it.effect("each pair finds its products once the synonym exists, and not before", () =>
      Effect.gen(function* () {
        yield* merchandise(SITE_A, [])
        expect(yield* found("couch")).not.toContain("sofa-1")
        expect(yield* found("bbq")).not.toContain("grill-1")
        expect(yield* found("tshirt")).not.toContain("tee-1")
        expect(yield* found("airpods")).not.toContain("buds-1")
        yield* merchandise(SITE_A, [
          { type: "synonym", synonyms: ["couch", "sofa"] },
          { type: "synonym", synonyms: ["tshirt", "t shirt", "tee"] },
          { type: "oneWaySynonym", input: "bbq", synonyms: ["grill"] },
          { type: "oneWaySynonym", input: "airpods", synonyms: ["buds"] }
        ])
        expect((yield* found("couch"))[0]).toBe("sofa-1")
        expect((yield* found("sofa"))[0]).toBe("sofa-1")
        expect((yield* found("bbq"))[0]).toBe("grill-1")
        expect((yield* found("tshirt"))[0]).toBe("tee-1")
        // Two typed words standing for one term.
        expect((yield* found("t shirt"))[0]).toBe("tee-1")
        const airpods = yield* search({ query: "airpods" })
        expect(ids(airpods.data.products)[0]).toBe("buds-1")
        // The synonym is marked as the word the shopper's word found.
        expect(airpods.data.products[0].highlight?.title).toBe("Galaxy <mark>Buds</mark> Pro")
        // Another site's searches do not see them.
        expect(yield* found("couch", SITE_B)).not.toContain("sofa-b")
      })
    )

    it.effect("one way means one way; the query's own words outrank a synonym's", () =>
      Effect.gen(function* () {
        yield* merchandise(SITE_A, [{ type: "oneWaySynonym", input: "earbuds", synonyms: ["buds"] }])
        const earbuds = yield* found("earbuds")
        expect(earbuds.slice(0, 2)).toEqual(["earbuds-1", "buds-1"])
        expect(yield* found("buds")).not.toContain("earbuds-1")
      })
    )

    it.effect("an alternative correction finds its corrections, below the word's own matches", () =>
      Effect.gen(function* () {
        yield* merchandise(SITE_A, [{ type: "altCorrection", word: "cans", corrections: ["headphones"] }])
        expect((yield* found("cans"))[0]).toBe("headphones-1")
        // Typed words a synonym table does not name are untouched: drills stay drills, not grills.
        const drills = yield* found("drill")
        expect(drills.slice(0, 2).sort()).toEqual(["drill-1", "drill-2"])
        expect(drills).not.toContain("grill-1")
      })
    )
  })
})

describe("query rules at query time", () => {
  it.layer(shop)((it) => {
    it.effect("promote, hide and userData: the answer carries the fired rules' ids and data", () =>
      Effect.gen(function* () {
        yield* merchandise(SITE_A, [], {
          "kettle-week": {
            conditions: [{ pattern: "kettle", anchoring: "contains" }],
            consequence: {
              promote: [{ productId: "mug-1", position: 0 }],
              hide: [{ productId: "kettle-2" }],
              userData: { banner: "Kettle week" }
            }
          }
        })
        const result = yield* search({ query: "electric kettles" })
        const listed = ids(result.data.products)
        expect(listed[0]).toBe("mug-1")
        expect(listed).toContain("kettle-1")
        expect(listed).not.toContain("kettle-2")
        expect(result.data.appliedRules).toEqual(["kettle-week"])
        expect(result.data.userData).toEqual([{ banner: "Kettle week" }])
        // A query the condition does not hold for is untouched.
        const mugs = yield* search({ query: "stoneware mug" })
        expect(mugs.data.appliedRules).toBeUndefined()
        expect(ids(mugs.data.products)).toEqual(["mug-1"])
      })
    )

    it.effect("anchoring: is, startsWith, endsWith, contains (plural and case do not matter)", () =>
      Effect.gen(function* () {
        const rule = (anchoring: "is" | "startsWith" | "endsWith" | "contains"): Rule => ({
          conditions: [{ pattern: "Kettle", anchoring }],
          consequence: { userData: { anchoring } }
        })
        yield* merchandise(SITE_A, [], {
          is: rule("is"),
          starts: rule("startsWith"),
          ends: rule("endsWith"),
          contains: rule("contains")
        })
        const fired = (query: string) => Effect.map(search({ query }), (r) => r.data.appliedRules ?? [])
        expect(yield* fired("kettles")).toEqual(["contains", "ends", "is", "starts"])
        expect(yield* fired("kettle grill")).toEqual(["contains", "starts"])
        expect(yield* fired("electric kettle")).toEqual(["contains", "ends"])
        expect(yield* fired("electric kettle 1.7")).toEqual(["contains"])
        expect(yield* fired("mug")).toEqual([])
        // A hyphenated word is one word however it is written.
        yield* merchandise(SITE_A, [], {
          tee: { conditions: [{ pattern: "t-shirt", anchoring: "contains" }], consequence: { userData: {} } }
        })
        expect(yield* fired("black T-Shirts")).toEqual(["tee"])
        expect(yield* fired("tshirt")).toEqual(["tee"])
        expect(yield* fired("dress shirt")).toEqual([])
      })
    )

    it.effect("validity windows, the enabled flag and the campaign context decide whether a rule fires", () =>
      Effect.gen(function* () {
        const now = Date.now()
        const iso = (ms: number) => new Date(ms).toISOString()
        const on = { conditions: [{ pattern: "mug", anchoring: "is" as const }], consequence: { userData: {} } }
        yield* merchandise(SITE_A, [], {
          current: { ...on, validity: [{ from: iso(now - 60_000), until: iso(now + 3_600_000) }] },
          future: { ...on, validity: [{ from: iso(now + 3_600_000), until: iso(now + 7_200_000) }] },
          past: { ...on, validity: [{ from: iso(now - 7_200_000), until: iso(now - 3_600_000) }] },
          disabled: { ...on, enabled: false },
          holiday: { conditions: [{ campaign: 7 }], consequence: { userData: { holiday: true } } }
        })
        expect((yield* search({ query: "mug" })).data.appliedRules).toEqual(["current"])
        expect((yield* search({ query: "mug", campaign: 7 })).data.appliedRules).toEqual(["current", "holiday"])
      })
    )

    it.effect("query edits, filters, boosts and a redirect, in priority order", () =>
      Effect.gen(function* () {
        yield* merchandise(SITE_A, [], {
          bbq: {
            conditions: [{ pattern: "bbq", anchoring: "contains" }],
            consequence: { query: { replace: [{ word: "bbq", with: "grill" }] } }
          },
          cheap: {
            conditions: [{ pattern: "cheap", anchoring: "startsWith" }],
            consequence: {
              query: { remove: ["cheap"] },
              filters: {
                included: [{ column: "product_type", values: [encodeCategoryPath("Home > Kitchen > Kettles")] }]
              }
            }
          },
          "bury-bosch": {
            priority: 5,
            conditions: [{ pattern: "drill", anchoring: "contains" }],
            consequence: { boosts: [{ column: "brand", values: ["Bosch"], weight: -50 }], userData: { n: 1 } }
          },
          "drill-sale": {
            priority: 1,
            conditions: [{ pattern: "drill", anchoring: "contains" }],
            consequence: { redirect: { url: "https://shop.example.com/drills" }, userData: { n: 2 } }
          }
        })
        expect((yield* found("bbq"))[0]).toBe("grill-1")
        const cheap = yield* search({ query: "cheap kettle" })
        expect(ids(cheap.data.products).sort()).toEqual(["kettle-1", "kettle-2"])
        const drills = yield* search({ query: "drill" })
        expect(ids(drills.data.products)[0]).toBe("drill-2")
        expect(drills.data.appliedRules).toEqual(["bury-bosch", "drill-sale"])
        expect(drills.data.userData).toEqual([{ n: 1 }, { n: 2 }])
        expect(drills.data.interactions?.redirect?.url).toBe("https://shop.example.com/drills")
      })
    )

    it.effect("a rule for browsing (an empty pattern with 'is') promotes on a category page, and pages count it", () =>
      Effect.gen(function* () {
        yield* merchandise(SITE_A, [], {
          "kitchen-page": {
            conditions: [{ pattern: "", anchoring: "is" }],
            consequence: { promote: [{ productId: "mug-1", position: 1 }] }
          }
        })
        const scope = {
          staticFilters: { included: [{ column: "product_type", values: [encodeCategoryPath("Home > Kitchen")] }] }
        }
        const first = yield* search({ ...scope, resultsCount: 2 })
        expect(ids(first.data.products)[1]).toBe("mug-1")
        const second = yield* search({ ...scope, resultsCount: 2, offset: 2 })
        const all = [...ids(first.data.products), ...ids(second.data.products)]
        expect(all.sort()).toEqual(["kettle-1", "kettle-2", "mug-1"])
        expect(first.data.total).toBe(3)
        // A product outside the request's scope is never promoted into it.
        const tools = yield* search({
          staticFilters: { included: [{ column: "product_type", values: [encodeCategoryPath("Tools")] }] }
        })
        expect(ids(tools.data.products)).not.toContain("mug-1")
      })
    )
  })
})

describe("explain: why each product is where it is", () => {
  it.layer(shop)((it) => {
    it.effect("scores split into their parts, the rule that promoted a product, the synonyms the words met", () =>
      Effect.gen(function* () {
        yield* merchandise(SITE_A, [{ type: "oneWaySynonym", input: "airpods", synonyms: ["buds"] }], {
          "bury-bosch": {
            conditions: [{ pattern: "drill", anchoring: "contains" }],
            consequence: {
              boosts: [{ column: "brand", values: ["Bosch"], weight: -0.5 }],
              promote: [{ productId: "mug-1", position: 1 }]
            }
          }
        })
        const drills = yield* search({ query: "drill", explain: true })
        const [first, second, third] = drills.data.products
        expect(first.explanation).toMatchObject({ boosts: 0 })
        expect(first.explanation!.lexical).toBeGreaterThan(0)
        const parts = first.explanation!
        expect(parts.lexical + parts.semantic + parts.popularity + parts.boosts).toBeCloseTo(parts.score, 3)
        expect(second.explanation?.promoted).toEqual({ by: "bury-bosch", position: 1 })
        expect(third.productId).toBe("drill-1")
        expect(third.explanation!.boosts).toBeCloseTo(-0.5, 3)
        expect(drills.data.explanation).toEqual({ searched: "drill", synonyms: [] })
        const airpods = yield* search({ query: "airpods", explain: true })
        expect(airpods.data.explanation?.synonyms).toEqual([{ words: "airpods", alternatives: ["bud"] }])
        // Without `explain`, nothing of it.
        const plain = yield* search({ query: "drill" })
        expect(plain.data.products[0].explanation).toBeUndefined()
        expect(plain.data.explanation).toBeUndefined()
      })
    )
  })
})

describe("withPromotions", () => {
  it("places each promotion at the first free place from its position, within the window", () => {
    expect(withPromotions(["a", "b", "c", "d"], [{ productId: "x", position: 1 }], 10)).toEqual([
      "a",
      "x",
      "b",
      "c",
      "d"
    ])
    expect(
      withPromotions(
        ["a", "b", "c"],
        [
          { productId: "x", position: 0 },
          { productId: "y", position: 0 },
          { productId: "c", position: 1 }
        ],
        10
      )
    ).toEqual(["x", "y", "c", "a", "b"])
    // Beyond the window: left out of this page's listing (it belongs to a later one).
    expect(withPromotions(["a", "b", "c"], [{ productId: "z", position: 5 }], 3)).toEqual(["a", "b", "c"])
    // A short listing: the promotion follows its end.
    expect(withPromotions(["a"], [{ productId: "z", position: 4 }], 10)).toEqual(["a", "z"])
  })
})
