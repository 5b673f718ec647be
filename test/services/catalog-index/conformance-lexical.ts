import { expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { CatalogIndex } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../../src/model/Filter.js"
import { DEFAULT_WORD_MATCHING, type WordMatching } from "../../../src/text/TextAnalysis.js"
import { doc, searchIds, titled, upsert, vec } from "./fixtures.js"

/** Words: finding, stemming, typos, and how lexical matches rank against each other. */
export const lexicalConformance = (layer: Layer.Layer<CatalogIndex>) => {
  const test = (name: string, body: () => Effect.Effect<void, unknown, CatalogIndex>) =>
    it.effect(name, () => body().pipe(Effect.provide(layer)))

  test("finds an upserted product by a title word", () =>
    Effect.gen(function* () {
      yield* upsert(titled("p1", "Cordless Drill"), titled("p2", "Garden Hose"))
      expect(yield* searchIds({ text: "drill" })).toEqual(["p1"])
      expect(yield* searchIds({ text: "hose" })).toEqual(["p2"])
    }))

  test("words prepared ahead of their search give the search's own answer, also after a write in between", () =>
    Effect.gen(function* () {
      const index = yield* CatalogIndex
      yield* upsert(titled("p1", "Cordless drill"), titled("p2", "Garden hose"))
      yield* index.prepare({ siteId: 1, text: "drill", filter: emptyFilter })
      expect(yield* searchIds({ text: "drill" })).toEqual(["p1"])
      // Prepared, then a new drill and a rewritten one: the search sees both writes.
      yield* index.prepare({ siteId: 1, text: "drill", filter: emptyFilter })
      yield* upsert(titled("p3", "Drill press"), titled("p1", "Cordless screwdriver"))
      expect(yield* searchIds({ text: "drill" })).toEqual(["p3"])
      // Prepared for other words or another scope: the search matches its own.
      yield* index.prepare({ siteId: 1, text: "hose", filter: emptyFilter })
      expect(yield* searchIds({ text: "drill" })).toEqual(["p3"])
      expect(yield* searchIds({ text: "hose" })).toEqual(["p2"])
    }))

  test("stems: a plural query finds the singular and the other way round", () =>
    Effect.gen(function* () {
      yield* upsert(titled("p1", "Cordless drill"), titled("p2", "Set of hammers"))
      expect(yield* searchIds({ text: "drills" })).toEqual(["p1"])
      expect(yield* searchIds({ text: "hammer" })).toEqual(["p2"])
    }))

  test("folds plurals only: other endings name other things", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("battery", "AA battery"),
        titled("box", "Storage box"),
        titled("bench", "Garden bench"),
        titled("fridge", "Refrigerator water filter"),
        titled("gas", "Refrigerant gas"),
        titled("light", "Porch light"),
        titled("lighted", "Lighted mirror")
      )
      expect(yield* searchIds({ text: "batteries" })).toEqual(["battery"])
      expect(yield* searchIds({ text: "boxes" })).toEqual(["box"])
      expect(yield* searchIds({ text: "benches" })).toEqual(["bench"])
      expect(yield* searchIds({ text: "refrigerant" })).toEqual(["gas"])
      expect(yield* searchIds({ text: "lights" })).toEqual(["light"])
    }))

  test("a query word's synonyms match as its variants, below its own matches; a phrase's term stands for its words", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("earbuds", "Sport earbuds"),
        titled("buds", "Galaxy buds pro"),
        titled("tee", "Organic cotton tee"),
        titled("drill", "Cordless drill")
      )
      const synonyms = (terms: Record<string, Array<string>>, phrases: Array<[number, number, string]> = []) => ({
        ...DEFAULT_WORD_MATCHING,
        synonyms: {
          terms: new Map(
            Object.entries(terms).map(([stem, list]) => [stem, list.map((term) => ({ term, weight: 1 }))])
          ),
          phrases: phrases.map(([group, span, term]) => ({ group, span, term }))
        }
      })
      expect(yield* searchIds({ text: "earbuds" })).toEqual(["earbuds"])
      expect(yield* searchIds({ text: "earbuds", words: synonyms({ earbud: ["bud"] }) })).toEqual(["earbuds", "buds"])
      // Where the word has no products of its own, the synonym's are the results.
      expect(yield* searchIds({ text: "airpods", words: synonyms({ airpod: ["bud"] }) })).toEqual(["buds"])
      // A term the catalog does not hold adds nothing.
      expect(yield* searchIds({ text: "drill", words: synonyms({ drill: ["nowhere"] }) })).toEqual(["drill"])
      // Two typed words in a row standing for one term.
      expect(yield* searchIds({ text: "t shirt" })).toEqual([])
      expect(yield* searchIds({ text: "t shirt", words: synonyms({}, [[0, 2, "tee"]]) })).toEqual(["tee"])
    }))

  test("tolerates a typo in a longer word", () =>
    Effect.gen(function* () {
      yield* upsert(titled("p1", "Cordless drill"), titled("p2", "Corded sander"))
      expect((yield* searchIds({ text: "cordles drill" }))[0]).toBe("p1")
      expect(yield* searchIds({ text: "sandr" })).toEqual(["p2"])
    }))

  test("a word with products of its own never matches another word one edit away (no text vector to agree)", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("sneakers", "Canvas sneakers"),
        titled("speakers", "Bluetooth speakers"),
        titled("drill", "Power drill"),
        titled("grill", "Charcoal grill"),
        titled("jeans", "Slim jeans"),
        titled("beans", "Baked beans")
      )
      expect(yield* searchIds({ text: "sneakers" })).toEqual(["sneakers"])
      expect(yield* searchIds({ text: "speakers" })).toEqual(["speakers"])
      expect(yield* searchIds({ text: "drill" })).toEqual(["drill"])
      expect(yield* searchIds({ text: "beans" })).toEqual(["beans"])
      // A word without products of its own keeps its typos: an edit, or a swap of neighbours.
      expect(yield* searchIds({ text: "sneekers" })).toEqual(["sneakers"])
      expect(yield* searchIds({ text: "drlil" })).toEqual(["drill"])
      // Unless it is a word of the language: "jeams" is a misspelling, "beams" another word.
      const beams = { ...DEFAULT_WORD_MATCHING, languageWords: ["beams"] }
      expect(yield* searchIds({ text: "jeams", words: { ...DEFAULT_WORD_MATCHING, languageWords: [] } })).toEqual([
        "jeans"
      ])
      expect(yield* searchIds({ text: "beams", words: beams })).toEqual([])
    }))

  test("another word one edit away counts where the text vector agrees, and only as that word", () =>
    Effect.gen(function* () {
      // "phillips" is a word of the site; "philips" one edit away is another word. The query vector
      // is [1,0,0,0]: the Philips coffee maker means it (cosine 0.8), the Philips bulb does not (0).
      yield* upsert(
        titled("phillips", "Phillips screwdriver", { vector: [0, 1, 0, 0] }),
        titled("maker", "Philips coffee maker", { vector: [0.8, 0.6, 0, 0] }),
        titled("bulb", "Philips light bulb", { vector: [0, 0, 1, 0] }),
        titled("beans", "Coffee beans maker blend", { vector: [0, 0, 0, 1] })
      )
      const textVector = vec(1, 0, 0, 0)
      // Far above any cosine here: only words match, the vector only judges the variant.
      const minSimilarity = 0.99
      expect((yield* searchIds({ text: "phillips", textVector, minSimilarity })).sort()).toEqual(["maker", "phillips"])
      // Without a vector to agree, the variant never counts.
      expect(yield* searchIds({ text: "phillips" })).toEqual(["phillips"])
      // Refused, a match keeps its other words: "coffee maker" still finds the bulb-free titles.
      const refusedBulb = yield* searchIds({ text: "phillips light bulb", textVector, minSimilarity })
      expect(refusedBulb[0]).toBe("bulb")
      const coffee = yield* searchIds({ text: "phillips coffee maker", textVector, minSimilarity })
      expect(coffee[0]).toBe("maker")
      expect(coffee.sort()).toEqual(["beans", "maker"])
    }))

  test("a product holding too few of the words still matches where the text vector agrees", () =>
    Effect.gen(function* () {
      // "tupperware water bottle lime": three of four words are needed; the query vector is [1,0,0,0].
      yield* upsert(
        titled("cyclone", "Cyclone water bottle, lime", { vector: [0.6, 0.8, 0, 0] }),
        titled("camelbak", "CamelBak water bottle", { vector: [0.9, 0.436, 0, 0] }),
        titled("soda", "Lemon lime soda mix", { vector: [0, 0, 1, 0] }),
        titled("tap", "Water filter for the tap", { vector: [0, 0, 0, 1] }),
        // Close in meaning, but without the head word "bottle" ("lime" trails as a colour).
        titled("squeezer", "Lime squeezer", { vector: [0.7, 0.714, 0, 0] })
      )
      const textVector = vec(1, 0, 0, 0)
      const found = yield* searchIds({ text: "tupperware water bottle lime", textVector, minSimilarity: 0.99 })
      // The CamelBak bottle holds two of the words, the head word among them, and means the query;
      // the soda and the filter do not, and the squeezer holds no bottle.
      expect(found.sort()).toEqual(["camelbak", "cyclone"])
      // Without a vector to agree, only the products holding enough of the words match.
      expect(yield* searchIds({ text: "tupperware water bottle lime" })).toEqual(["cyclone"])
    }))

  test("a model number finds the models it starts; a name finds its numbered generations", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("kit", "Cordless drill/driver kit (DCD771C2)"),
        titled("other", "Impact driver DCF887B"),
        titled("buds2", "Galaxy Buds2 Pro earbuds"),
        titled("buds", "Space Buds earbuds"),
        titled("bus", "School bus toy")
      )
      // Submitted, not typed live: a model number's base still finds its kits.
      expect(yield* searchIds({ text: "dcd771" })).toEqual(["kit"])
      expect(yield* searchIds({ text: "dcd77" })).toEqual(["kit"])
      // "buds" is a word of the site, so its typos ("bus") stay out; "buds2" is the same name numbered.
      expect((yield* searchIds({ text: "buds" })).sort()).toEqual(["buds", "buds2"])
    }))

  test("typo tolerance follows the campaign's settings; words holding digits never match fuzzily", () =>
    Effect.gen(function* () {
      yield* upsert(titled("cordless", "Cordless drill"), titled("r5", "Insulation R-5 roll"), titled("r6", "R-6 roll"))
      const words = (settings: Partial<WordMatching>) => ({ ...DEFAULT_WORD_MATCHING, ...settings })
      expect(yield* searchIds({ text: "cordles" })).toEqual(["cordless"])
      expect(yield* searchIds({ text: "cordles", words: words({ typoTolerance: false }) })).toEqual([])
      expect(yield* searchIds({ text: "cordles", words: words({ minWordSizeFor1Typo: 8 }) })).toEqual([])
      expect(yield* searchIds({ text: "cordles", words: words({ typoTolerance: "min" }) })).toEqual(["cordless"])
      expect(yield* searchIds({ text: "r-7" })).toEqual([])
      expect(yield* searchIds({ text: "r-5" })).toEqual(["r5"])
    }))

  test("completes the last word only of a query typed live", () =>
    Effect.gen(function* () {
      yield* upsert(titled("pan", "Frying pan"), titled("pantry", "Pantry shelf"))
      expect(yield* searchIds({ text: "pan" })).toEqual(["pan"])
      expect((yield* searchIds({ text: "pan", words: { ...DEFAULT_WORD_MATCHING, live: true } })).sort()).toEqual([
        "pan",
        "pantry"
      ])
    }))

  test("exact matches outrank fuzzy ones, even when the fuzzy term is rarer", () =>
    Effect.gen(function* () {
      const drills = ["d1", "d2", "d3", "d4", "d5"].map((id) => titled(id, `Power drill ${id}`))
      yield* upsert(...drills, titled("g1", "Charcoal grill"))
      const ids = yield* searchIds({ text: "drill" })
      // Whether "grill" is offered at all is the backend's choice; it must not come first.
      expect(ids.slice(0, 5).sort()).toEqual(["d1", "d2", "d3", "d4", "d5"])
    }))

  test("a title match outranks a description-only match", () =>
    Effect.gen(function* () {
      yield* upsert(
        doc("desc", { text: { title: "Tool case", description: "Holds a drill and its bits" } }),
        doc("title", { text: { title: "Drill", description: "Holds a charge all day" } })
      )
      expect(yield* searchIds({ text: "drill" })).toEqual(["title", "desc"])
    }))

  test("a title holding the query's words side by side outranks one holding them apart, until it is rewritten", () =>
    Effect.gen(function* () {
      // Without the phrase, the shorter title would win on BM25 length normalisation.
      yield* upsert(titled("phrase", "Front door paint satin"), titled("apart", "Paint for a front door"))
      expect(yield* searchIds({ text: "door paint" })).toEqual(["phrase", "apart"])
      yield* upsert(titled("phrase", "Satin paint front door"))
      expect(yield* searchIds({ text: "door paint" })).toEqual(["apart", "phrase"])
    }))

  const scarfAndDresses = upsert(
    titled("one", "Red scarf"),
    titled("both", "Red summer dress"),
    titled("other", "Blue dress")
  )

  test("a product matches a short query only when it holds every word", () =>
    Effect.gen(function* () {
      yield* scarfAndDresses
      expect(yield* searchIds({ text: "red dress" })).toEqual(["both"])
      expect((yield* searchIds({ text: "dress" })).sort()).toEqual(["both", "other"])
    }))

  test("the forms of a hyphenated query word count as one word", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("hyphen", "Black-and-Decker drill"),
        titled("spaced", "Black & Decker cordless drill"),
        titled("other", "Bosch drill")
      )
      // Two typed words: "black-and-decker" (held whole, joined or as its parts) and "drill".
      expect((yield* searchIds({ text: "black-and-decker drill" })).sort()).toEqual(["hyphen", "spaced"])
    }))

  test("two typed words also find their joined form when the catalog knows it", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("joined", "ClosetMaid wire shelf"),
        titled("code", "Halogen MR16 bulb"),
        titled("closet", "Closet rod"),
        titled("shelf", "Pine shelf")
      )
      // "closet maid shelf": "closetmaid" stands for the first two words, so "joined" holds all three.
      expect(yield* searchIds({ text: "closet maid shelf" })).toEqual(["joined"])
      // "mr 16 halogen": "mr16" and "halogen" are all three typed words.
      expect(yield* searchIds({ text: "mr 16 halogen" })).toEqual(["code"])
      // A join the catalog does not know changes nothing: "pine shelf" is two words.
      expect(yield* searchIds({ text: "pine shelf" })).toEqual(["shelf"])
    }))

  test("when no product holds every word, those holding the most match, down to half of the words", () =>
    Effect.gen(function* () {
      yield* scarfAndDresses
      // Nobody sells velvet: the dresses are what is left of the query, the best match first.
      const ids = yield* searchIds({ text: "velvet summer dress" })
      expect(ids).toEqual(["both"])
      expect((yield* searchIds({ text: "velvet dress" })).sort()).toEqual(["both", "other"])
      // One known word of four is not enough to call a product a match.
      expect(yield* searchIds({ text: "velvet silk cotton dress" })).toEqual([])
      expect(yield* searchIds({ text: "velvet gown" })).toEqual([])
    }))

  test("a number with its unit finds the same number and unit written any other way", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("w1", "LED bulb 65W"),
        titled("w2", "Floodlight 65-Watt"),
        titled("w3", "Reflector 65 Watts"),
        titled("w4", "LED bulb 40W"),
        titled("door", "Prehung door 32 in. x 80 in."),
        titled("door2", "Slab door 30 in. x 80 in.")
      )
      for (const query of ["65w", "65-watt", "65 watt"])
        expect((yield* searchIds({ text: query })).sort()).toEqual(["w1", "w2", "w3"])
      expect(yield* searchIds({ text: "32x80 door" })).toContain("door")
      expect((yield* searchIds({ text: "32x80 door" }))[0]).toBe("door")
      expect(yield* searchIds({ text: "32 inch door" })).toEqual(["door"])
    }))

  test("parts of a joined word are found, short and numeric ones included", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("r5", "Foam board R-5 insulation"),
        titled("r13", "Batt R-13 insulation"),
        titled("jm", "Vinyl J-Mold trim")
      )
      expect(yield* searchIds({ text: "r5 insulation" })).toEqual(["r5"])
      expect(yield* searchIds({ text: "r-13" })).toEqual(["r13"])
      expect(yield* searchIds({ text: "jmold" })).toEqual(["jm"])
    }))

  test("a 4-letter word the site does not know is corrected; one it knows keeps to itself", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("b1", "Bosch cordless drill"),
        titled("l1", "Desk lamp"),
        titled("c1", "Camp stove"),
        titled("r1", "Wheelchair ramp")
      )
      expect(yield* searchIds({ text: "bosh" })).toEqual(["b1"])
      expect(yield* searchIds({ text: "bosh drill" })).toEqual(["b1"])
      expect(yield* searchIds({ text: "lamp" })).toEqual(["l1"])
    }))

  test("brand and category fields are searchable", () =>
    Effect.gen(function* () {
      yield* upsert(
        doc("p1", { text: { title: "Impact driver", brand: "Makita", category: "Power Tools" } }),
        doc("p2", { text: { title: "Impact driver", brand: "Bosch", category: "Power Tools" } })
      )
      expect(yield* searchIds({ text: "makita" })).toEqual(["p1"])
      expect((yield* searchIds({ text: "power tools" })).sort()).toEqual(["p1", "p2"])
    }))
}
