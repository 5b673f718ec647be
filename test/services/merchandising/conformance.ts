import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { Rule, Synonym } from "../../../src/domain/Merchandising.js"
import {
  MerchandisingStore,
  type MerchandisingStoreService,
  type StoredEntry
} from "../../../src/services/merchandising/MerchandisingStore.js"

const tee: Synonym = { type: "synonym", synonyms: ["tshirt", "t shirt", "tee"] }
const buds: Synonym = { type: "oneWaySynonym", input: "earbuds", synonyms: ["buds", "airpods"] }
const kettleWeek: Rule = {
  conditions: [{ pattern: "kettle", anchoring: "contains" }],
  consequence: {
    promote: [{ productId: "sku-7", position: 0 }],
    hide: [{ productId: "sku-9" }],
    userData: { banner: "Kettle week", nested: { n: 1, ü: [true, null] } }
  },
  validity: [{ from: "2026-12-01T00:00:00Z", until: "2026-12-24T00:00:00Z" }],
  enabled: true
}

const synonym = (id: string, value: Synonym, updatedAt = 1_700_000_000_000): StoredEntry<"synonym"> => ({
  id,
  value,
  updatedAt
})

/**
 * The behaviour every MerchandisingStore layer must show, through the interface only. `makeLayer`
 * is called once per test and must give an empty store (a fresh data dir, a flushed Redis).
 */
