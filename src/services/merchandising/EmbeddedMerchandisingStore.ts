import { Effect, Layer, Option } from "effect"
import { StoreError } from "../catalog-store/CatalogStore.js"
import { Sqlite } from "../../platform/Sqlite.js"
import { decodeEntry, encodeEntry } from "./MerchandisingCodec.js"
import { type EntryKind, MerchandisingStore, type StoredEntry } from "./MerchandisingStore.js"

const schema = `
CREATE TABLE IF NOT EXISTS merchandising (
  site_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (site_id, kind, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS merchandising_versions (
  site_id INTEGER PRIMARY KEY,
  version INTEGER NOT NULL
);
`

interface Row {
  id: string
  value: string
  updated_at: number
}

const attempt = <A>(what: string, f: () => A) =>
  Effect.try({
    try: f,
    catch: (cause) => new StoreError({ message: `merchandising store: ${what} failed: ${String(cause)}`, cause })
  })

/**
 * The embedded MerchandisingStore: two tables in the process's SQLite file (a search replica
 * reads the same file, and sees a change by the version it bumps).
 */
const layer: Layer.Layer<MerchandisingStore, never, Sqlite> = Layer.effect(
  MerchandisingStore,
  Effect.gen(function* () {
    const db = yield* Sqlite
    db.exec(schema)
    const selectOne = db.prepare<[number, string, string], Row>(
      "SELECT id, value, updated_at FROM merchandising WHERE site_id = ? AND kind = ? AND id = ?"
    )
    const selectAll = db.prepare<[number, string], Row>(
      "SELECT id, value, updated_at FROM merchandising WHERE site_id = ? AND kind = ? ORDER BY id"
    )
    const count = db.prepare<[number, string], { n: number }>(
      "SELECT count(*) AS n FROM merchandising WHERE site_id = ? AND kind = ?"
    )
    const upsert = db.prepare(
      `INSERT INTO merchandising (site_id, kind, id, value, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (site_id, kind, id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`
    )
    const deleteOne = db.prepare("DELETE FROM merchandising WHERE site_id = ? AND kind = ? AND id = ?")
    const deleteKind = db.prepare("DELETE FROM merchandising WHERE site_id = ? AND kind = ?")
    const bump = db.prepare(
      `INSERT INTO merchandising_versions (site_id, version) VALUES (?, 1)
       ON CONFLICT (site_id) DO UPDATE SET version = version + 1`
    )
    const selectVersion = db.prepare<[number], { version: number }>(
      "SELECT version FROM merchandising_versions WHERE site_id = ?"
    )
    const stored = <K extends EntryKind>(kind: K, row: Row): StoredEntry<K> => ({
      id: row.id,
      value: decodeEntry(kind, row.value),
      updatedAt: row.updated_at
    })

    const put = db.transaction((siteId: number, kind: EntryKind, entry: StoredEntry<EntryKind>, limit: number) => {
      const exists = selectOne.get(siteId, kind, entry.id) !== undefined
      if (!exists && count.get(siteId, kind)!.n >= limit) return "full" as const
      upsert.run(siteId, kind, entry.id, encodeEntry(kind, entry.value), entry.updatedAt)
      bump.run(siteId)
      return exists ? ("replaced" as const) : ("created" as const)
    })
    const remove = db.transaction((siteId: number, kind: EntryKind, id: string) => {
      const removed = deleteOne.run(siteId, kind, id).changes > 0
      if (removed) bump.run(siteId)
      return removed
    })
    const batch = db.transaction(
      (
        siteId: number,
        kind: EntryKind,
        entries: ReadonlyArray<StoredEntry<EntryKind>>,
        replace: boolean,
        limit: number
      ) => {
        const ids = new Set(entries.map((e) => e.id))
        const added = replace ? ids.size : [...ids].filter((id) => selectOne.get(siteId, kind, id) === undefined).length
        if ((replace ? 0 : count.get(siteId, kind)!.n) + added > limit) return "full" as const
        if (replace) deleteKind.run(siteId, kind)
        for (const entry of entries) upsert.run(siteId, kind, entry.id, encodeEntry(kind, entry.value), entry.updatedAt)
        bump.run(siteId)
        return "written" as const
      }
    )

    const seed = db.transaction((siteId: number, kind: EntryKind, entries: ReadonlyArray<StoredEntry<EntryKind>>) => {
      if (count.get(siteId, kind)!.n > 0) return false
      for (const entry of entries) upsert.run(siteId, kind, entry.id, encodeEntry(kind, entry.value), entry.updatedAt)
      bump.run(siteId)
      return true
    })

    return MerchandisingStore.of({
      seed: (siteId, kind, entries) => attempt("seed", () => seed(siteId, kind, entries)),
      put: (siteId, kind, entry, limit) => attempt("put", () => put(siteId, kind, entry, limit)),
      get: (siteId, kind, id) =>
        attempt("get", () => {
          const row = selectOne.get(siteId, kind, id)
          return row === undefined ? Option.none() : Option.some(stored(kind, row))
        }),
      remove: (siteId, kind, id) => attempt("remove", () => remove(siteId, kind, id)),
      all: (siteId, kind) => attempt("all", () => selectAll.all(siteId, kind).map((row) => stored(kind, row))),
      batch: (siteId, kind, entries, replace, limit) =>
        attempt("batch", () => batch(siteId, kind, entries, replace, limit)),
      version: (siteId) => attempt("version", () => selectVersion.get(siteId)?.version ?? 0)
    })
  })
)

export const EmbeddedMerchandisingStore = { layer }
