import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { EmbeddedPredictionStore } from "../../../src/services/prediction-store/EmbeddedPredictionStore.js"
import { PredictionStore } from "../../../src/services/prediction-store/PredictionStore.js"
import { Sqlite } from "../../../src/platform/Sqlite.js"
import { predictionStoreConformance } from "./conformance.js"
import { onSqlite } from "../../support/SqliteLayer.js"

/**
 * The embedded PredictionStore on a fresh temporary data dir (with its SQLite database, for tests
 * that reach into it).
 */
const embeddedPredictionStoreLayer = (dataDir?: string) =>
  onSqlite(EmbeddedPredictionStore.layer, "commerce-prediction-", dataDir)

predictionStoreConformance("embedded", () => embeddedPredictionStoreLayer())

describe("EmbeddedPredictionStore", () => {
  it.effect("a stored result that does not decode fails the read with a StoreError", () =>
    Effect.gen(function* () {
      const store = yield* PredictionStore
      yield* store.save({
        siteId: 1,
        productId: "p",
        version: 4,
        inputs: "v4",
        result: { attributes: [], images: [], neighbours: 0 },
        computedAt: 1
      })
      const db = yield* Sqlite
      db.prepare(`UPDATE prediction_results SET result = '{"attributes": []}' WHERE product_id = 'p'`).run()
      expect(yield* Effect.flip(store.get(1, "p"))).toMatchObject({
        _tag: "StoreError",
        message: expect.stringContaining("images")
      })
    }).pipe(Effect.provide(embeddedPredictionStoreLayer()))
  )
})
