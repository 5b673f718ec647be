import { Effect, Layer, Option } from "effect"
import { Sqlite } from "../platform/Sqlite.js"
import { decodeStored, encodeFit, VisualSpaceStore, VisualSpaceStoreError } from "./VisualSpaceStore.js"

/**
 * The embedded VisualSpaceStore: one row per site in the process's SQLite file, the arrays as
 * blobs. A put is one upsert that bumps the version and replaces every column, so a reader sees
 * the old space or the new one, never a mix.
 */
const schema = `
CREATE TABLE IF NOT EXISTS visual_spaces (
  site_id INTEGER PRIMARY KEY, version INTEGER NOT NULL, fitted_at INTEGER NOT NULL,
  photos INTEGER NOT NULL, samples INTEGER NOT NULL, input_dims INTEGER NOT NULL, output_dims INTEGER NOT NULL,
  mean BLOB NOT NULL, projection BLOB NOT NULL
);
-- Photos analysed since the last fit (a site may have a count before it has a space).
CREATE TABLE IF NOT EXISTS visual_space_photos (site_id INTEGER PRIMARY KEY, since INTEGER NOT NULL);
-- The version of its space the site's index is wholly in.
CREATE TABLE IF NOT EXISTS visual_space_indexed (site_id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
`

interface SpaceRow {
  version: number
  fitted_at: number
  photos: number
  samples: number
  input_dims: number
  output_dims: number
  mean: unknown
  projection: unknown
}

const attempt = <A>(what: string, f: () => A) =>
  Effect.try({
    try: f,
    catch: (cause) =>
      new VisualSpaceStoreError({ message: `visual space store: ${what} failed: ${String(cause)}`, cause })
  })

const layer: Layer.Layer<VisualSpaceStore, never, Sqlite> = Layer.effect(
  VisualSpaceStore,
  Effect.gen(function* () {
    const db = yield* Sqlite
    db.exec(schema)
    const select = db.prepare<[number], SpaceRow>(
      "SELECT version, fitted_at, photos, samples, input_dims, output_dims, mean, projection " +
        "FROM visual_spaces WHERE site_id = ?"
    )
    const selectVersion = db.prepare<[number], { version: number }>(
      "SELECT version FROM visual_spaces WHERE site_id = ?"
    )
    const upsert = db.prepare<[number, number, number, number, number, number, Buffer, Buffer], { version: number }>(
      `INSERT INTO visual_spaces (site_id, version, fitted_at, photos, samples, input_dims, output_dims, mean,
         projection)
       VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (site_id) DO UPDATE SET version = visual_spaces.version + 1, fitted_at = excluded.fitted_at,
       photos = excluded.photos, samples = excluded.samples, input_dims = excluded.input_dims,
       output_dims = excluded.output_dims, mean = excluded.mean, projection = excluded.projection
       RETURNING version`
    )
    const note = db.prepare<[number, number], { since: number }>(
      `INSERT INTO visual_space_photos (site_id, since) VALUES (?, ?)
       ON CONFLICT (site_id) DO UPDATE SET since = since + excluded.since RETURNING since`
    )
    const consume = db.prepare("UPDATE visual_space_photos SET since = max(0, since - ?) WHERE site_id = ?")
    const putTx = db.transaction((siteId: number, fit: Parameters<typeof encodeFit>[0], counted: number) => {
      const f = encodeFit(fit)
      const version = upsert.get(
        siteId,
        f.fittedAt,
        f.photos,
        f.samples,
        f.inputDims,
        f.outputDims,
        f.mean,
        f.projection
      )!.version
      consume.run(counted, siteId)
      return version
    })
    const selectIndexed = db.prepare<[number], { version: number }>(
      "SELECT version FROM visual_space_indexed WHERE site_id = ?"
    )
    const upsertIndexed = db.prepare(`INSERT INTO visual_space_indexed (site_id, version) VALUES (?, ?)
      ON CONFLICT (site_id) DO UPDATE SET version = max(version, excluded.version)`)
    const selectPhotos = db.prepare<[number], { photos: number }>("SELECT photos FROM visual_spaces WHERE site_id = ?")
    const noteTx = db.transaction((siteId: number, added: number) => ({
      since: note.get(siteId, added)!.since,
      atFit: selectPhotos.get(siteId)?.photos ?? 0
    }))

    return VisualSpaceStore.of({
      get: (siteId) =>
        attempt("get", () => {
          const row = select.get(siteId)
          if (row === undefined) return Option.none()
          const figures = {
            version: row.version,
            fittedAt: row.fitted_at,
            photos: row.photos,
            samples: row.samples,
            inputDims: row.input_dims,
            outputDims: row.output_dims
          }
          return Option.some(decodeStored(figures, row.mean, row.projection))
        }),
      version: (siteId) => attempt("version", () => selectVersion.get(siteId)?.version ?? 0),
      put: (siteId, fit, counted) => attempt("put", () => putTx(siteId, fit, counted)),
      notePhotos: (siteId, added) => attempt("notePhotos", () => noteTx(siteId, added)),
      indexedVersion: (siteId) => attempt("indexedVersion", () => selectIndexed.get(siteId)?.version ?? 0),
      markIndexed: (siteId, version) => attempt("markIndexed", () => void upsertIndexed.run(siteId, version))
    })
  })
)

export const EmbeddedVisualSpaceStore = { layer }
