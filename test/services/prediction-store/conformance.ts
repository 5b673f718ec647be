import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { PredictionStore, type PredictionStoreService } from "../../../src/services/prediction-store/PredictionStore.js"
import type { PredictionResult, StoredPrediction } from "../../../src/model/Prediction.js"

/** A result with every shape a real one has: nulls, numbers, nested images, unicode. */
const result = (color: string): PredictionResult => ({
  attributes: [
    { name: "color", value: null, prediction: color, confidence: 0.8, source: "image" },
    { name: "brand", value: "Zürich Tools", prediction: "Zürich Tools", confidence: 1, source: "title" },
    { name: "gender", value: null, prediction: null, confidence: null, source: null }
  ],
  images: [
    {
      url: "https://img.example.com/a.jpg",
      imageId: "img_a",
      attributes: [{ name: "objects", value: null, prediction: ["cup", "bowl"], confidence: 0.6, source: "image" }]
    }
  ],
  neighbours: 7
})

const prediction = (siteId: number, productId: string, version: number, color = "red"): StoredPrediction => ({
  siteId,
  productId,
  version,
  inputs: `v${version}|img_a:ok`,
  result: result(color),
  computedAt: 1_700_000_000_000 + version
})

const stored = (store: PredictionStoreService, siteId: number, productId: string) =>
  Effect.map(store.get(siteId, productId), Option.getOrNull)

/**
 * The behaviour every PredictionStore layer must show, through the interface only. `makeLayer`
 * is called once per test and must give an empty store (a fresh data dir, a flushed Redis).
 */
export const predictionStoreConformance = (name: string, makeLayer: () => Layer.Layer<PredictionStore, unknown>) =>
  describe(`PredictionStore conformance: ${name}`, () => {
    const test = (title: string, body: (store: PredictionStoreService) => Effect.Effect<void, unknown>) =>
      it.live(title, () => Effect.flatMap(PredictionStore, body).pipe(Effect.provide(makeLayer())))

    test("get of a product never predicted is none", (store) =>
      Effect.gen(function* () {
        expect(yield* store.get(1, "unknown")).toEqual(Option.none())
      }))

    test("save then get returns every field as saved", (store) =>
      Effect.gen(function* () {
        const saved = prediction(1, "p1", 3)
        yield* store.save(saved)
        expect(yield* stored(store, 1, "p1")).toEqual(saved)
      }))

    test("a newer version replaces the stored prediction; an older one never does", (store) =>
      Effect.gen(function* () {
        yield* store.save(prediction(1, "p", 5, "red"))
        yield* store.save(prediction(1, "p", 4, "blue"))
        expect(yield* stored(store, 1, "p")).toEqual(prediction(1, "p", 5, "red"))
        yield* store.save(prediction(1, "p", 9, "green"))
        expect(yield* stored(store, 1, "p")).toEqual(prediction(1, "p", 9, "green"))
      }))

    test("the same version replaces it (a recomputation with more evidence)", (store) =>
      Effect.gen(function* () {
        yield* store.save(prediction(1, "p", 5, "red"))
        const recomputed = { ...prediction(1, "p", 5, "navy"), inputs: "v5|img_a:ok|img_b:ok" }
        yield* store.save(recomputed)
        expect(yield* stored(store, 1, "p")).toEqual(recomputed)
      }))

    test("concurrent saves in any order keep the highest version", (store) =>
      Effect.gen(function* () {
        const versions = [7, 2, 11, 5, 12, 1, 9, 3, 10, 4, 8, 6]
        yield* Effect.all(
          versions.map((v) => store.save(prediction(1, "p", v, `c${v}`))),
          { concurrency: "unbounded" }
        )
        expect(yield* stored(store, 1, "p")).toEqual(prediction(1, "p", 12, "c12"))
      }))

    test("sites are separate: the same product id on two sites, and removal on one", (store) =>
      Effect.gen(function* () {
        yield* store.save(prediction(1, "p", 3, "red"))
        yield* store.save(prediction(2, "p", 1, "blue"))
        expect(yield* stored(store, 1, "p")).toEqual(prediction(1, "p", 3, "red"))
        expect(yield* stored(store, 2, "p")).toEqual(prediction(2, "p", 1, "blue"))
        yield* store.remove(1, "p")
        expect(yield* store.get(1, "p")).toEqual(Option.none())
        expect(yield* stored(store, 2, "p")).toEqual(prediction(2, "p", 1, "blue"))
      }))

    test("product ids are opaque: ids sharing prefixes or holding ':' and braces stay apart", (store) =>
      Effect.gen(function* () {
        const ids = ["a", "a:b", "a:b:c", "{2}:a", "ä b/ç"]
        for (const [i, id] of ids.entries()) yield* store.save(prediction(1, id, i + 1, `c${i}`))
        for (const [i, id] of ids.entries())
          expect(yield* stored(store, 1, id)).toEqual(prediction(1, id, i + 1, `c${i}`))
        expect(yield* store.get(2, "a")).toEqual(Option.none())
      }))

    test("remove forgets the prediction, so any version can be saved again; removing twice is fine", (store) =>
      Effect.gen(function* () {
        yield* store.save(prediction(1, "p", 8))
        yield* store.remove(1, "p")
        yield* store.remove(1, "p")
        expect(yield* store.get(1, "p")).toEqual(Option.none())
        yield* store.save(prediction(1, "p", 2, "blue"))
        expect(yield* stored(store, 1, "p")).toEqual(prediction(1, "p", 2, "blue"))
      }))
  })
