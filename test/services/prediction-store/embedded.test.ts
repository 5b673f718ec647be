import { Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { settings } from "../../support/Settings.js"
import { EmbeddedPredictionStore } from "../../../src/services/prediction-store/EmbeddedPredictionStore.js"
import { Sqlite } from "../../../src/platform/Sqlite.js"
import { predictionStoreConformance } from "./conformance.js"

/** The embedded PredictionStore on a fresh temporary data dir. */
const sqlitePredictionLayer = (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-prediction-"))) =>
  EmbeddedPredictionStore.layer.pipe(
    Layer.provide(Sqlite.layer),
    Layer.provide(settings({ DATA_DIR: dataDir, SITES_FILE: path.join(dataDir, "sites.json") }))
  )

predictionStoreConformance("sqlite", () => sqlitePredictionLayer())
