import { Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Sqlite } from "../../src/platform/Sqlite.js"
import { settings } from "./Settings.js"

/**
 * An embedded backend's layer on the SQLite database of `dataDir` (a fresh temporary one by
 * default, named from `prefix`); the database stays in the context, for tests that reach into it.
 */
export const onSqlite = <A, E>(
  layer: Layer.Layer<A, E, Sqlite>,
  prefix: string,
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
) =>
  layer.pipe(
    Layer.provideMerge(Sqlite.layer),
    Layer.provide(settings({ DATA_DIR: dataDir, SITES_FILE: path.join(dataDir, "sites.json") }))
  )
