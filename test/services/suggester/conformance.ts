import { Effect, type Layer } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import type { ProductText } from "../../../src/services/suggester/Phrases.js"
import { Suggester, type SuggestError, type SuggesterService } from "../../../src/services/suggester/Suggester.js"

/**
 * A Suggester backend under test. `fresh` gives each test empty durable state; `layer` opens
 * one process on it (the tests open several in turn to check what survives a restart).
 */
export interface SuggesterBackend {
  readonly fresh: () => void | Promise<void>
  readonly layer: () => Layer.Layer<Suggester, unknown>
  readonly cleanup?: () => void | Promise<void>
}

/** The behaviour every Suggester layer must show, through the interface only. */
export const suggesterConformance = (name: string, backend: SuggesterBackend) =>
  describe(`Suggester conformance: ${name}`, () => {
    beforeEach(() => backend.fresh())
    afterEach(() => backend.cleanup?.())

    /** Runs `f` against a fresh layer on the test's state; the layer is released (and flushed) after. */
    const withSuggester = <A>(f: (s: SuggesterService) => Effect.Effect<A, SuggestError>): Promise<A> =>
      Effect.runPromise(Effect.flatMap(Suggester, f).pipe(Effect.provide(backend.layer()), Effect.orDie))

    const catalog: Record<string, ProductText> = {
      p1: {
        title: "Bosch Professional Cordless Drill GSR 12V",
        brand: "Bosch",
        categories: ["Tools > Power Tools > Drills"]
      },
      p2: { title: "Makita Cordless Drill Driver Set", brand: "Makita", categories: ["Tools > Power Tools > Drills"] },
      p3: {
        title: "DeWalt Cordless Impact Driver",
        brand: "DeWalt",
        categories: ["Tools > Power Tools > Impact Drivers"]
      },
      p4: { title: "Bosch Garden Hose Reel", brand: "Bosch", categories: ["Garden > Watering > Hoses"] },
      p5: { title: "Makita Corded Angle Grinder", brand: "Makita", categories: [], productTypes: ["Tools > Grinders"] },
      p6: { title: "Ryobi 18V Cordless Drill", brand: "Ryobi", categories: ["Tools > Power Tools > Drills"] }
    }

    const indexCatalog = (s: SuggesterService, siteId = 1) =>
      s.indexProducts(Object.entries(catalog).map(([productId, source]) => ({ siteId, productId, source })))

    /** Suggestion texts for `prefix` on site 1 after indexing the catalog. */
    const texts = (prefix: string, limit = 10) =>
      withSuggester((s) =>
        indexCatalog(s).pipe(
          Effect.zipRight(s.suggest(1, prefix, limit)),
          Effect.map((r) => r.map((x) => x.suggestion))
        )
      )

    /** The matches that start with `prefix`, asserting that they all come before any other match. */
    const phraseStarts = (result: ReadonlyArray<string>, prefix: string): ReadonlyArray<string> => {
      const starts = result.filter((t) => t.startsWith(prefix))
      expect(result.slice(0, starts.length)).toEqual(starts)
      return starts
    }

    it("completes from title phrases, most frequent first", async () => {
      const result = await texts("cord")
      // "cordless drill" is in two titles (Bosch, Ryobi), "cordless impact driver" in one.
      expect(result.indexOf("cordless drill")).toBeLessThan(result.indexOf("cordless impact driver"))
      expect(phraseStarts(result, "cord")).toContain("corded angle grinder")
    })

    describe("completes to queries a shopper would type, never a fragment of a title", () => {
      const titles: Record<string, ProductText> = {
        h1: { title: "Sony WH-1000XM5 Over-Ear Wireless Headphones", brand: "Sony", categories: [] },
        t1: { title: "Nike Dri-FIT Running T-Shirt", brand: "Nike", categories: [] },
        e1: { title: "Breville Barista Express Espresso Machine, Brushed Stainless Steel", categories: [] },
        c1: { title: "Nespresso Vertuo Coffee Maker with Milk Frother", categories: [] },
        i1: { title: "Apple iPhone 15 Pro 128 GB (Natural Titanium)", brand: "Apple", categories: [] }
      }
      /** Suggestion texts for each prefix, after indexing `titles` and recording `queries`. */
      const suggestAll = (prefixes: ReadonlyArray<string>, queries: ReadonlyArray<string> = []) =>
        withSuggester((s) =>
          Effect.gen(function* () {
            yield* s.indexProducts(
              Object.entries(titles).map(([productId, source]) => ({ siteId: 1, productId, source }))
            )
            for (const query of queries) yield* s.recordQuery(1, query, 3)
            return yield* Effect.forEach(prefixes, (prefix) =>
              Effect.map(s.suggest(1, prefix, 20), (r) => r.map((x) => x.suggestion))
            )
          })
        )
      /**
       * Whether `text` is a run of whole words inside one part of one title, the parts being
       * what ",", brackets or "with" separate: neither across titles nor across such a part.
       */
      const withinOnePart = (text: string) =>
        Object.values(titles).some((t) =>
          t.title
            .split(/,|\(|\)| with /)
            .some((part) => ` ${part.toLowerCase().replace(/[^a-z0-9]+/g, " ")} `.includes(` ${text} `))
        )

      it("neither starts nor ends inside a hyphenated word", async () => {
        const [ear, runningT, nike] = await suggestAll(["ear", "running t", "nike dri"])
        // "Over-Ear" is one word: "ear" finds it whole, never its second half alone.
        expect(ear).toContain("over ear wireless headphones")
        expect(ear.filter((t) => /(^| )ear/.test(t) && !t.includes("over ear"))).toEqual([])
        // "T-Shirt" is one word: a completion ends after it, never at its first half.
        expect(runningT).toContain("running t shirt")
        expect(runningT.filter((t) => t.endsWith(" t"))).toEqual([])
        expect(nike).toContain("nike dri fit running t shirt")
        expect(nike.filter((t) => t.endsWith(" dri") || t.endsWith(" t"))).toEqual([])
      })

      it("never joins words across titles, separators or connectors, nor ends in a connector", async () => {
        const prefixes = ["espresso", "machine", "brush", "steel", "coffee", "maker", "milk", "wireless", "s", "n", "b"]
        const found = await suggestAll(prefixes)
        const [espresso, machine, brushed, steel, coffee, maker, milk, wireless] = found
        expect(espresso).toContain("espresso machine")
        expect(brushed).toContain("brushed stainless steel")
        expect(steel).toContain("stainless steel")
        expect(coffee).toContain("coffee maker")
        expect(milk).toContain("milk frother")
        expect(wireless).toContain("wireless headphones")
        const all = found.flat()
        expect(all.filter((t) => /machine brushed|steel nespresso|maker with|maker milk/.test(t))).toEqual([])
        expect(all.filter((t) => /(^| )(with|and|for)$/.test(t))).toEqual([])
        expect(all.filter((t) => !withinOnePart(t))).toEqual([])
        expect([...machine, ...maker].length).toBeGreaterThan(0)
      })

      it("ends at the thing a phrase names, or at a product line's name, not at a word describing it", async () => {
        const [sony, breville, nespresso, apple, over] = await suggestAll([
          "son",
          "breville",
          "nespresso",
          "apple",
          "over"
        ])
        expect(sony).toEqual(
          expect.arrayContaining(["sony", "sony wh 1000xm5", "sony wh 1000xm5 over ear wireless headphones"])
        )
        expect(sony.filter((t) => /(over ear|wireless)$/.test(t))).toEqual([])
        expect(breville).toContain("breville barista express espresso machine")
        expect(breville.filter((t) => /(barista|express|espresso)$/.test(t))).toEqual([])
        expect(nespresso).toContain("nespresso vertuo coffee maker")
        expect(nespresso.filter((t) => /(vertuo|coffee)$/.test(t))).toEqual([])
        expect(over[0]).toBe("over ear wireless headphones")
        expect(over.filter((t) => /(over ear|wireless)$/.test(t))).toEqual([])
        // A model number names the line; a number cut from its unit ("128 GB") ends nothing.
        expect(apple).toEqual(expect.arrayContaining(["apple iphone", "apple iphone 15", "apple iphone 15 pro"]))
        expect(apple.filter((t) => /128|gb|titanium/.test(t))).toEqual([])
      })

      it("still ranks a shopper's clicked query above the title's phrases", async () => {
        const [coffee] = await suggestAll(
          ["coff"],
          ["coffee maker with milk frother", "coffee maker with milk frother"]
        )
        expect(coffee[0]).toBe("coffee maker with milk frother")
        expect(coffee).toContain("coffee maker")
      })
    })

    it("completes brands and category labels, leaf and parent, with their source", async () => {
      const [brand, leaf, parent] = await withSuggester((s) =>
        indexCatalog(s).pipe(
          Effect.zipRight(Effect.all([s.suggest(1, "mak", 5), s.suggest(1, "grind", 5), s.suggest(1, "wat", 5)]))
        )
      )
      expect(brand[0]).toMatchObject({ suggestion: "makita", source: "brand" })
      expect(leaf).toContainEqual(expect.objectContaining({ suggestion: "grinders", source: "category" }))
      expect(parent.map((x) => x.suggestion)).toEqual(["watering"])
    })

    it("matches at the start of inner words, after all phrase-start matches", async () => {
      const result = await texts("drill", 20)
      expect(result).toContain("cordless drill")
      expect(result).toContain("bosch professional cordless drill")
      expect(phraseStarts(result, "drill")).toContain("drill driver")
    })

    it("treats the last word as partial, and as whole once followed by a space", async () => {
      const partial = await texts("cordless dr")
      // Never "cordless drill gsr": "GSR 12V" is the drill's model, not what it is.
      expect(phraseStarts(partial, "cordless dr")).toEqual([
        "cordless drill",
        "cordless drill driver",
        "cordless drill driver set"
      ])
      expect(partial).toContain("bosch professional cordless drill")
      expect(await texts("makita cordless dr", 1)).toEqual(["makita cordless drill driver"])
      const whole = await texts("drill ")
      expect(whole).toContain("drill driver")
      expect(whole).not.toContain("drills")
      expect(whole).not.toContain("drill")
    })

    it("tolerates typos, ranking corrected matches below exact ones", async () => {
      // Transposition plus a partial word: "crodless" is 8 letters, so two edits are allowed.
      expect(await texts("crodless", 2)).toEqual(["cordless drill", "cordless drill driver"])
      expect((await texts("cordlss dr"))[0]).toBe("cordless drill")
      expect(await texts("bosh", 1)).toEqual(["bosch"])
      const drill = await withSuggester((s) =>
        indexCatalog(s).pipe(
          Effect.zipRight(
            s.indexProducts([{ siteId: 1, productId: "g", source: { title: "Weber Charcoal Grill", categories: [] } }])
          ),
          Effect.zipRight(s.suggest(1, "drill", 20))
        )
      )
      // "grill" is one edit from "drill": offered, but only after every real "drill" match.
      const grill = drill.findIndex((x) => x.suggestion === "grill")
      expect(grill).toBeGreaterThan(0)
      expect(drill.slice(0, grill).every((x) => x.suggestion.includes("drill"))).toBe(true)
      expect(drill[grill].score).toBeLessThan(drill[grill - 1].score)
      // Three letters are too few to guess a typo from.
      expect(await texts("xdr")).toEqual([])
    })

    it("ranks popular past searches first and keeps them across a restart", async () => {
      await withSuggester((s) =>
        Effect.gen(function* () {
          yield* indexCatalog(s)
          for (let i = 0; i < 5; i++) yield* s.recordQuery(1, "Cordless Driver!", 12)
          yield* s.recordQuery(1, "cordless", 4)
          const now = yield* s.suggest(1, "cord", 5)
          expect(now[0]).toMatchObject({ suggestion: "cordless driver", source: "query" })
        })
      )
      // A restarted process gets its catalog from the indexer again, its searches from storage.
      const restarted = <A>(f: (s: SuggesterService) => Effect.Effect<A, SuggestError>) =>
        withSuggester((s) => Effect.zipRight(indexCatalog(s), f(s)))
      const later = await restarted((s) => s.suggest(1, "cord", 5))
      expect(later[0]).toMatchObject({ suggestion: "cordless driver", source: "query" })
      // Searched once only: not popular enough to be offered back unchanged.
      expect((await restarted((s) => s.suggest(1, "cordless", 5))).map((x) => x.suggestion)).not.toContain("cordless")
      await withSuggester((s) => s.recordQuery(1, "cordless", 4))
      expect((await restarted((s) => s.suggest(1, "cordless", 5))).map((x) => x.suggestion)).toContain("cordless")
    })

    it("offers a search only while the catalog has all its words: a search cannot plant a completion", async () => {
      const [planted, grounded, afterDelete] = await withSuggester((s) =>
        Effect.gen(function* () {
          yield* indexCatalog(s)
          for (let i = 0; i < 5; i++) yield* s.recordQuery(1, "bosch quillon zorgblat", 3)
          for (let i = 0; i < 5; i++) yield* s.recordQuery(1, "bosch hose", 3)
          const planted = yield* s.suggest(1, "bosch", 10)
          const grounded = yield* s.suggest(1, "bosch h", 10)
          // The only product with "hose" is deleted: the search of it goes with it.
          yield* s.removeProducts(1, ["p4"])
          return [planted, grounded, yield* s.suggest(1, "bosch h", 10)]
        })
      )
      expect(planted.map((x) => x.suggestion)).not.toContain("bosch quillon zorgblat")
      expect(grounded[0]).toMatchObject({ suggestion: "bosch hose", source: "query" })
      expect(afterDelete.map((x) => x.suggestion)).not.toContain("bosch hose")
    })

    it("never suggests searches that found nothing", async () => {
      await withSuggester((s) => s.recordQuery(1, "unicorn saddle", 0))
      expect(await withSuggester((s) => s.suggest(1, "unic", 5))).toEqual([])
    })

    it("forgets a removed product's phrases unless another product still carries them", async () => {
      const [hose, bosch] = await withSuggester((s) =>
        indexCatalog(s).pipe(
          Effect.zipRight(s.removeProducts(1, ["p4"])),
          Effect.zipRight(Effect.all([s.suggest(1, "hose", 5), s.suggest(1, "bosch", 10)]))
        )
      )
      expect(hose).toEqual([])
      expect(bosch.map((x) => x.suggestion)).toContain("bosch professional cordless drill")
      expect(bosch.map((x) => x.suggestion)).not.toContain("bosch garden hose reel")
    })

    it("re-indexing replaces a product's contribution instead of adding to it", async () => {
      const [before, after, replaced, gone] = await withSuggester((s) =>
        Effect.gen(function* () {
          yield* indexCatalog(s)
          const before = yield* s.suggest(1, "makita", 5)
          yield* s.indexProducts([{ siteId: 1, productId: "p2", source: catalog.p2 }])
          const after = yield* s.suggest(1, "makita", 5)
          yield* s.indexProducts([
            { siteId: 1, productId: "p3", source: { title: "DeWalt Brushless Impact Wrench", categories: [] } }
          ])
          return [before, after, yield* s.suggest(1, "brush", 5), yield* s.suggest(1, "impact d", 5)] as const
        })
      )
      expect(after).toEqual(before)
      expect(replaced.map((x) => x.suggestion)).toContain("brushless impact wrench")
      expect(gone).toEqual([])
    })

    it("keeps each site's catalog and searches to itself", async () => {
      const [site1, site2] = await withSuggester((s) =>
        Effect.gen(function* () {
          yield* indexCatalog(s, 1)
          yield* s.indexProducts([
            {
              siteId: 2,
              productId: "x",
              source: { title: "Cordial Glass Set", brand: "Cordoba", categories: ["Kitchen > Glasses"] }
            }
          ])
          yield* s.recordQuery(2, "corduroy trousers", 3)
          return [yield* s.suggest(1, "cord", 20), yield* s.suggest(2, "cord", 20)] as const
        })
      )
      const site2Words = ["cordial", "cordoba", "corduroy"]
      expect(site1.some((x) => site2Words.some((w) => x.suggestion.includes(w)))).toBe(false)
      expect(site2.every((x) => site2Words.some((w) => x.suggestion.includes(w)))).toBe(true)
      expect(site2.length).toBeGreaterThan(0)
    })

    it("returns at most `limit` distinct suggestions", async () => {
      const three = await texts("c", 3)
      expect(three).toHaveLength(3)
      expect(await texts("c", 0)).toEqual([])
      const all = await texts("d", 50)
      expect(new Set(all).size).toBe(all.length)
    })
  })
