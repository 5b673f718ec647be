import Database from "better-sqlite3"
import { Config, Context, Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"

/**
 * The embedded backends' durable store: one SQLite file in WAL mode under DATA_DIR.
 * WAL with synchronous=NORMAL keeps every committed transaction across a crash of the
 * process (SIGKILL), which is the durability the API promises once it acknowledges a write;
 * a power cut may lose the last few, which is why production runs on Redis/Qdrant.
 */
/** DATA_DIR: where the embedded backends keep their files (default ./data). */
export const DataDir = Config.string("DATA_DIR").pipe(
  Config.withDefault("./data"),
  Config.map((dir) => path.resolve(dir))
)

export class Sqlite extends Context.Tag("Sqlite")<Sqlite, Database.Database>() {
  static readonly layer = Layer.scoped(
    Sqlite,
    Effect.gen(function* () {
      const dataDir = yield* DataDir
      fs.mkdirSync(dataDir, { recursive: true })
      const db = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const db = new Database(path.join(dataDir, "catalog.db"))
          db.pragma("journal_mode = WAL")
          db.pragma("synchronous = NORMAL")
          db.pragma("busy_timeout = 5000")
          return db
        }),
        (db) => Effect.sync(() => db.close())
      )
      return db
    })
  )
}
