import { SiteVisualSpacesLive } from "../../src/visual-space/SiteVisualSpaces.js"
import { EmbeddedVisualSpaceStore } from "../../src/visual-space/EmbeddedVisualSpaceStore.js"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { settings } from "../support/Settings.js"
import type { ProductRecord } from "../../src/domain/Product.js"
import { periodicReconcile, reconcile, restoreIndex } from "../../src/indexing/Reconcile.js"
import { CatalogIndex } from "../../src/services/catalog-index/CatalogIndex.js"
import { EmbeddedCatalogIndex } from "../../src/services/catalog-index/EmbeddedCatalogIndex.js"
import { emptyFilter } from "../../src/model/Filter.js"
import { EmbeddedSuggester } from "../../src/services/suggester/EmbeddedSuggester.js"
import { TEXT_MODEL } from "../../src/services/text-embedder/TextModel.js"
import { isProductJob, type Job } from "../../src/model/Jobs.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import type { ImageAnalysisRecord } from "../../src/model/ImageAnalysis.js"
import { EmbeddedCatalogStore } from "../../src/services/catalog-store/EmbeddedCatalogStore.js"
import { EmbeddedJobQueue } from "../../src/services/job-queue/EmbeddedJobQueue.js"
import { JobHandler, JobQueue } from "../../src/services/job-queue/JobQueue.js"
import { Sqlite } from "../../src/platform/Sqlite.js"

/** A real store and queue; the handler only records what reconcile had queued. */
const setup = () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-reconcile-"))
  const handled: Array<string> = []
  const handler = Layer.succeed(JobHandler, {
    handle: (jobs: ReadonlyArray<Job>) =>
      Effect.sync(
        () => void handled.push(...jobs.map((j) => `${j._tag} ${j.siteId}:${isProductJob(j) ? j.productId : ""}`))
      )
  })
  const store = Layer.mergeAll(
    EmbeddedCatalogStore.layer,
    SiteVisualSpacesLive.pipe(Layer.provideMerge(EmbeddedVisualSpaceStore.layer))
  ).pipe(Layer.provideMerge(Sqlite.layer), Layer.provide(settings({ DATA_DIR: dataDir })))
  return { handled, layer: Layer.merge(store, EmbeddedJobQueue.layer().pipe(Layer.provide(handler))) }
}

/** Like `setup`, but the handler holds every batch until `gate` opens (jobs stay in the queue). */
const gatedSetup = () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-reconcile-"))
  const handled: Array<string> = []
  const gate = Effect.runSync(Deferred.make<void>())
  const handler = Layer.succeed(JobHandler, {
    handle: (jobs: ReadonlyArray<Job>) =>
      Effect.zipRight(
        Deferred.await(gate),
        Effect.sync(
          () => void handled.push(...jobs.map((j) => `${j._tag} ${j.siteId}:${isProductJob(j) ? j.productId : ""}`))
        )
      )
  })
  const layer = Layer.merge(
    EmbeddedCatalogStore.layer.pipe(Layer.provideMerge(Sqlite.layer), Layer.provide(settings({ DATA_DIR: dataDir }))),
    EmbeddedJobQueue.layer().pipe(Layer.provide(handler))
  )
  return { gate, handled, layer }
}

const analysed = (
  image: { id: string; url: string },
  objects: ImageAnalysisRecord["objects"]
): ImageAnalysisRecord => ({
  imageId: image.id,
  url: image.url,
  status: "ok",
  reason: null,
  embedding: new Float32Array([1]),
  adult: 0,
  colors: [],
  objects,
  analyzedAt: 1
})

