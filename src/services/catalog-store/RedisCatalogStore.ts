import { connectFailFast } from "../../platform/redis/FailFastRedis.js"
import { execAll } from "../../platform/redis/Transaction.js"
import { Effect, Either, Layer, Option } from "effect"
import type { Redis } from "ioredis"
import {
  CatalogStore,
  type CatalogStoreService,
  type CatalogWrite,
  type CatalogWriteResult,
  MODIFY_ATTEMPTS,
  StoreError
} from "./CatalogStore.js"
import { type DerivedProduct, dedupeImages, type ProductKey, type StoredProduct } from "../../model/StoredProduct.js"
import type { ImageAnalysisRecord, ImageSamples } from "../../model/ImageAnalysis.js"
import type { ProductRecord } from "../../domain/Product.js"
import { inImageOrder, toProduct } from "./redis/RedisCodec.js"
import { sameEmbeddedText } from "../../model/ProductDocument.js"
import {
  decodeAnalysis,
  decodeImages,
  decodeVector,
  encodeAnalysis,
  encodeImages,
  encodeRecord,
  encodeVector,
  encodeViews,
  splitViews
} from "./CatalogCodec.js"
import { batchedScript, bufferScript, script } from "../../platform/redis/LuaScript.js"
import {
  imageWorkKey,
  markStaleLua,
  productFields,
  reuseTextVectorLua,
  putLua,
  refreshImageWorkLua,
  removeLua,
  saveAnalysesLua,
  saveDerivedLua,
  saveViewsLua,
  saveObjectsLua,
  seqKey,
  siteKeys,
  sitesKey
} from "./redis/CatalogLayout.js"

/**
 * The distributed CatalogStore on Redis (layout and atomicity in redis/CatalogLayout.ts).
 * Durability is Redis's: with AOF and appendfsync everysec an acknowledged put survives a
 * restart, and a crash of the Redis host may lose about the last second.
 */
const call = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({
    try: f,
    catch: (cause) => new StoreError({ message: `catalog store: ${what} failed: ${String(cause)}`, cause })
  })

const exec = execAll

