import { Effect, Schedule } from "effect"
import type { Job } from "../model/Jobs.js"
import { type ProductKey, productIdsBySite, sameImages, type StoredProduct } from "../model/StoredProduct.js"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import { inSlices } from "../platform/YieldToIo.js"
import { JobQueue } from "../services/job-queue/JobQueue.js"
import { Suggester } from "../services/suggester/Suggester.js"
import { changeableColumnValues, columnsOnlyChange, toIndexDocument } from "../model/ProductDocument.js"
import type { IndexDocument } from "../model/IndexDocument.js"
import type { ImageAnalysisRecord } from "../model/ImageAnalysis.js"
import { reusableVectors, suggestSource } from "./ProductIndexer.js"
import { SiteVisualSpaces } from "../visual-space/SiteVisualSpaces.js"

/** A written product version, with the version it replaced when the store read that one (a Modify). */
export interface WrittenProduct {
  readonly product: StoredProduct
  readonly previous?: StoredProduct | undefined
  /**
   * The write created the product: it has no saved vector or image analysis (a removal deletes
   * them), so there is nothing to look up for reuse (the store work a bulk push saves).
   */
  readonly created?: boolean
}

/**
 * What follows an acknowledged catalog write (PUT, PATCH, DELETE, a bulk batch), in two steps.
 *
 * Lexical first: the written versions go into the index at once, without any model call:
 * searchable by their words, filterable, sortable, counted in facets and retrievable, with
 * whatever vectors they can reuse (the saved text vector when the embedded text is unchanged,
 * their images' analyses). Deleted products leave the index. A product whose text changed is
 * matched by its words until its text vector lands; its old vector is not kept, because it
 * would rank the product for what it no longer is.
 *
 * Then the jobs that compute the rest (text vector, image analyses) are queued. The record is
 * the truth: the write has already succeeded, so neither an index nor a queue that cannot take
 * the work fails the request. The store and the queue may share one Redis whose connections
 * come back at slightly different moments after an outage, hence a few quick retries; beyond
 * them the periodic reconcile pass picks the products up (within a minute).
 */
export const afterWrite = (written: ReadonlyArray<WrittenProduct>, removed: ReadonlyArray<ProductKey>) =>
  Effect.gen(function* () {
    const indexed = yield* indexWithoutModel(written, removed).pipe(
      Effect.catchAllCause((cause) =>
        Effect.as(Effect.logWarning("could not index the write at once; its indexing job will", cause), {
          needsModel: written.map((w) => w.product),
          complete: []
        })
      )
    )
    // A product whose text vector was reused is indexed in full already: only its images may
    // still need a pass (the image job finds out which). The others need their text embedded.
    const jobs: Array<Job> = [
      ...indexed.needsModel.map((p): Job => ({ _tag: "IndexProduct", siteId: p.siteId, productId: p.productId })),
      ...indexed.complete
        .filter((p) => p.images.length > 0)
        .map((p): Job => ({ _tag: "AnalyzeImages", siteId: p.siteId, productId: p.productId })),
      ...removed.map((k): Job => ({ _tag: "RemoveProduct", siteId: k.siteId, productId: k.productId }))
    ]
    if (jobs.length === 0) return
    yield* Effect.flatMap(JobQueue, (queue) => queue.enqueue(jobs)).pipe(
      Effect.retry(Schedule.intersect(Schedule.exponential("100 millis"), Schedule.recurs(4))),
      Effect.catchAll((e) => Effect.logWarning("could not enqueue; reconcile will pick the products up", e))
    )
  })

/** Documents built per slice, between which other requests are served (a few milliseconds of work). */
const SLICE = 16

/**
 * The index brought up to these writes without a model call. A change of columns only (a
 * price, stock or label patch: same words, same embedded text, same images) sets those
 * columns on the document the index holds (`refreshColumns`): its words and vectors stay, its
 * text version and derived data too (the store kept them), and there is nothing to queue.
 * The other writes, and changes the index cannot apply that way, are upserted as whole
 * documents in one call: one request to Qdrant, one publication to the replicas (the embedded
 * index applies it in slices itself). Of those, products whose saved text vector fits their
 * text are complete (the vector is saved for the new version as it is reused, so nothing
 * counts them stale, and their completions are fed at once); the others still need the model.
 */
const indexWithoutModel = (written: ReadonlyArray<WrittenProduct>, removed: ReadonlyArray<ProductKey>) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const index = yield* CatalogIndex
    const suggester = yield* Suggester
    const refreshing = written.filter(
      ({ product, previous }) =>
        previous !== undefined &&
        product.textVersion === previous.textVersion &&
        sameImages(previous, product) &&
        columnsOnlyChange(previous.data, product.data)
    )
    const refreshed = yield* index.refreshColumns(
      refreshing.map(({ product, previous }) => ({
        siteId: product.siteId,
        productId: product.productId,
        version: product.version,
        basedOn: previous!.version,
        columns: changeableColumnValues(product.data)
      }))
    )
    const done = new Set(refreshing.filter((_, k) => refreshed[k]))
    const rest = written.filter((w) => !done.has(w))
    const products = rest.map((w) => w.product)
    const known = rest.flatMap((w, i) => (w.created === true ? [] : [i]))
    const found = yield* reusableVectors(known.map((i) => products[i]))
    const vectors: Array<Float32Array | null> = products.map(() => null)
    const images: Array<ReadonlyArray<ImageAnalysisRecord>> = products.map(() => [])
    // The site's visual space as this process has it (checked every two seconds): the write path
    // keeps to its one round trip; a fit meanwhile re-indexes the site after it.
    const imageSpace = yield* Effect.flatMap(SiteVisualSpaces, (spaces) =>
      spaces.projections(products.map((p) => p.siteId))
    )
    known.forEach((i, k) => {
      vectors[i] = found.vectors[k]
      images[i] = found.images[k]
    })
    const reused = products.filter((_, i) => vectors[i] !== null)
    const docs: Array<IndexDocument> = []
    yield* inSlices(
      products.map((_, i) => i),
      SLICE,
      (slice) =>
        Effect.sync(() => {
          for (const i of slice)
            docs.push(toIndexDocument(products[i], vectors[i], images[i], imageSpace(products[i].siteId)))
        })
    )
    // A reused vector is saved for the new version already: if the index does not take it,
    // that version is stale again (the reconcile pass indexes it), as after any failed write.
    if (docs.length > 0) {
      yield* index
        .upsert(docs)
        .pipe(
          Effect.tapError(() =>
            store.markStale(reused.map((p) => ({ siteId: p.siteId, productId: p.productId, version: p.version })))
          )
        )
    }
    // Completions of a product that waits for its text vector come with it (the indexing
    // job feeds the vocabulary): phrase extraction is too large a part of a new product's
    // cost to pay here as well.
    yield* suggester.indexProducts(reused.map(suggestSource))
    const needsModel = products.filter((_, i) => vectors[i] === null)
    for (const [siteId, productIds] of productIdsBySite(removed)) {
      yield* index.remove(siteId, productIds)
      yield* suggester.removeProducts(siteId, productIds)
    }
    return { needsModel, complete: reused }
  })
