import { Effect, Layer, Option } from "effect"
import { StoreError } from "../catalog-store/CatalogStore.js"
import { Sqlite } from "../../platform/Sqlite.js"
import { PredictionStore } from "./PredictionStore.js"
import type { StoredPrediction } from "../../model/Prediction.js"
import { decodeResult, encodeResult } from "./PredictionCodec.js"

const schema = `
CREATE TABLE IF NOT EXISTS prediction_results (
  site_id INTEGER NOT NULL,
  product_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  inputs TEXT NOT NULL,
  result TEXT NOT NULL,
  computed_at INTEGER NOT NULL,
  PRIMARY KEY (site_id, product_id)
) WITHOUT ROWID;
`

interface Row {
  site_id: number
  product_id: string
  version: number
  inputs: string
  result: string
  computed_at: number
}

const attempt = <A>(what: string, f: () => A) =>
  Effect.try({
    try: f,
    catch: (cause) => new StoreError({ message: `prediction store: ${what} failed: ${String(cause)}`, cause })
  })

/** The embedded PredictionStore: a table in the process's SQLite file. */
const layer: Layer.Layer<PredictionStore, never, Sqlite> = Layer.effect(
  PredictionStore,
  Effect.gen(function* () {
    const db = yield* Sqlite
    db.exec(schema)
    const selectOne = db.prepare<[number, string], Row>(
      "SELECT * FROM prediction_results WHERE site_id = ? AND product_id = ?"
    )
    // A late computation from an older version never replaces a newer one.
    const upsert =
      db.prepare(`INSERT INTO prediction_results (site_id, product_id, version, inputs, result, computed_at)
      VALUES (@site_id, @product_id, @version, @inputs, @result, @computed_at)
      ON CONFLICT (site_id, product_id) DO UPDATE SET version = excluded.version, inputs = excluded.inputs,
        result = excluded.result, computed_at = excluded.computed_at
      WHERE excluded.version >= prediction_results.version`)
    const deleteOne = db.prepare("DELETE FROM prediction_results WHERE site_id = ? AND product_id = ?")

    return PredictionStore.of({
      get: (siteId, productId) =>
        attempt("get", () => {
          const row = selectOne.get(siteId, productId)
          return row === undefined
            ? Option.none()
            : Option.some<StoredPrediction>({
                siteId: row.site_id,
                productId: row.product_id,
                version: row.version,
                inputs: row.inputs,
                result: decodeResult(row.result),
                computedAt: row.computed_at
              })
        }),
      save: (p) =>
        attempt("save", () => {
          upsert.run({
            site_id: p.siteId,
            product_id: p.productId,
            version: p.version,
            inputs: p.inputs,
            result: encodeResult(p.result),
            computed_at: p.computedAt
          })
        }),
      remove: (siteId, productId) => attempt("remove", () => void deleteOne.run(siteId, productId))
    })
  })
)

export const EmbeddedPredictionStore = { layer }