export const makeRedisCatalogStore = (client: Redis): CatalogStoreService => {
  // Puts of concurrent requests (a bulk push) share one pipeline; each still gets its own reply.
  const putScript = batchedScript(client, putLua)
  const removeScript = script(client, removeLua)
  const saveDerivedScript = script(client, saveDerivedLua)
  const markStaleScript = script(client, markStaleLua)
  const reuseTextVectorScript = bufferScript(client, reuseTextVectorLua)
  const saveAnalysesScript = script(client, saveAnalysesLua)
  const saveViewsScript = script(client, saveViewsLua)
  const saveObjectsScript = script(client, saveObjectsLua)
  const refreshImageWorkScript = script(client, refreshImageWorkLua)

  const sites = call("sites", () => client.smembers(sitesKey)).pipe(
    Effect.map((ids) => ids.map(Number).sort((a, b) => a - b))
  )
  const getMany = (
    siteId: number,
    productIds: ReadonlyArray<string>
  ): Effect.Effect<ReadonlyArray<StoredProduct>, StoreError> =>
    productIds.length === 0
      ? Effect.succeed([] as ReadonlyArray<StoredProduct>)
      : call("getMany", async () => {
          const keys = siteKeys(siteId)
          const tx = client.pipeline()
          for (const id of productIds) tx.hmget(keys.product(id), ...productFields)
          const rows = await exec(tx)
          return rows.flatMap((row, i) => {
            const product = toProduct(siteId, productIds[i], row as Array<string | null>)
            return product === null ? [] : [product]
          })
        })

  /**
   * The image-work sets came after the data: the first reader files every product once (a
   * concurrent second reader repeats the same idempotent work), then marks it done. From then
   * on the write scripts keep them in step.
   */
  const fillImageWork = call("pendingImageWork", async () => {
    if ((await client.exists(imageWorkKey)) === 1) return
    for (const siteId of (await client.smembers(sitesKey)).map(Number)) {
      const keys = siteKeys(siteId)
      let after = "-"
      while (true) {
        const ids = await client.zrangebylex(keys.ids, after, "+", "LIMIT", 0, 1_000)
        if (ids.length === 0) break
        await Promise.all(
          ids.map((id) =>
            refreshImageWorkScript([keys.product(id), keys.images(id), keys.unanalysed, keys.undetected], [id])
          )
        )
        after = `(${ids[ids.length - 1]}`
      }
    }
    await client.set(imageWorkKey, "1")
  })
  const membersOf = (set: "unanalysed" | "undetected", limit: number) =>
    Effect.gen(function* () {
      const out: Array<ProductKey> = []
      for (const siteId of yield* sites) {
        if (out.length >= limit) break
        const ids = yield* call("pendingImageWork", () =>
          client.zrange(siteKeys(siteId)[set], 0, limit - out.length - 1)
        )
        for (const productId of ids) out.push({ siteId, productId })
      }
      return out
    })

  /**
   * A put, or with `expectedVersion` a put only while the product is at that version (undefined
   * otherwise); `sameText`: the embedded text is the stored one's, so the text version stays.
   */
  const putPromise = (
    siteId: number,
    productId: string,
    data: ProductRecord,
    images: ReadonlyArray<{ readonly url: string }> | undefined,
    expectedVersion: number | undefined,
    sameText = false
  ): Promise<{ readonly created: boolean; readonly product: StoredProduct } | undefined> => {
    const keys = siteKeys(siteId)
    const group = data.item_group_id ?? null
    const replaced = images === undefined ? undefined : dedupeImages(images)
    const updatedAt = Date.now()
    return (
      putScript(
        [
          seqKey,
          sitesKey,
          keys.ids,
          keys.stale,
          keys.product(productId),
          keys.images(productId),
          group === null ? "" : keys.group(group),
          keys.unanalysed,
          keys.undetected,
          keys.views(productId)
        ],
        [
          siteId,
          productId,
          encodeRecord(data),
          updatedAt,
          keys.base,
          group ?? "",
          replaced ? "1" : "0",
          encodeImages(replaced ?? []),
          expectedVersion === undefined ? "" : String(expectedVersion),
          sameText ? "1" : "0",
          ...(replaced ?? []).map((i) => i.id)
        ]
      ) as Promise<[number, number, string, string, number]>
    ).then(([existed, version, storedImages, created, textVersion]) =>
      existed === -1
        ? undefined
        : {
            created: existed === 0,
            product: {
              siteId,
              productId,
              data,
              images: decodeImages(storedImages),
              version,
              textVersion,
              updatedAt,
              createdAt: Number(created)
            }
          }
    )
  }
  const putAt = (...args: Parameters<typeof putPromise>) => call("put", () => putPromise(...args))
  /** A Put write's result (an unconditional put always writes). */
  const putWrite = (siteId: number, write: Extract<CatalogWrite, { _tag: "Put" }>): Promise<CatalogWriteResult> =>
    putPromise(siteId, write.productId, write.data, write.images, undefined).then((w) => ({ _tag: "Written", ...w! }))

  const remove = (siteId: number, productId: string) => {
    const keys = siteKeys(siteId)
    return call("remove", () =>
      (
        removeScript(
          [
            keys.ids,
            keys.stale,
            keys.product(productId),
            keys.derived(productId),
            keys.images(productId),
            keys.unanalysed,
            keys.undetected,
            keys.views(productId)
          ],
          [productId, keys.base]
        ) as Promise<Array<string> | null>
      ).then((row) => (row === null ? null : toProduct(siteId, productId, row)))
    )
  }

  /**
   * A Modify reads, merges and writes over the version it read (the put script compares it), or
   * reads again. `read`: the record as read for a whole batch beforehand (null: absent then).
   */
  const modify = (siteId: number, write: Extract<CatalogWrite, { _tag: "Modify" }>, read?: StoredProduct | null) =>
    Effect.gen(function* () {
      for (let attempt = 0; attempt < MODIFY_ATTEMPTS; attempt++) {
        const [current] =
          attempt === 0 && read !== undefined
            ? read === null
              ? []
              : [read]
            : yield* getMany(siteId, [write.productId])
        if (current === undefined) return { _tag: "Absent" } as const
        const fields = write.modify(current)
        if (Either.isLeft(fields)) return { _tag: "Refused", message: fields.left } as const
        const sameText = sameEmbeddedText(current.data, fields.right.data)
        const written = yield* putAt(
          siteId,
          write.productId,
          fields.right.data,
          fields.right.images,
          current.version,
          sameText
        )
        if (written !== undefined)
          return { _tag: "Written", product: written.product, created: false, previous: current } as const
      }
      return { _tag: "Contended" } as const
    })

  const writeOne = (
    siteId: number,
    write: CatalogWrite,
    read?: StoredProduct | null
  ): Effect.Effect<CatalogWriteResult, StoreError> => {
    switch (write._tag) {
      case "Put":
        return call("put", () => putWrite(siteId, write))
      case "Modify":
        return modify(siteId, write, read)
      case "Remove":
        return Effect.map(remove(siteId, write.productId), (product) =>
          product === null ? { _tag: "Absent" } : { _tag: "Removed", product }
        )
    }
  }

  /** One page of a site's products after `after`, read in one MULTI so product, derived data and analyses agree. */
  const productPage = (siteId: number, after: string, pageSize: number) =>
    call("scan", async () => {
      const keys = siteKeys(siteId)
      const ids = await client.zrangebylex(keys.ids, after === "" ? "-" : `(${after}`, "+", "LIMIT", 0, pageSize)
      if (ids.length === 0) return { ids, rows: [] }
      const tx = client.multi()
      for (const id of ids) {
        tx.hmget(keys.product(id), ...productFields)
          .hmgetBuffer(keys.derived(id), "version", "vec", "key")
          .hgetall(keys.images(id))
      }
      const replies = await exec(tx)
      const rows = ids.flatMap((id, i) => {
        const product = toProduct(siteId, id, replies[3 * i] as Array<string | null>)
        if (product === null) return []
        const [version, vec, key] = replies[3 * i + 1] as Array<Buffer | null>
        const derived: DerivedProduct | null =
          version === null
            ? null
            : {
                siteId,
                productId: id,
                version: Number(version.toString()),
                textVector: decodeVector(vec),
                ...(key === null ? {} : { textKey: key.toString() })
              }
        return [
          { product, derived, images: inImageOrder(product.images, replies[3 * i + 2] as Record<string, string>) }
        ]
      })
      return { ids, rows }
    })

  return {
    put: (siteId, productId, data, images) =>
      Effect.map(putAt(siteId, productId, data, images, undefined), (written) => written!),
    writeMany: (siteId, writes) => {
      // Writes of one product in their order; different products at once (their scripts share
      // the pipeline that batchedScript fills).
      const results: Array<CatalogWriteResult | undefined> = writes.map(() => undefined)
      const byProduct = new Map<string, Array<number>>()
      writes.forEach((w, i) => byProduct.set(w.productId, [...(byProduct.get(w.productId) ?? []), i]))
      // The records that products' first writes modify, read in one pipeline (a batch of price
      // patches: one read for all of them, not one round trip each).
      const modified = [...byProduct.entries()].flatMap(([id, [first]]) =>
        writes[first]._tag === "Modify" ? [id] : []
      )
      return Effect.gen(function* () {
        const read = new Map<string, StoredProduct | null>(modified.map((id) => [id, null]))
        for (const product of modified.length === 0 ? [] : yield* getMany(siteId, modified))
          read.set(product.productId, product)
        // Products written by puts alone (a push of new versions, the common case) in one
        // promise: a fiber and a few effects per product cost a bulk push more than its encoding.
        const putsOnly: Array<ReadonlyArray<number>> = []
        const others: Array<ReadonlyArray<number>> = []
        for (const positions of byProduct.values())
          (positions.every((i) => writes[i]._tag === "Put") ? putsOnly : others).push(positions)
        const puts = call("put", () =>
          Promise.all(
            putsOnly.map((positions) =>
              positions.reduce(
                (before, i) =>
                  before.then(() =>
                    putWrite(siteId, writes[i] as Extract<CatalogWrite, { _tag: "Put" }>).then((r) => {
                      results[i] = r
                    })
                  ),
                Promise.resolve()
              )
            )
          )
        )
        const rest = Effect.forEach(
          others,
          (positions) =>
            Effect.forEach(
              positions,
              (i, k) =>
                Effect.map(
                  writeOne(siteId, writes[i], k === 0 ? read.get(writes[i].productId) : undefined),
                  (r) => (results[i] = r)
                ),
              { discard: true }
            ),
          { concurrency: "unbounded", discard: true }
        )
        yield* Effect.all([putsOnly.length === 0 ? Effect.void : puts, rest], { concurrency: 2, discard: true })
        return results as ReadonlyArray<CatalogWriteResult>
      })
    },
    get: (siteId, productId) => getMany(siteId, [productId]).pipe(Effect.map((rows) => Option.fromNullable(rows[0]))),
    getMany,
    byItemGroup: (siteId, groupId) =>
      call("byItemGroup", () => client.smembers(siteKeys(siteId).group(groupId))).pipe(
        Effect.flatMap((ids) => getMany(siteId, ids.sort()))
      ),
    remove: (siteId, productId) => Effect.map(remove(siteId, productId), Option.fromNullable),
    saveDerived: (items) =>
      call("saveDerived", () =>
        Promise.all(
          items.map((d) => {
            const keys = siteKeys(d.siteId)
            return saveDerivedScript(
              [keys.product(d.productId), keys.derived(d.productId), keys.stale],
              [
                d.productId,
                d.version,
                d.textVector === null ? "0" : "1",
                encodeVector(d.textVector) ?? "",
                d.textKey ?? ""
              ]
            ) as Promise<number>
          })
        )
      ).pipe(Effect.map((saved) => saved.reduce((a, b) => a + b, 0))),
    reuseTextVectors: (items) =>
      call("reuseTextVectors", () =>
        Promise.all(
          items.map((k) => {
            const keys = siteKeys(k.siteId)
            return reuseTextVectorScript(
              [keys.product(k.productId), keys.derived(k.productId), keys.stale],
              [k.productId, k.version, k.textKey]
            ).then(decodeVector)
          })
        )
      ),
    markStale: (keys) =>
      call("markStale", () =>
        Promise.all(
          keys.map((k) => {
            const site = siteKeys(k.siteId)
            return markStaleScript([site.product(k.productId), site.stale], [k.productId, k.version])
          })
        )
      ).pipe(Effect.asVoid),
    stale: (limit) =>
      Effect.gen(function* () {
        const out: Array<{ siteId: number; productId: string; version: number }> = []
        for (const siteId of yield* sites) {
          if (out.length >= limit) break
          const keys = siteKeys(siteId)
          const ids = yield* call("stale", () => client.zrange(keys.stale, 0, limit - out.length - 1))
          if (ids.length === 0) continue
          const versions = yield* call("stale", () =>
            client.pipeline(ids.map((id) => ["hget", keys.product(id), "version"])).exec()
          )
          ids.forEach((productId, i) => {
            const version = versions?.[i]?.[1]
            if (typeof version === "string") out.push({ siteId, productId, version: Number(version) })
          })
        }
        return out
      }),
    pendingImageWork: (limit) =>
      Effect.zipRight(
        fillImageWork,
        Effect.all({ analyze: membersOf("unanalysed", limit), detect: membersOf("undetected", limit) })
      ),
    forEachProduct: (pageSize, visit) =>
      Effect.gen(function* () {
        let total = 0
        for (const siteId of yield* sites) {
          let after = ""
          while (true) {
            const { ids, rows } = yield* productPage(siteId, after, pageSize)
            if (ids.length === 0) break
            if (rows.length > 0) yield* visit(rows)
            total += rows.length
            after = ids[ids.length - 1]
          }
        }
        return total
      }),
    count: (siteId) => call("count", () => client.zcard(siteKeys(siteId).ids)),
    lastWrite: (siteId) =>
      call("lastWrite", () => client.get(siteKeys(siteId).lastWrite)).pipe(
        Effect.map((ms) => (ms === null ? Option.none() : Option.some(Number(ms))))
      ),
    imageFailures: (siteId, limit) =>
      Effect.zipRight(
        fillImageWork,
        call("imageFailures", async () => {
          const keys = siteKeys(siteId)
          const [products, ids] = await Promise.all([
            client.zcard(keys.imageFailed),
            client.zrangebylex(keys.imageFailed, "-", "+", "LIMIT", 0, limit)
          ])
          const analyses = await Promise.all(ids.map((id) => client.hvals(keys.images(id))))
          return {
            products,
            images: ids.flatMap((productId, i) =>
              analyses[i]
                .map((json) => decodeAnalysis(json))
                .filter((a) => a.status === "failed")
                .map((a) => ({ productId, url: a.url, reason: a.reason ?? "" }))
            )
          }
        })
      ),
    saveImageAnalyses: (siteId, productId, analyses) => {
      const keys = siteKeys(siteId)
      return call(
        "saveImageAnalyses",
        () =>
          saveAnalysesScript(
            [keys.product(productId), keys.images(productId), keys.unanalysed, keys.undetected],
            [productId, ...analyses.flatMap((a) => [a.imageId, encodeAnalysis(a)])]
          ) as Promise<number>
      )
    },
    saveImageObjects: (siteId, productId, detections) => {
      const keys = siteKeys(siteId)
      const key = keys.images(productId)
      return call("saveImageObjects", async () => {
        if (detections.length === 0) return 0
        const stored = await client.hmget(key, ...detections.map((d) => d.imageId))
        const writes = detections.flatMap((d, i) => {
          const read = stored[i]
          if (read === null) return []
          const analysis = decodeAnalysis(read)
          if (analysis.status !== "ok" || analysis.objects !== null) return []
          return [d.imageId, read, encodeAnalysis({ ...analysis, objects: d.objects })]
        })
        return writes.length === 0
          ? 0
          : ((await saveObjectsScript(
              [key, keys.product(productId), keys.unanalysed, keys.undetected],
              [productId, ...writes]
            )) as number)
      })
    },
    imageAnalyses: (siteId, productId) => {
      const keys = siteKeys(siteId)
      return call("imageAnalyses", async () => {
        const [images, stored] = await exec(
          client.multi().hget(keys.product(productId), "images").hgetall(keys.images(productId))
        )
        return images === null
          ? ([] as ReadonlyArray<ImageAnalysisRecord>)
          : inImageOrder(decodeImages(images as string), stored as Record<string, string>)
      })
    },
    saveImageViews: (siteId, productId, views) => {
      const keys = siteKeys(siteId)
      const args = views.flatMap((v) => {
        const bytes = encodeViews(v.views)
        return bytes === null ? [] : [v.imageId, bytes]
      })
      return args.length === 0
        ? Effect.succeed(0)
        : call(
            "saveImageViews",
            () => saveViewsScript([keys.images(productId), keys.views(productId)], args) as Promise<number>
          )
    },
    productIds: (siteId, after, limit) =>
      call("productIds", () =>
        client.zrangebylex(siteKeys(siteId).ids, after === "" ? "-" : `(${after}`, "+", "LIMIT", 0, limit)
      ),
    imageSamples: (siteId, productIds) => {
      const keys = siteKeys(siteId)
      return call("imageSamples", async () => {
        if (productIds.length === 0) return []
        const tx = client.multi()
        for (const id of productIds) tx.hgetall(keys.images(id)).hgetallBuffer(keys.views(id))
        const replies = await exec(tx)
        return productIds.flatMap((productId, i) => {
          const analyses = replies[2 * i] as Record<string, string>
          const views = replies[2 * i + 1] as Record<string, Buffer>
          return Object.entries(analyses).flatMap(([imageId, json]): Array<ImageSamples> => {
            const { embedding, url } = decodeAnalysis(json)
            if (embedding === null) return []
            const own =
              views[imageId] === undefined ? undefined : splitViews(decodeVector(views[imageId]), embedding.length)
            return [{ productId, imageId, url, vectors: [embedding, ...(own ?? [])] }]
          })
        })
      })
    }
  }
}

export const RedisCatalogStore = {
  /** Its own ioredis connection to `url`, closed with the layer; commands fail fast while Redis is down. */
  layer: (url: string): Layer.Layer<CatalogStore, StoreError> =>
    Layer.scoped(
      CatalogStore,
      // A 5 s command timeout leaves room for a page of products with their vectors.
      connectFailFast(
        url,
        { commandTimeoutMs: 5_000 },
        (cause) => new StoreError({ message: `catalog store: cannot connect to Redis: ${String(cause)}`, cause })
      ).pipe(Effect.map(makeRedisCatalogStore))
    )
}
