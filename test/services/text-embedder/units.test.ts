import { describe, expect, it } from "@effect/vitest"
import {
  BATCH_BUDGET_MS,
  estimatedMs,
  MAX_BATCH_TEXTS,
  planBatches
} from "../../../src/services/text-embedder/Batching.js"
import { MAX_TEXT_CHARS, normaliseText } from "../../../src/services/text-embedder/ModelInput.js"

describe("normaliseText", () => {
  it("collapses whitespace, lowercases (the model is uncased), cuts long texts keeping surrogate pairs whole", () => {
    expect(normaliseText("  Cordless \n\t DRILL ")).toBe("cordless drill")
    expect(normaliseText("x".repeat(5_000))).toHaveLength(MAX_TEXT_CHARS)
    expect(normaliseText(`${"x".repeat(MAX_TEXT_CHARS - 1)}🙂`)).toBe("x".repeat(MAX_TEXT_CHARS - 1))
  })
})

describe("planBatches", () => {
  it("places every text once, in calls within the time budget", () => {
    const texts = Array.from({ length: 300 }, (_, i) => "w".repeat((i * 37) % 2_001))
    const batches = planBatches(texts)
    expect(batches.flat().sort((a, b) => a - b)).toEqual(texts.map((_, i) => i))
    for (const batch of batches) {
      const cost = batch.length * estimatedMs(Math.max(...batch.map((i) => texts[i].length)))
      expect(batch.length === 1 || (batch.length <= MAX_BATCH_TEXTS && cost <= BATCH_BUDGET_MS)).toBe(true)
    }
  })

  it("shares calls among short texts and sends long ones alone", () => {
    expect(planBatches(Array.from({ length: 12 }, () => "garden hose"))).toHaveLength(1)
    expect(planBatches(Array.from({ length: 3 }, () => "a product description ".repeat(60)))).toHaveLength(3)
  })
})
