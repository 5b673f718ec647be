import { Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { AppConfig } from "../../../src/config/AppConfig.js"
import { EmbeddedCatalogStore } from "../../../src/services/catalog-store/EmbeddedCatalogStore.js"
import { Sqlite } from "../../../src/platform/Sqlite.js"
import { catalogStoreConformance } from "./conformance.js"

/** The embedded CatalogStore on a fresh temporary data dir. */
const embeddedCatalogStoreLayer = (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-catalog-"))) =>
  EmbeddedCatalogStore.pipe(
    Layer.provide(Sqlite.layer),
    Layer.provide(AppConfig.make({ dataDir, sitesFile: path.join(dataDir, "sites.json") }))
  )

catalogStoreConformance("embedded", () => embeddedCatalogStoreLayer())
