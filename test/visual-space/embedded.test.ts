import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Sqlite } from "../../src/platform/Sqlite.js"
import { EmbeddedVisualSpaceStore } from "../../src/visual-space/EmbeddedVisualSpaceStore.js"
import { VisualSpaceStore } from "../../src/visual-space/VisualSpaceStore.js"
import { onSqlite } from "../support/SqliteLayer.js"
import { expectStored, fitOf, spaceOf, visualSpaceStoreConformance } from "./conformance.js"

const layerOn = (dataDir?: string) => onSqlite(EmbeddedVisualSpaceStore.layer, "commerce-vspace-", dataDir)

visualSpaceStoreConformance("embedded", () => layerOn())

describe("EmbeddedVisualSpaceStore", () => {
  it.live("keeps its spaces and versions when the store is opened again", () =>
    Effect.gen(function* () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-vspace-"))
      const fit = fitOf(spaceOf(10, 4, 3))
      yield* Effect.flatMap(VisualSpaceStore, (store) =>
        Effect.zip(store.put(1, fitOf(spaceOf(5, 2, 1)), 0), store.put(1, fit, 0))
      ).pipe(Effect.provide(layerOn(dir)))
      const [stored, version] = yield* Effect.flatMap(VisualSpaceStore, (store) =>
        Effect.zip(store.get(1), store.version(1))
      ).pipe(Effect.provide(layerOn(dir)))
      expect(version).toBe(2)
      expectStored(stored, 2, fit)
    })
  )

  it.live("a corrupt row fails the read with the store's error", () =>
    Effect.gen(function* () {
      const [store, db] = yield* Effect.zip(VisualSpaceStore, Sqlite)
      yield* store.put(1, fitOf(spaceOf(6, 2, 1)), 0)
      yield* store.put(2, fitOf(spaceOf(6, 2, 2)), 0)
      db.prepare("UPDATE visual_spaces SET projection = ? WHERE site_id = 1").run(Buffer.alloc(6 * 2 * 4 - 2))
      db.prepare("UPDATE visual_spaces SET input_dims = 7 WHERE site_id = 2").run()
      const projection = yield* Effect.flip(store.get(1))
      expect(projection._tag).toBe("VisualSpaceStoreError")
      expect(projection.message).toContain("projection")
      const mean = yield* Effect.flip(store.get(2))
      expect(mean._tag).toBe("VisualSpaceStoreError")
      expect(mean.message).toContain("mean")
    }).pipe(Effect.provide(layerOn()))
  )
})
