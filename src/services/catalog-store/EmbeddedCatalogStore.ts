import { Effect, Either, Layer, Option, Schema } from "effect"
import type { ProductRecord } from "../../domain/Product.js"
import {
  CatalogStore,
  type CatalogStoreService,
  type CatalogWrite,
  type CatalogWriteResult,
  StoreError,
  type TextVectorKey
} from "./CatalogStore.js"
import {
  ColorsJson,
  decodeImages,
  decodeRecord,
  decodeVector,
  encodeColors,
  encodeImages,
  encodeObjects,
  encodeRecord,
  encodeVector,
  encodeViews,
  splitViews,
  ObjectsJson,
  VectorBlob
} from "./CatalogCodec.js"
import {
  type DerivedProduct,
  dedupeImages,
  type ProductKey,
  type StoredImage,
  type StoredProduct
} from "../../model/StoredProduct.js"
import { ImageAnalysisRecord, type ImageObjects, type ImageSamples } from "../../model/ImageAnalysis.js"
import { Sqlite } from "../../platform/Sqlite.js"
import { compiledDecoder } from "../../domain/CompiledCheck.js"
import { sameEmbeddedText } from "../../model/ProductDocument.js"

const schema = `
CREATE TABLE IF NOT EXISTS products (
  site_id INTEGER NOT NULL,
  product_id TEXT NOT NULL,
  data TEXT NOT NULL,
  images TEXT NOT NULL,
  item_group_id TEXT,
  version INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  created_at INTEGER,
  text_version INTEGER,
  PRIMARY KEY (site_id, product_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS products_group ON products (site_id, item_group_id);
CREATE TABLE IF NOT EXISTS product_derived (
  site_id INTEGER NOT NULL,
  product_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  text_vector BLOB,
  text_key TEXT,
  PRIMARY KEY (site_id, product_id)
) WITHOUT ROWID;
-- The reconcile pass (every minute) compares every product's text version with its derived
-- data's version. Both tables' rows are large (the record's JSON, a 2 KB vector), so narrow
-- indexes let it read 40 bytes a product instead: 1.4 s → 40 ms at 100,000 products, on the
-- event loop (products_versions is made after the column, below; it holds the version too,
-- which the pass reports).
CREATE INDEX IF NOT EXISTS product_derived_version ON product_derived (site_id, product_id, version);
CREATE TABLE IF NOT EXISTS product_image_analyses (
  site_id INTEGER NOT NULL,
  product_id TEXT NOT NULL,
  image_id TEXT NOT NULL,
  url TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  embedding BLOB,
  adult REAL,
  colors TEXT NOT NULL,
  objects TEXT NOT NULL,
  analyzed_at INTEGER NOT NULL,
  color_signature BLOB,
  -- The features of the image's views, last: a read of the other columns never walks past them.
  views BLOB,
  PRIMARY KEY (site_id, product_id, image_id)
) WITHOUT ROWID;
-- Products whose images still need a pass: an image without analysis (unanalysed), an analysed
-- image whose objects are pending (undetected). Every write of images or analyses keeps it in
-- step in its transaction, so the reconcile pass reads only these rows, not the catalog.
CREATE TABLE IF NOT EXISTS product_image_work (
  site_id INTEGER NOT NULL,
  product_id TEXT NOT NULL,
  unanalysed INTEGER NOT NULL,
  undetected INTEGER NOT NULL,
  PRIMARY KEY (site_id, product_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS store_sequence (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO store_sequence VALUES ('product_version', 0);
`

/** A products row; `data` and `images` are JSON, decoded with the shared codec (`data` by `decodeRecord`). */
const ProductRow = Schema.Struct({
  site_id: Schema.Number,
  product_id: Schema.String,
  data: Schema.String,
  images: Schema.String,
  version: Schema.Number,
  updated_at: Schema.Number,
  /** Null in rows written before the column existed: their update time stands in. */
  created_at: Schema.optionalWith(Schema.NullOr(Schema.Number), { exact: true }),
  text_version: Schema.Number
})
type ProductRow = typeof ProductRow.Encoded
const decodeProductRow = compiledDecoder(ProductRow)
/** The columns of a ProductRow, selected by name: a row with other columns is not one (see CompiledCheck). */
const PRODUCT_COLUMNS = Object.keys(ProductRow.fields).join(", ")

