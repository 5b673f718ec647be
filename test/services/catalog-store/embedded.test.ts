import { Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { settings } from "../../support/Settings.js"
import { EmbeddedCatalogStore } from "../../../src/services/catalog-store/EmbeddedCatalogStore.js"
import { Sqlite } from "../../../src/platform/Sqlite.js"
import { catalogStoreConformance } from "./conformance.js"

/** The embedded CatalogStore on a fresh temporary data dir. */
const sqliteCatalogLayer = (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-catalog-"))) =>
  EmbeddedCatalogStore.layer.pipe(
    Layer.provide(Sqlite.layer),
    Layer.provide(settings({ DATA_DIR: dataDir, SITES_FILE: path.join(dataDir, "sites.json") }))
  )

catalogStoreConformance("sqlite", () => sqliteCatalogLayer())
