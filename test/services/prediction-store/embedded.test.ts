import { Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { AppConfig } from "../../../src/config/AppConfig.js"
import { EmbeddedPredictionStore } from "../../../src/services/prediction-store/EmbeddedPredictionStore.js"
import { Sqlite } from "../../../src/platform/Sqlite.js"
import { predictionStoreConformance } from "./conformance.js"

/** The embedded PredictionStore on a fresh temporary data dir. */
const embeddedPredictionStoreLayer = (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-prediction-"))) =>
  EmbeddedPredictionStore.pipe(
    Layer.provide(Sqlite.layer),
    Layer.provide(AppConfig.make({ dataDir, sitesFile: path.join(dataDir, "sites.json") }))
  )

predictionStoreConformance("embedded", () => embeddedPredictionStoreLayer())
