import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Either, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { settings } from "../../support/Settings.js"
import type { ProductRecord } from "../../../src/domain/Product.js"
import { CatalogStore } from "../../../src/services/catalog-store/CatalogStore.js"
import { EmbeddedCatalogStore } from "../../../src/services/catalog-store/EmbeddedCatalogStore.js"
import { Sqlite } from "../../../src/platform/Sqlite.js"
import { catalogStoreConformance, seedImageWork } from "./conformance.js"
import { onSqlite } from "../../support/SqliteLayer.js"

/** The embedded CatalogStore on a fresh temporary data dir (with its SQLite database, for tests that reach into it). */
const embeddedCatalogStoreLayer = (dataDir?: string) =>
  onSqlite(EmbeddedCatalogStore.layer, "commerce-catalog-", dataDir)

catalogStoreConformance("embedded", () => embeddedCatalogStoreLayer())

describe("EmbeddedCatalogStore", () => {
  it.effect("a stored row that does not decode fails the read with a StoreError", () =>
    Effect.gen(function* () {
      const store = yield* CatalogStore
      const { product } = yield* store.put(1, "p", { title: "x" } as ProductRecord, [
        { url: "https://img.example.com/a.jpg" }
      ])
      yield* store.saveDerived([{ siteId: 1, productId: "p", version: product.version, textVector: null }])
      const db = yield* Sqlite
      db.prepare(`UPDATE products SET data = '{"title": 5}' WHERE product_id = 'p'`).run()
      expect(yield* Effect.flip(store.get(1, "p"))).toMatchObject({
        _tag: "StoreError",
        message: expect.stringContaining("title")
      })
      db.prepare(`UPDATE products SET data = '{"title": "x"}', images = 'not json' WHERE product_id = 'p'`).run()
      expect(yield* Effect.flip(store.getMany(1, ["p"]))).toMatchObject({ _tag: "StoreError" })
      // The startup restore too: a failed read, not a crash.
      expect(yield* Effect.flip(store.forEachProduct(10, () => Effect.void))).toMatchObject({ _tag: "StoreError" })
    }).pipe(Effect.provide(embeddedCatalogStoreLayer()))
  )

  it.live("a store made before product_image_work files every product's image work once", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-catalog-"))
    const open = Effect.map(Layer.build(EmbeddedCatalogStore.layer), (context) => Context.get(context, CatalogStore))
    return Effect.gen(function* () {
      const store = yield* open
      const expected = yield* seedImageWork(store)
      // As a data dir written by a version without the table.
      const db = yield* Sqlite
      db.exec("DROP TABLE product_image_work")
      const reopened = yield* open
      expect(yield* reopened.pendingImageWork(10)).toEqual(expected)
    }).pipe(Effect.scoped, Effect.provide(Sqlite.layer.pipe(Layer.provide(settings({ DATA_DIR: dataDir })))))
  })

  it.live(
    "a store made before text versions counts each product's version as its text version, keeping its derived data",
    () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-catalog-"))
      const open = Effect.map(Layer.build(EmbeddedCatalogStore.layer), (context) => Context.get(context, CatalogStore))
      return Effect.gen(function* () {
        const store = yield* open
        const { product } = yield* store.put(1, "p", { title: "Drill", price: 5 } as ProductRecord, undefined)
        yield* store.put(1, "q", { title: "Saw" } as ProductRecord, undefined)
        yield* store.saveDerived([
          { siteId: 1, productId: "p", version: product.version, textVector: new Float32Array([1, 0]) }
        ])
        // As a data dir written by a version without the column.
        const db = yield* Sqlite
        db.exec("DROP INDEX products_versions; ALTER TABLE products DROP COLUMN text_version")
        db.exec("CREATE INDEX products_version ON products (site_id, product_id, version)")
        const reopened = yield* open
        expect((yield* reopened.stale(10)).map((k) => k.productId)).toEqual(["q"])
        const [patched] = yield* reopened.writeMany(1, [
          {
            _tag: "Modify",
            productId: "p",
            modify: (current) => Either.right({ data: { ...current.data, price: 4 } as ProductRecord })
          }
        ])
        expect(patched).toMatchObject({ _tag: "Written", product: { textVersion: product.version } })
        expect((yield* reopened.stale(10)).map((k) => k.productId)).toEqual(["q"])
        expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'products_version'").get()).toBeUndefined()
      }).pipe(Effect.scoped, Effect.provide(Sqlite.layer.pipe(Layer.provide(settings({ DATA_DIR: dataDir })))))
    }
  )
})
