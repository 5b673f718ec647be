import { Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { settings } from "../../support/Settings.js"
import { Sqlite } from "../../../src/platform/Sqlite.js"
import { EmbeddedSuggester } from "../../../src/services/suggester/EmbeddedSuggester.js"
import { suggesterConformance } from "./conformance.js"

/** Each test gets its own data dir; every layer opened in the test shares its SQLite query log. */
let dataDir: string

suggesterConformance("embedded", {
  fresh: () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "suggest-"))
  },
  layer: () =>
    EmbeddedSuggester.layer.pipe(
      Layer.provide(Sqlite.layer),
      Layer.provide(settings({ DATA_DIR: dataDir, SITES_FILE: path.join(dataDir, "sites.json") }))
    ),
  cleanup: () => fs.rmSync(dataDir, { recursive: true, force: true })
})