export const merchandisingStoreConformance = (
  name: string,
  makeLayer: () => Layer.Layer<MerchandisingStore, unknown>
) =>
  describe(`MerchandisingStore conformance: ${name}`, () => {
    const test = (title: string, body: (store: MerchandisingStoreService) => Effect.Effect<void, unknown>) =>
      it.live(title, () => Effect.flatMap(MerchandisingStore, body).pipe(Effect.provide(makeLayer())))

    test("an empty site has no entries and version 0", (store) =>
      Effect.gen(function* () {
        expect(yield* store.get(1, "synonym", "x")).toEqual(Option.none())
        expect(yield* store.all(1, "rule")).toEqual([])
        expect(yield* store.version(1)).toBe(0)
      }))

    test("put then get returns every field as written; a second put replaces it", (store) =>
      Effect.gen(function* () {
        expect(yield* store.put(1, "synonym", synonym("tee", tee), 10)).toBe("created")
        expect(yield* store.get(1, "synonym", "tee")).toEqual(Option.some(synonym("tee", tee)))
        const rule = { id: "kettle-week", value: kettleWeek, updatedAt: 5 }
        expect(yield* store.put(1, "rule", rule, 10)).toBe("created")
        expect(yield* store.get(1, "rule", "kettle-week")).toEqual(Option.some(rule))
        expect(yield* store.put(1, "synonym", synonym("tee", buds, 9), 10)).toBe("replaced")
        expect(yield* store.get(1, "synonym", "tee")).toEqual(Option.some(synonym("tee", buds, 9)))
      }))

    test("kinds and sites are separate: the same id in another kind or site is another entry", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "synonym", synonym("a", tee), 10)
        yield* store.put(2, "synonym", synonym("a", buds), 10)
        expect(yield* store.get(1, "rule", "a")).toEqual(Option.none())
        expect(Option.getOrThrow(yield* store.get(2, "synonym", "a")).value).toEqual(buds)
        expect((yield* store.all(1, "synonym")).map((e) => e.value)).toEqual([tee])
        expect(yield* store.remove(2, "synonym", "a")).toBe(true)
        expect(yield* store.get(1, "synonym", "a")).toEqual(Option.some(synonym("a", tee)))
        expect(yield* store.version(3)).toBe(0)
      }))

    test("all lists a kind's entries by id", (store) =>
      Effect.gen(function* () {
        for (const id of ["b", "c", "a"]) yield* store.put(1, "synonym", synonym(id, tee), 10)
        expect((yield* store.all(1, "synonym")).map((e) => e.id)).toEqual(["a", "b", "c"])
      }))

    test("every change bumps the site's version; a removal of nothing does not", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "synonym", synonym("a", tee), 10)
        const afterPut = yield* store.version(1)
        expect(afterPut).toBeGreaterThan(0)
        expect(yield* store.remove(1, "synonym", "nothing")).toBe(false)
        expect(yield* store.version(1)).toBe(afterPut)
        expect(yield* store.remove(1, "synonym", "a")).toBe(true)
        const afterRemove = yield* store.version(1)
        expect(afterRemove).toBeGreaterThan(afterPut)
        yield* store.batch(1, "rule", [{ id: "r", value: kettleWeek, updatedAt: 1 }], false, 10)
        expect(yield* store.version(1)).toBeGreaterThan(afterRemove)
        expect(yield* store.version(2)).toBe(0)
      }))

    test("a put past the site's bound is refused and changes nothing; a replacement within it is taken", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "synonym", synonym("a", tee), 2)
        yield* store.put(1, "synonym", synonym("b", tee), 2)
        const version = yield* store.version(1)
        expect(yield* store.put(1, "synonym", synonym("c", tee), 2)).toBe("full")
        expect(yield* store.get(1, "synonym", "c")).toEqual(Option.none())
        expect(yield* store.version(1)).toBe(version)
        expect(yield* store.put(1, "synonym", synonym("b", buds), 2)).toBe("replaced")
        // Another site has its own bound.
        expect(yield* store.put(2, "synonym", synonym("c", tee), 2)).toBe("created")
      }))

    test("a merging batch adds and replaces; a replacing batch leaves only its entries", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "synonym", synonym("a", tee), 10)
        yield* store.put(1, "synonym", synonym("b", tee), 10)
        yield* store.put(1, "rule", { id: "r", value: kettleWeek, updatedAt: 1 }, 10)
        expect(yield* store.batch(1, "synonym", [synonym("b", buds), synonym("c", buds)], false, 10)).toBe("written")
        expect((yield* store.all(1, "synonym")).map((e) => [e.id, e.value])).toEqual([
          ["a", tee],
          ["b", buds],
          ["c", buds]
        ])
        expect(yield* store.batch(1, "synonym", [synonym("d", tee), synonym("d", buds)], true, 10)).toBe("written")
        // The later of two entries with one id wins; the other kind is untouched.
        expect((yield* store.all(1, "synonym")).map((e) => [e.id, e.value])).toEqual([["d", buds]])
        expect((yield* store.all(1, "rule")).map((e) => e.id)).toEqual(["r"])
      }))

    test("a seed is written only where the site has none of the kind", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "rule", { id: "r", value: kettleWeek, updatedAt: 1 }, 10)
        expect(yield* store.seed(1, "synonym", [synonym("a", tee), synonym("b", buds)])).toBe(true)
        const version = yield* store.version(1)
        expect(yield* store.seed(1, "synonym", [synonym("c", tee)])).toBe(false)
        expect((yield* store.all(1, "synonym")).map((e) => e.id)).toEqual(["a", "b"])
        expect(yield* store.version(1)).toBe(version)
        expect(yield* store.seed(2, "synonym", [synonym("c", tee)])).toBe(true)
      }))

    test("a batch past the bound is refused whole", (store) =>
      Effect.gen(function* () {
        yield* store.put(1, "synonym", synonym("a", tee), 3)
        yield* store.put(1, "synonym", synonym("b", tee), 3)
        expect(
          yield* store.batch(1, "synonym", [synonym("a", buds), synonym("c", buds), synonym("d", buds)], false, 3)
        ).toBe("full")
        expect((yield* store.all(1, "synonym")).map((e) => [e.id, e.value])).toEqual([
          ["a", tee],
          ["b", tee]
        ])
        // Replacing: only the batch's own entries count.
        expect(
          yield* store.batch(1, "synonym", [synonym("x", buds), synonym("y", buds), synonym("z", buds)], true, 3)
        ).toBe("written")
        expect((yield* store.all(1, "synonym")).map((e) => e.id)).toEqual(["x", "y", "z"])
      }))
  })
