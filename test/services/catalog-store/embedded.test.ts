import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { AppConfig } from "../../../src/config/AppConfig.js"
import type { ProductRecord } from "../../../src/domain/Product.js"
import { CatalogStore } from "../../../src/services/catalog-store/CatalogStore.js"
import { EmbeddedCatalogStore } from "../../../src/services/catalog-store/EmbeddedCatalogStore.js"
import { Sqlite } from "../../../src/platform/Sqlite.js"
import { catalogStoreConformance } from "./conformance.js"

/** The embedded CatalogStore on a fresh temporary data dir. */
const sqliteCatalogLayer = (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-catalog-"))) =>
  EmbeddedCatalogStore.pipe(
    Layer.provide(Sqlite.layer),
    Layer.provide(AppConfig.make({ dataDir, sitesFile: path.join(dataDir, "sites.json") }))
  )

catalogStoreConformance("sqlite", () => sqliteCatalogLayer())

describe("EmbeddedCatalogStore", () => {
  it.live("a store made before product_image_work files every product's image work once", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-catalog-"))
    const open = Effect.map(Layer.build(EmbeddedCatalogStore), (context) => Context.get(context, CatalogStore))
    return Effect.gen(function*() {
      const store = yield* open
      const image = (n: string) => ({ url: `https://img.example.com/${n}.jpg` })
      yield* store.put(1, "new-photo", { title: "a" } as ProductRecord, [image("a")])
      const [b] = (yield* store.put(2, "undetected", { title: "b" } as ProductRecord, [image("b")])).product.images
      yield* store.saveImageAnalyses(2, "undetected", [{
        imageId: b.id, url: b.url, status: "ok", reason: null, embedding: new Float32Array([1]), adult: 0, colors: [], objects: null, analyzedAt: 1
      }])
      yield* store.put(1, "no-photo", { title: "c" } as ProductRecord, undefined)
      // As a data dir written by a version without the table.
      const db = yield* Sqlite
      db.exec("DROP TABLE product_image_work")
      const reopened = yield* open
      expect(yield* reopened.pendingImageWork(10)).toEqual({
        analyze: [{ siteId: 1, productId: "new-photo" }],
        detect: [{ siteId: 2, productId: "undetected" }]
      })
    }).pipe(
      Effect.scoped,
      Effect.provide(Sqlite.layer.pipe(Layer.provide(AppConfig.make({ dataDir, sitesFile: path.join(dataDir, "sites.json") }))))
    )
  })
})