describe("reconcile", () => {
  it.live(
    "queues indexing for stale products and the image work of indexed products whose images still need a pass",
    () => {
      const { handled, layer } = setup()
      return Effect.gen(function* () {
        const store = yield* CatalogStore
        const queue = yield* JobQueue
        const image = (n: string) => ({ url: `https://img.example.com/${n}.jpg` })
        /** A product indexed at its current version, as after its IndexProduct job. */
        const indexed = (productId: string, images: ReadonlyArray<{ url: string }>) =>
          Effect.gen(function* () {
            const { product } = yield* store.put(1, productId, { title: productId } as ProductRecord, images)
            yield* store.saveDerived([{ siteId: 1, productId, version: product.version, textVector: null }])
            return product
          })
        // Its AnalyzeImages was lost (a crash, a job that failed for good).
        yield* indexed("new-photo", [image("a")])
        // Analysed, its DetectObjects lost; another with both a new photo and a pending detection.
        const undetected = yield* indexed("undetected", [image("b")])
        yield* store.saveImageAnalyses(1, "undetected", [analysed(undetected.images[0], null)])
        const both = yield* indexed("both", [image("c"), image("d")])
        yield* store.saveImageAnalyses(1, "both", [analysed(both.images[0], null)])
        // Done: nothing to queue.
        const done = yield* indexed("done", [image("e")])
        yield* store.saveImageAnalyses(1, "done", [analysed(done.images[0], [])])
        yield* indexed("no-photo", [])
        // Not indexed: indexing only, which asks for the image work itself once done.
        yield* store.put(1, "stale", { title: "stale" } as ProductRecord, [image("f")])

        expect(yield* reconcile).toBe(5)
        yield* queue.drained
        expect(handled.sort()).toEqual([
          "AnalyzeImages 1:both",
          "AnalyzeImages 1:new-photo",
          "DetectObjects 1:both",
          "DetectObjects 1:undetected",
          "IndexProduct 1:stale"
        ])
      }).pipe(Effect.provide(layer))
    }
  )

  it.live("leaves out products whose jobs the queue still holds (a bulk push's backlog)", () => {
    const { gate, handled, layer } = gatedSetup()
    return Effect.gen(function* () {
      const store = yield* CatalogStore
      const queue = yield* JobQueue
      for (const id of ["pushed", "lost"]) yield* store.put(1, id, { title: id } as ProductRecord, [])
      // "pushed" was queued by its PUT and is being handled; "lost" lost its job.
      yield* queue.enqueue([{ _tag: "IndexProduct", siteId: 1, productId: "pushed" }])
      expect(yield* reconcile).toBe(1)
      yield* Deferred.succeed(gate, undefined)
      yield* queue.drained
      expect(handled.sort()).toEqual(["IndexProduct 1:lost", "IndexProduct 1:pushed"])
    }).pipe(Effect.provide(layer))
  })

  it.live(
    "waits, in its periodic pass, while the queue's backlog is over the bound, and runs once it has drained",
    () => {
      const { gate, handled, layer } = gatedSetup()
      return Effect.gen(function* () {
        const store = yield* CatalogStore
        const queue = yield* JobQueue
        const pushed = ["a", "b", "c"]
        for (const id of [...pushed, "lost"]) yield* store.put(1, id, { title: id } as ProductRecord, [])
        yield* queue.enqueue(pushed.map((productId) => ({ _tag: "IndexProduct" as const, siteId: 1, productId })))
        expect(yield* queue.pending).toBe(3)
        // Three jobs held, a bound of two: the pass waits and "lost" is not queued yet.
        expect(yield* periodicReconcile(2)).toBe(0)
        expect(yield* queue.pending).toBe(3)
        yield* Deferred.succeed(gate, undefined)
        yield* queue.drained
        expect(handled.sort()).toEqual(["IndexProduct 1:a", "IndexProduct 1:b", "IndexProduct 1:c"])
        // Drained (and the three still stale: this handler saves nothing), the pass runs.
        expect(yield* periodicReconcile(2)).toBe(4)
        yield* queue.drained
        expect(handled).toContain("IndexProduct 1:lost")
      }).pipe(Effect.provide(layer))
    }
  )

  it.live(
    "restores a vector of another text model as no vector: searchable by its words at once, its embedding queued",
    () => {
      const { handled, layer } = setup()
      return Effect.gen(function* () {
        const store = yield* CatalogStore
        const queue = yield* JobQueue
        const index = yield* CatalogIndex
        const unit = (dimensions: number) => Float32Array.from({ length: dimensions }, (_, i) => (i === 0 ? 1 : 0))
        const save = (productId: string, dimensions: number) =>
          Effect.gen(function* () {
            const { product } = yield* store.put(
              1,
              productId,
              { title: `${productId} garden hose` } as ProductRecord,
              []
            )
            yield* store.saveDerived([{ siteId: 1, productId, version: product.version, textVector: unit(dimensions) }])
          })
        // One written by the current model, one by the earlier 512-d model.
        yield* save("current", TEXT_MODEL.dimensions)
        yield* save("earlier", 512)

        const { restored, queued } = yield* restoreIndex
        expect(restored).toBe(2)
        expect(queued).toBe(1)
        yield* queue.drained
        expect(handled).toEqual(["IndexProduct 1:earlier"])
        const found = yield* index.search({ siteId: 1, text: "garden hose", filter: emptyFilter, limit: 10 })
        expect(found.hits.map((h) => h.productId).sort()).toEqual(["current", "earlier"])
        // Only the current model's vector is in the index.
        const near = yield* index.search({
          siteId: 1,
          textVector: unit(TEXT_MODEL.dimensions),
          filter: emptyFilter,
          limit: 10,
          minSimilarity: 0.5
        })
        expect(near.hits.map((h) => h.productId)).toEqual(["current"])
      }).pipe(
        Effect.provide(
          Layer.mergeAll(EmbeddedCatalogIndex.layer, EmbeddedSuggester.layer).pipe(Layer.provideMerge(layer))
        )
      )
    }
  )
})