const toProduct = (row: ProductRow): StoredProduct => {
  const { site_id, product_id, data, images, version, updated_at, created_at, text_version } = Either.getOrThrowWith(
    decodeProductRow(row),
    (e) => e
  )
  return {
    siteId: site_id,
    productId: product_id,
    data: decodeRecord(data),
    images: decodeImages(images),
    version,
    textVersion: text_version,
    updatedAt: updated_at,
    createdAt: created_at ?? updated_at
  }
}

/** A product_image_analyses row: the analysis in columns, colours and objects as JSON, the embedding as a blob. */
const AnalysisRow = Schema.Struct({
  image_id: Schema.String,
  url: Schema.String,
  status: ImageAnalysisRecord.fields.status,
  reason: Schema.NullOr(Schema.String),
  embedding: VectorBlob,
  color_signature: Schema.NullOr(Schema.Uint8ArrayFromSelf),
  adult: Schema.NullOr(Schema.Number),
  colors: ColorsJson,
  objects: ObjectsJson,
  analyzed_at: Schema.Number
})
type AnalysisRow = typeof AnalysisRow.Encoded
const decodeAnalysisRow = Schema.decodeUnknownSync(AnalysisRow)

const toAnalysis = (row: AnalysisRow): ImageAnalysisRecord => {
  const r = decodeAnalysisRow(row)
  return {
    imageId: r.image_id,
    url: r.url,
    status: r.status,
    reason: r.reason,
    embedding: r.embedding,
    ...(r.color_signature === null ? {} : { colorSignature: r.color_signature }),
    adult: r.adult,
    colors: r.colors,
    objects: r.objects,
    analyzedAt: r.analyzed_at
  }
}

const attempt = <A>(what: string, f: () => A) =>
  Effect.try({
    try: f,
    catch: (cause) => new StoreError({ message: `catalog store: ${what} failed: ${String(cause)}`, cause })
  })

