import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { settings } from "../../support/Settings.js"
import { EmbeddedTextEmbedder } from "../../../src/services/text-embedder/EmbeddedTextEmbedder.js"
import { TextEmbedder } from "../../../src/services/text-embedder/TextEmbedder.js"

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i], 0)
const maxDifference = (a: Float32Array, b: Float32Array) =>
  a.reduce((max, x, i) => Math.max(max, Math.abs(x - b[i])), 0)

const config = settings({ DATA_DIR: "/nonexistent", SITES_FILE: "/nonexistent", EMBED_THREADS: 2 })

// The production layer (two threads, the real model), built once for this file.
layer(EmbeddedTextEmbedder.layer.pipe(Layer.provide(config)), { timeout: 60_000 })("TextEmbedder", (it) => {
  it.effect("gives 384-d unit vectors, also for empty, blank, emoji and very long texts", () =>
    Effect.gen(function* () {
      const embedder = yield* TextEmbedder
      const texts = ["cordless drill", "", "   \n\t", "🙂", "stainless steel ".repeat(2_000)]
      const vectors = yield* embedder.embed(texts)
      expect(embedder.dimensions).toBe(384)
      expect(vectors).toHaveLength(texts.length)
      for (const vector of vectors) {
        expect(vector).toBeInstanceOf(Float32Array)
        expect(vector).toHaveLength(384)
        expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5)
      }
      expect(yield* embedder.embed([])).toEqual([])
    })
  )

  it.effect(
    "gives all-MiniLM-L6-v2's vectors (an independent NumPy forward pass of the same weights and tokenizer)",
    () =>
      Effect.gen(function* () {
        const embedder = yield* TextEmbedder
        const texts = ["cordless drill", "Hampton Bay 36x34.5x24 in. Sink Base Cabinet in Cognac", "strawberry jam"]
        const vectors = yield* embedder.embed(texts)
        const reference = [
          [-0.07284, 0.08317, -0.098, 0.05161],
          [0.10286, -0.01944, -0.0414, -0.02578],
          [-0.03135, -0.00602, 0.00531, -0.01855]
        ]
        vectors.forEach((vector, i) => reference[i].forEach((x, d) => expect(vector[d]).toBeCloseTo(x, 4)))
        expect(dot(vectors[0], vectors[1])).toBeCloseTo(-0.0678, 3)
        expect(dot(vectors[0], vectors[2])).toBeCloseTo(0.0939, 3)
      })
  )

  it.effect("puts related products closer than unrelated ones", () =>
    Effect.gen(function* () {
      const embedder = yield* TextEmbedder
      const [drill, battery, jam] = yield* embedder.embed(["cordless drill", "power drill battery", "strawberry jam"])
      expect(dot(drill, battery)).toBeGreaterThan(dot(drill, jam) + 0.2)
      expect(dot(drill, battery)).toBeGreaterThan(dot(battery, jam) + 0.2)
    })
  )

  it.effect("embeds a batch exactly as it embeds each text alone, in input order", () =>
    Effect.gen(function* () {
      const embedder = yield* TextEmbedder
      // Mixed lengths, so the batch planner reorders and splits them into several calls.
      const texts = [
        "Bosch 12V Max cordless drill driver kit with two batteries, charger and carrying case. ".repeat(6),
        "strawberry jam",
        "",
        "LED bulb",
        "Set of 10 battery operated Christmas lights - clear wire",
        ...Array.from({ length: 40 }, (_, i) => `galvanised wood screw ${i} mm`)
      ]
      const batch = yield* embedder.embed(texts)
      for (const [i, text] of texts.entries()) {
        const [alone] = yield* embedder.embed([text])
        expect(maxDifference(batch[i], alone)).toBeLessThan(1e-5)
      }
    })
  )

  it.effect("embeds a query like a document and serves a repeat from the cache", () =>
    Effect.gen(function* () {
      const embedder = yield* TextEmbedder
      const [asDocument] = yield* embedder.embed(["rain shower head"])
      const before = yield* embedder.stats
      const first = yield* embedder.embedQuery("rain shower head")
      expect(maxDifference(first, asDocument)).toBeLessThan(1e-5)
      first.fill(0) // a caller's mutation must not reach the cache
      // Whitespace differences share one cache entry, since the model sees the same text.
      const second = yield* embedder.embedQuery("  rain   shower head ")
      const after = yield* embedder.stats
      expect(second).toEqual(asDocument)
      expect(after.queryCacheMisses - before.queryCacheMisses).toBe(1)
      expect(after.queryCacheHits - before.queryCacheHits).toBe(1)
      expect(after.queryCacheSize).toBeGreaterThanOrEqual(1)
    })
  )

  it.effect("answers many concurrent fibers with their own vectors", () =>
    Effect.gen(function* () {
      const embedder = yield* TextEmbedder
      const words = [
        "hammer",
        "paint roller",
        "garden hose",
        "ceiling fan",
        "door hinge",
        "tile saw",
        "mulch",
        "faucet"
      ]
      const reference = yield* embedder.embed(words)
      const requests = Array.from({ length: 48 }, (_, i) => i)
      const answers = yield* Effect.forEach(
        requests,
        (i) =>
          i % 3 === 0
            ? embedder.embedQuery(words[i % words.length]).pipe(Effect.map((v) => [v]))
            : embedder.embed([words[i % words.length], words[(i + 1) % words.length]]),
        { concurrency: "unbounded" }
      )
      for (const [i, vectors] of answers.entries()) {
        vectors.forEach((vector, k) => {
          expect(maxDifference(vector, reference[(i + k) % words.length])).toBeLessThan(1e-5)
        })
      }
    })
  )
})
