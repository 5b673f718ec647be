import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, type Layer } from "effect"
import { CatalogIndex } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../../src/model/Filter.js"
import { EmbeddedCatalogIndex } from "../../../src/services/catalog-index/EmbeddedCatalogIndex.js"
import { catalogIndexConformance } from "./conformance.js"
import { doc, filteredIds, must, searchIds, titled, upsert, vec } from "./fixtures.js"

catalogIndexConformance("embedded", EmbeddedCatalogIndex.layer)

const test = (
  name: string,
  body: () => Effect.Effect<void, unknown, CatalogIndex>,
  layer: Layer.Layer<CatalogIndex> = EmbeddedCatalogIndex.layer
) => it.effect(name, () => body().pipe(Effect.provide(layer)))

/** Deterministic pseudo-random unit vectors (mulberry32), so failures reproduce. */
const randomVectors = (count: number, dim: number, seed: number): Array<Array<number>> => {
  let state = seed
  const next = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5
  }
  return Array.from({ length: count }, () => {
    const v = Array.from({ length: dim }, next)
    const norm = Math.hypot(...v)
    return v.map((x) => x / norm)
  })
}

describe("EmbeddedCatalogIndex", () => {
  test("keeps sizes, voltages and hyphenated words as searchable words", () =>
    Effect.gen(function* () {
      yield* upsert(
        titled("volt", "DeWalt 18V drill"),
        titled("stud", "Lumber 2x4 stud"),
        titled("wifi", "Wi-Fi router")
      )
      expect(yield* searchIds({ text: "18v" })).toEqual(["volt"])
      expect(yield* searchIds({ text: "2x4" })).toEqual(["stud"])
      expect(yield* searchIds({ text: "wi-fi" })).toEqual(["wifi"])
      expect(yield* searchIds({ text: "wifi" })).toEqual(["wifi"])
    }))

  test("rejects a batch with a vector of another dimension and changes nothing", () =>
    Effect.gen(function* () {
      yield* upsert(doc("p1", { vector: [1, 0, 0, 0] }))
      const exit = yield* Effect.exit(upsert(doc("p2", { vector: [1, 0, 0, 0] }), doc("p3", { vector: [1, 0, 0] })))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* filteredIds(emptyFilter)).toEqual(["p1"])
    }))

  test("a freed slot reused by a new product carries none of the old product", () =>
    Effect.gen(function* () {
      yield* upsert(titled("old", "Garden hose", { vector: [1, 0, 0, 0], payload: { brand: "Acme" } }))
      yield* Effect.flatMap(CatalogIndex, (index) => index.remove(1, ["old"]))
      yield* upsert(titled("new", "Cordless drill", { vector: [0, 1, 0, 0] }))
      expect(yield* searchIds({ text: "hose" })).toEqual([])
      expect(yield* searchIds({ textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 })).toEqual([])
      expect(yield* filteredIds(must({ column: "brand", anyOf: ["Acme"] }))).toEqual([])
    }))

  test("many rewrites (which compact the postings) leave only the current words", () =>
    Effect.gen(function* () {
      const filler = Array.from({ length: 40 }, (_, i) => `filler${i}`).join(" ")
      const version = (word: string) =>
        Array.from({ length: 1000 }, (_, i) => doc(`p${i}`, { text: { title: `${word} ${i}`, description: filler } }))
      for (const word of ["alpha", "bravo", "charlie"]) yield* upsert(...version(word))
      const index = yield* CatalogIndex
      const count = (text: string) =>
        index.search({ siteId: 1, text, filter: emptyFilter, limit: 1 }).pipe(Effect.map((r) => r.total))
      expect(yield* count("alpha")).toBe(0)
      expect(yield* count("bravo")).toBe(0)
      expect(yield* count("charlie")).toBe(1000)
      expect(yield* count("filler7")).toBe(1000)
    }))

  const vectors = randomVectors(3000, 16, 7)
  const grid = vectors.map((vector, i) =>
    doc(`p${String(i).padStart(4, "0")}`, { vector, payload: { half: [i % 2 === 0 ? "even" : "odd"] } })
  )
  const nearestOdd = (path: string, layer: Layer.Layer<CatalogIndex>) =>
    test(
      `filtered kNN finds a product by its own vector (${path})`,
      () =>
        Effect.gen(function* () {
          yield* upsert(...grid)
          const odd = must({ column: "half", anyOf: ["odd"] })
          for (const i of [1, 777, 2999]) {
            const ids = yield* searchIds({ textVector: Float32Array.from(vectors[i]), filter: odd, limit: 5 })
            expect(ids[0]).toBe(grid[i].productId)
            expect(ids.every((id) => Number(id.slice(1)) % 2 === 1)).toBe(true)
          }
        }),
      layer
    )
  nearestOdd("HNSW", EmbeddedCatalogIndex.layerWith({ exactScanBelow: 0 }))
  nearestOdd("exact scan", EmbeddedCatalogIndex.layerWith({ exactScanBelow: 10_000 }))

  test(
    "field weights are options of the layer",
    () =>
      Effect.gen(function* () {
        yield* upsert(
          doc("desc", { text: { title: "Tool case", description: "Holds a drill" } }),
          doc("title", { text: { title: "Drill" } })
        )
        expect(yield* searchIds({ text: "drill" })).toEqual(["desc", "title"])
      }),
    EmbeddedCatalogIndex.layerWith({ fieldWeights: { title: 0.1, description: 5 } })
  )

  test(
    "signal weights are options of the layer",
    () =>
      Effect.gen(function* () {
        yield* upsert(
          titled("words", "Running shoe", { vector: [0, 1, 0, 0] }),
          titled("vector", "Trail sneaker", { vector: [1, 0, 0, 0] })
        )
        const query = { text: "running shoe", textVector: vec(1, 0, 0, 0), minSimilarity: 0.5 }
        expect(yield* searchIds(query)).toEqual(["words", "vector"])
        expect(yield* searchIds({ ...query, weights: { lexical: 0.5 } })).toEqual(["vector", "words"])
      }),
    EmbeddedCatalogIndex.layerWith({ weights: { lexical: 3 } })
  )
})