/** The embedded CatalogStore: SQLite tables in the process's data directory. */
const layer = Layer.effect(
  CatalogStore,
  Effect.gen(function* () {
    const db = yield* Sqlite
    const hadImageWork =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'product_image_work'").get() !== undefined
    db.exec(schema)
    // Stores made before products kept their creation time gain the column (null until pushed again).
    const productColumns = db.prepare("SELECT name FROM pragma_table_info('products')").all() as Array<{ name: string }>
    if (!productColumns.some((c) => c.name === "created_at"))
      db.exec("ALTER TABLE products ADD COLUMN created_at INTEGER")
    // Likewise the key of the text a vector came from (none: the next change of the product re-embeds it).
    const derivedColumns = db.prepare("SELECT name FROM pragma_table_info('product_derived')").all() as Array<{
      name: string
    }>
    if (!derivedColumns.some((c) => c.name === "text_key"))
      db.exec("ALTER TABLE product_derived ADD COLUMN text_key TEXT")
    // And an image's colour signature and the features of its views, in this order (older
    // analyses have neither: their photo counts once, without its colours).
    const analysisColumns = db.prepare("SELECT name FROM pragma_table_info('product_image_analyses')").all() as Array<{
      name: string
    }>
    if (!analysisColumns.some((c) => c.name === "color_signature"))
      db.exec("ALTER TABLE product_image_analyses ADD COLUMN color_signature BLOB")
    if (!analysisColumns.some((c) => c.name === "views"))
      db.exec("ALTER TABLE product_image_analyses ADD COLUMN views BLOB")
    // And the text version (until then every write counted as a new text: derived data fits the
    // version it was saved for).
    if (!productColumns.some((c) => c.name === "text_version")) {
      db.transaction(() => {
        db.exec("ALTER TABLE products ADD COLUMN text_version INTEGER")
        db.exec("UPDATE products SET text_version = version")
        db.exec("DROP INDEX IF EXISTS products_version")
      })()
    }
    db.exec("CREATE INDEX IF NOT EXISTS products_versions ON products (site_id, product_id, text_version, version)")
    const nextVersion = db.prepare(
      "UPDATE store_sequence SET value = value + 1 WHERE name = 'product_version' RETURNING value"
    )
    const selectOne = db.prepare(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE site_id = ? AND product_id = ?`)
    const upsert =
      db.prepare(`INSERT INTO products (site_id, product_id, data, images, item_group_id, version, updated_at,
        created_at, text_version)
      VALUES (@site_id, @product_id, @data, @images, @item_group_id, @version, @updated_at, @created_at, @text_version)
      ON CONFLICT (site_id, product_id) DO UPDATE SET data = excluded.data, images = excluded.images,
        item_group_id = excluded.item_group_id, version = excluded.version, updated_at = excluded.updated_at,
        text_version = excluded.text_version`)
    const deleteProduct = db.prepare("DELETE FROM products WHERE site_id = ? AND product_id = ?")
    const deleteDerived = db.prepare("DELETE FROM product_derived WHERE site_id = ? AND product_id = ?")
    const deleteDerivedVersion =
      db.prepare(`DELETE FROM product_derived WHERE site_id = @site_id AND product_id = @product_id
      AND version = (SELECT text_version FROM products
        WHERE site_id = @site_id AND product_id = @product_id AND version = @version)`)
    const markStaleTx = db.transaction((keys: ReadonlyArray<ProductKey & { readonly version: number }>) => {
      for (const k of keys) deleteDerivedVersion.run({ site_id: k.siteId, product_id: k.productId, version: k.version })
    })
    const selectGroup = db.prepare(
      `SELECT ${PRODUCT_COLUMNS} FROM products WHERE site_id = ? AND item_group_id = ? ORDER BY product_id`
    )
    const saveDerivedStmt =
      db.prepare(`INSERT INTO product_derived (site_id, product_id, version, text_vector, text_key)
      SELECT @site_id, @product_id, @version, @text_vector, @text_key
      WHERE EXISTS (SELECT 1 FROM products
        WHERE site_id = @site_id AND product_id = @product_id AND text_version = @version)
      ON CONFLICT (site_id, product_id) DO UPDATE SET version = excluded.version, text_vector = excluded.text_vector,
        text_key = excluded.text_key`)
    const reuseVector = db.prepare(`UPDATE product_derived SET version = @version
      WHERE site_id = @site_id AND product_id = @product_id AND text_key = @text_key
        AND EXISTS (SELECT 1 FROM products
          WHERE site_id = @site_id AND product_id = @product_id AND text_version = @version)
      RETURNING text_vector`)
    const reuseTx = db.transaction((items: ReadonlyArray<TextVectorKey>) =>
      items.map((k) => {
        const row = reuseVector.get({
          site_id: k.siteId,
          product_id: k.productId,
          version: k.version,
          text_key: k.textKey
        }) as { text_vector: Buffer | null } | undefined
        return row === undefined ? null : decodeVector(row.text_vector)
      })
    )
    // INDEXED BY: SQLite prefers a WITHOUT ROWID table's primary key for the join, which reads the rows.
    const selectStale =
      db.prepare(`SELECT p.site_id, p.product_id, p.version FROM products p INDEXED BY products_versions
      LEFT JOIN product_derived d INDEXED BY product_derived_version
        ON d.site_id = p.site_id AND d.product_id = p.product_id
      WHERE d.version IS NULL OR d.version <> p.text_version LIMIT ?`)
    const selectProductPage =
      db.prepare(`SELECT p.*, d.version AS derived_version, d.text_vector, d.text_key FROM products p
      LEFT JOIN product_derived d ON d.site_id = p.site_id AND d.product_id = p.product_id
      WHERE (p.site_id, p.product_id) > (?, ?) ORDER BY p.site_id, p.product_id LIMIT ?`)
    const countSite = db.prepare("SELECT count(*) AS n FROM products WHERE site_id = ?")
    const lastWrite = db.prepare<[number], { at: number | null }>(
      "SELECT max(updated_at) AS at FROM products WHERE site_id = ?"
    )
    const failedProducts = db.prepare<[number], { n: number }>(
      "SELECT count(DISTINCT product_id) AS n FROM product_image_analyses WHERE site_id = ? AND status = 'failed'"
    )
    const failedImages = db.prepare<
      [number, number, number],
      { product_id: string; url: string; reason: string | null }
    >(
      `SELECT product_id, url, reason FROM product_image_analyses WHERE site_id = ? AND status = 'failed'
       AND product_id IN (SELECT DISTINCT product_id FROM product_image_analyses
                          WHERE site_id = ? AND status = 'failed' ORDER BY product_id LIMIT ?)
       ORDER BY product_id, url`
    )
    const selectAnalyses =
      db.prepare(`SELECT image_id, url, status, reason, embedding, color_signature, adult, colors, objects, analyzed_at
      FROM product_image_analyses WHERE site_id = ? AND product_id = ?`)
    const selectSamples = db.prepare<
      [number, string],
      { image_id: string; url: string; embedding: Buffer; views: Buffer | null }
    >(
      "SELECT image_id, url, embedding, views FROM product_image_analyses " +
        "WHERE site_id = ? AND product_id = ? AND embedding IS NOT NULL"
    )
    const selectIds = db.prepare<[number, string, number], { product_id: string }>(
      "SELECT product_id FROM products WHERE site_id = ? AND product_id > ? ORDER BY product_id LIMIT ?"
    )
    const deleteAnalyses = db.prepare("DELETE FROM product_image_analyses WHERE site_id = ? AND product_id = ?")
    const deleteAnalysis = db.prepare(
      "DELETE FROM product_image_analyses WHERE site_id = ? AND product_id = ? AND image_id = ?"
    )
    // The first of two racing analyses of an image wins (see CatalogStore.saveImageAnalyses).
    const insertAnalysis = db.prepare(`INSERT OR IGNORE INTO product_image_analyses
      (site_id, product_id, image_id, url, status, reason, embedding, color_signature, adult, colors, objects,
        analyzed_at)
      VALUES (@site_id, @product_id, @image_id, @url, @status, @reason, @embedding, @color_signature, @adult, @colors,
        @objects, @analyzed_at)`)
    const fillViews = db.prepare(`UPDATE product_image_analyses SET views = ?
      WHERE site_id = ? AND product_id = ? AND image_id = ? AND views IS NULL AND embedding IS NOT NULL`)
    // Rows exist only for images the product has (put deletes the others in its transaction),
    // so the row's existence is the "still has it" check. Pending detection is stored as JSON null.
    const fillObjects = db.prepare(`UPDATE product_image_analyses SET objects = @objects
      WHERE site_id = @site_id AND product_id = @product_id AND image_id = @image_id
        AND status = 'ok' AND objects = 'null'`)

    const selectAnalysisState = db.prepare(
      "SELECT image_id, objects = 'null' AS undetected FROM product_image_analyses WHERE site_id = ? AND product_id = ?"
    )
    const upsertImageWork = db.prepare(`INSERT INTO product_image_work VALUES (?, ?, ?, ?)
      ON CONFLICT (site_id, product_id) DO UPDATE SET unanalysed = excluded.unanalysed,
        undetected = excluded.undetected`)
    const deleteImageWork = db.prepare("DELETE FROM product_image_work WHERE site_id = ? AND product_id = ?")
    const selectUnanalysed = db.prepare(
      "SELECT site_id, product_id FROM product_image_work WHERE unanalysed = 1 LIMIT ?"
    )
    const selectUndetected = db.prepare(
      "SELECT site_id, product_id FROM product_image_work WHERE undetected = 1 LIMIT ?"
    )

    /** Files the product in product_image_work from its current images and analyses (inside a write's transaction). */
    const refreshImageWork = (siteId: number, productId: string, images: ReadonlyArray<StoredImage>) => {
      const rows = selectAnalysisState.all(siteId, productId) as Array<{ image_id: string; undetected: number }>
      const analysed = new Set(rows.map((r) => r.image_id))
      const unanalysed = images.some((i) => !analysed.has(i.id))
      const undetected = rows.some((r) => r.undetected === 1)
      if (unanalysed || undetected) upsertImageWork.run(siteId, productId, unanalysed ? 1 : 0, undetected ? 1 : 0)
      else deleteImageWork.run(siteId, productId)
    }
    const imagesOf = (siteId: number, productId: string): ReadonlyArray<StoredImage> => {
      const row = selectOne.get(siteId, productId) as ProductRow | undefined
      return row === undefined ? [] : decodeImages(row.images)
    }
    // The table came after the data: a store that did not have it files every product once.
    if (!hadImageWork) {
      db.transaction(() => {
        const all = db.prepare("SELECT site_id, product_id, images FROM products WHERE images <> '[]'").all() as Array<
          Pick<ProductRow, "site_id" | "product_id" | "images">
        >
        for (const row of all) refreshImageWork(row.site_id, row.product_id, decodeImages(row.images))
      })()
    }

    /** Analyses of the images the product currently has, in the product's image order. */
    const currentAnalyses = (siteId: number, productId: string, images: ReadonlyArray<StoredImage>) => {
      const rows = new Map((selectAnalyses.all(siteId, productId) as Array<AnalysisRow>).map((r) => [r.image_id, r]))
      return images.flatMap((i) => {
        const row = rows.get(i.id)
        return row ? [toAnalysis(row)] : []
      })
    }

    const putIn = (
      siteId: number,
      productId: string,
      data: ProductRecord,
      images: ReadonlyArray<{ url: string }> | undefined,
      existing: ProductRow | undefined = selectOne.get(siteId, productId) as ProductRow | undefined,
      /**
       * `existing` decoded, when a Modify read it: a write that leaves its embedded text keeps
       * its text version (a put always starts a new one), and kept images need no decoding.
       */
      previous?: StoredProduct
    ) => {
      const storedImages: ReadonlyArray<StoredImage> =
        images === undefined
          ? existing
            ? (previous?.images ?? decodeImages(existing.images))
            : []
          : dedupeImages(images)
      const { value: version } = nextVersion.get() as { value: number }
      const now = Date.now()
      const row: ProductRow & { item_group_id: string | null } = {
        site_id: siteId,
        product_id: productId,
        data: encodeRecord(data),
        // Kept images keep their stored JSON.
        images: images === undefined && existing !== undefined ? existing.images : encodeImages(storedImages),
        item_group_id: data.item_group_id ?? null,
        version,
        updated_at: now,
        created_at: existing === undefined ? now : (existing.created_at ?? existing.updated_at),
        text_version: previous !== undefined && sameEmbeddedText(previous.data, data) ? previous.textVersion : version
      }
      upsert.run(row)
      // Analyses of images the product no longer has are stale derived data (kept images: none).
      if (images !== undefined) {
        const kept = new Set(storedImages.map((i) => i.id))
        for (const a of selectAnalyses.all(siteId, productId) as Array<AnalysisRow>) {
          if (!kept.has(a.image_id)) deleteAnalysis.run(siteId, productId, a.image_id)
        }
        refreshImageWork(siteId, productId, storedImages)
      }
      // The record as given (already decoded): decoding the row just encoded would cost as much again.
      const product: StoredProduct = {
        siteId,
        productId,
        data,
        images: storedImages,
        version,
        textVersion: row.text_version,
        updatedAt: now,
        createdAt: row.created_at ?? now
      }
      return { product, created: existing === undefined }
    }
    const putTx = db.transaction(putIn)

    const removeIn = (siteId: number, productId: string) => {
      const existing = selectOne.get(siteId, productId) as ProductRow | undefined
      if (existing === undefined) return undefined
      deleteProduct.run(siteId, productId)
      deleteDerived.run(siteId, productId)
      deleteAnalyses.run(siteId, productId)
      deleteImageWork.run(siteId, productId)
      return toProduct(existing)
    }
    const removeTx = db.transaction(removeIn)

    // One transaction: the writes see each other in order, and a Modify reads and writes with
    // nothing in between (the store has one writer, this process).
    const writeManyTx = db.transaction((siteId: number, writes: ReadonlyArray<CatalogWrite>) =>
      writes.map((write): CatalogWriteResult => {
        switch (write._tag) {
          case "Put": {
            const { created, product } = putIn(siteId, write.productId, write.data, write.images)!
            return { _tag: "Written", product, created }
          }
          case "Modify": {
            const row = selectOne.get(siteId, write.productId) as ProductRow | undefined
            if (row === undefined) return { _tag: "Absent" }
            const previous = toProduct(row)
            const fields = write.modify(previous)
            if (Either.isLeft(fields)) return { _tag: "Refused", message: fields.left }
            const { product } = putIn(siteId, write.productId, fields.right.data, fields.right.images, row, previous)!
            return { _tag: "Written", product, created: false, previous }
          }
          case "Remove": {
            const product = removeIn(siteId, write.productId)
            return product === undefined ? { _tag: "Absent" } : { _tag: "Removed", product }
          }
        }
      })
    )

    const saveDerivedTx = db.transaction((items: ReadonlyArray<DerivedProduct>) => {
      let saved = 0
      for (const d of items) {
        saved += saveDerivedStmt.run({
          site_id: d.siteId,
          product_id: d.productId,
          version: d.version,
          text_vector: encodeVector(d.textVector),
          text_key: d.textKey ?? null
        }).changes
      }
      return saved
    })

    const saveAnalysesTx = db.transaction(
      (siteId: number, productId: string, analyses: ReadonlyArray<ImageAnalysisRecord>) => {
        const row = selectOne.get(siteId, productId) as ProductRow | undefined
        if (row === undefined) return 0
        const images = decodeImages(row.images)
        const current = new Set(images.map((i) => i.id))
        let kept = 0
        for (const a of analyses) {
          if (!current.has(a.imageId)) continue
          kept += insertAnalysis.run({
            site_id: siteId,
            product_id: productId,
            image_id: a.imageId,
            url: a.url,
            status: a.status,
            reason: a.reason,
            embedding: encodeVector(a.embedding),
            color_signature:
              a.colorSignature === undefined
                ? null
                : Buffer.from(a.colorSignature.buffer, a.colorSignature.byteOffset, a.colorSignature.byteLength),
            adult: a.adult,
            colors: encodeColors(a.colors),
            objects: encodeObjects(a.objects),
            analyzed_at: a.analyzedAt
          }).changes
        }
        if (kept > 0) refreshImageWork(siteId, productId, images)
        return kept
      }
    )

    const saveObjectsTx = db.transaction(
      (siteId: number, productId: string, detections: ReadonlyArray<ImageObjects>) => {
        let saved = 0
        for (const d of detections) {
          saved += fillObjects.run({
            site_id: siteId,
            product_id: productId,
            image_id: d.imageId,
            objects: encodeObjects(d.objects)
          }).changes
        }
        if (saved > 0) refreshImageWork(siteId, productId, imagesOf(siteId, productId))
        return saved
      }
    )

    const service: CatalogStoreService = {
      put: (siteId, productId, data, images) => attempt("put", () => putTx(siteId, productId, data, images)!),
      writeMany: (siteId, writes) => attempt("writeMany", () => writeManyTx(siteId, writes)),
      get: (siteId, productId) =>
        attempt("get", () =>
          Option.fromNullable(selectOne.get(siteId, productId) as ProductRow | undefined).pipe(Option.map(toProduct))
        ),
      getMany: (siteId, productIds) =>
        attempt("getMany", () => {
          const out: Array<StoredProduct> = []
          for (const id of productIds) {
            const row = selectOne.get(siteId, id) as ProductRow | undefined
            if (row) out.push(toProduct(row))
          }
          return out
        }),
      byItemGroup: (siteId, groupId) =>
        attempt("byItemGroup", () => (selectGroup.all(siteId, groupId) as Array<ProductRow>).map(toProduct)),
      remove: (siteId, productId) => attempt("remove", () => Option.fromNullable(removeTx(siteId, productId))),
      saveDerived: (items) => attempt("saveDerived", () => saveDerivedTx(items)),
      reuseTextVectors: (items) => attempt("reuseTextVectors", () => reuseTx(items)),
      markStale: (keys) => attempt("markStale", () => markStaleTx(keys)),
      stale: (limit) =>
        attempt("stale", () =>
          (selectStale.all(limit) as Array<{ site_id: number; product_id: string; version: number }>).map((r) => ({
            siteId: r.site_id,
            productId: r.product_id,
            version: r.version
          }))
        ),
      pendingImageWork: (limit) =>
        attempt("pendingImageWork", () => {
          const keys = (rows: Array<Pick<ProductRow, "site_id" | "product_id">>) =>
            rows.map((r) => ({ siteId: r.site_id, productId: r.product_id }))
          return {
            analyze: keys(selectUnanalysed.all(limit) as Array<ProductRow>),
            detect: keys(selectUndetected.all(limit) as Array<ProductRow>)
          }
        }),
      forEachProduct: (pageSize, visit) =>
        Effect.gen(function* () {
          let after: [number, string] = [-1, ""]
          let total = 0
          while (true) {
            const rows = yield* attempt(
              "scan",
              () =>
                selectProductPage.all(after[0], after[1], pageSize) as Array<
                  ProductRow & { derived_version: number | null; text_vector: Buffer | null; text_key: string | null }
                >
            )
            if (rows.length === 0) return total
            const page = yield* attempt("scan", () =>
              rows.map((row) => {
                const product = toProduct(row)
                return {
                  product,
                  derived:
                    row.derived_version === null
                      ? null
                      : {
                          siteId: row.site_id,
                          productId: row.product_id,
                          version: row.derived_version,
                          textVector: decodeVector(row.text_vector),
                          ...(row.text_key === null ? {} : { textKey: row.text_key })
                        },
                  images:
                    product.images.length === 0 ? [] : currentAnalyses(row.site_id, row.product_id, product.images)
                }
              })
            )
            yield* visit(page)
            total += rows.length
            const last = rows[rows.length - 1]
            after = [last.site_id, last.product_id]
          }
        }),
      count: (siteId) => attempt("count", () => (countSite.get(siteId) as { n: number }).n),
      lastWrite: (siteId) => attempt("lastWrite", () => Option.fromNullable(lastWrite.get(siteId)?.at ?? null)),
      imageFailures: (siteId, limit) =>
        attempt("imageFailures", () => ({
          products: failedProducts.get(siteId)!.n,
          images: failedImages
            .all(siteId, siteId, limit)
            .map((row) => ({ productId: row.product_id, url: row.url, reason: row.reason ?? "" }))
        })),
      saveImageAnalyses: (siteId, productId, analyses) =>
        attempt("saveImageAnalyses", () => saveAnalysesTx(siteId, productId, analyses)),
      saveImageObjects: (siteId, productId, detections) =>
        attempt("saveImageObjects", () => saveObjectsTx(siteId, productId, detections)),
      imageAnalyses: (siteId, productId) =>
        attempt("imageAnalyses", () => {
          const row = selectOne.get(siteId, productId) as ProductRow | undefined
          return row ? currentAnalyses(siteId, productId, decodeImages(row.images)) : []
        }),
      productIds: (siteId, after, limit) =>
        attempt("productIds", () => selectIds.all(siteId, after, limit).map((r) => r.product_id)),
      imageSamples: (siteId, productIds) =>
        attempt("imageSamples", () =>
          productIds.flatMap((productId) =>
            selectSamples.all(siteId, productId).map((r): ImageSamples => {
              const embedding = decodeVector(r.embedding)!
              return {
                productId,
                imageId: r.image_id,
                url: r.url,
                vectors: [embedding, ...(splitViews(decodeVector(r.views), embedding.length) ?? [])]
              }
            })
          )
        ),
      saveImageViews: (siteId, productId, views) =>
        attempt("saveImageViews", () =>
          db.transaction(() =>
            views.reduce((n, v) => n + fillViews.run(encodeViews(v.views), siteId, productId, v.imageId).changes, 0)
          )()
        )
    }
    return service
  })
)

export const EmbeddedCatalogStore = { layer }
