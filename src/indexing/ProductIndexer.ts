import { Context, Effect, Layer } from "effect"
import { CatalogIndex } from "../services/catalog-index/CatalogIndex.js"
import { CatalogStore } from "../services/catalog-store/CatalogStore.js"
import {
  type DerivedProduct,
  type ProductKey,
  productIdsBySite,
  sameImages,
  type StoredProduct
} from "../model/StoredProduct.js"
import type { ImageAnalysisRecord } from "../model/ImageAnalysis.js"
import type { IndexDocument } from "../model/IndexDocument.js"
import { type ProductSource, Suggester } from "../services/suggester/Suggester.js"
import { TextEmbedder } from "../services/text-embedder/TextEmbedder.js"
import { embeddingText, productCategories, toIndexDocument } from "../model/ProductDocument.js"
import { type ImageProjection, SiteVisualSpaces } from "../visual-space/SiteVisualSpaces.js"
import { formatCategoryPath } from "../domain/CategoryPath.js"
import { TEXT_MODEL } from "../services/text-embedder/TextModel.js"
import { createHash } from "node:crypto"
import { inSlices } from "../platform/YieldToIo.js"

/**
 * Turns stored records into searchable documents. It always reads the current record, so
 * running it twice, late, or for a product deleted in between is harmless.
 */
export class ProductIndexer extends Context.Tag("ProductIndexer")<
  ProductIndexer,
  {
    readonly index: (keys: ReadonlyArray<ProductKey>) => Effect.Effect<void, unknown>
  }
>() {}

/** What a product gives the completions vocabulary. */
export const suggestSource = (p: StoredProduct): ProductSource => {
  const { shopping, types } = productCategories(p.data)
  return {
    siteId: p.siteId,
    productId: p.productId,
    source: {
      title: p.data.title ?? "",
      brand: p.data.brand ?? null,
      categories: shopping.map(formatCategoryPath),
      productTypes: types.map(formatCategoryPath)
    }
  }
}

/** Documents with new vectors indexed between two chances for other requests to run. */
const INDEX_SLICE = 8

const productKey = (p: ProductKey) => `${p.siteId}\u0000${p.productId}`

/** Names the text a vector is computed from, and the model that computed it. */
export const textKey = (text: string): string =>
  createHash("sha256").update(TEXT_MODEL.wheel.sha256).update("\u0000").update(text).digest("base64url").slice(0, 32)

/**
 * The saved text vector that fits `product`: made from its text version, or from another with
 * the same embedded text by the same model (its key says so); null when none does (never
 * saved, another text, or a vector of another model, whose length differs).
 */
export const fittingTextVector = (product: StoredProduct, derived: DerivedProduct | null): Float32Array | null =>
  derived !== null && derived.version === product.textVersion && ofThisModel(derived.textVector)
    ? derived.textVector
    : vectorForText(derived, textKey(embeddingText(product.data)))

/**
 * Whether the vector saved for this very text version was computed by another text model (a store
 * written before the model changed: its length differs), so the product must be embedded anew.
 */
export const savedByAnotherModel = (product: StoredProduct, derived: DerivedProduct | null): boolean =>
  derived !== null &&
  derived.version === product.textVersion &&
  derived.textVector !== null &&
  !ofThisModel(derived.textVector)

/** Whether a saved vector can be one of the current text model (another model's length differs). */
const ofThisModel = (vector: Float32Array | null): vector is Float32Array =>
  vector !== null && vector.length === TEXT_MODEL.dimensions

/** The saved vector when it was computed from the text `key` names, by the current model. */
const vectorForText = (
  saved: { readonly textKey?: string | undefined; readonly textVector: Float32Array | null } | null | undefined,
  key: string
): Float32Array | null =>
  saved != null && saved.textKey === key && ofThisModel(saved.textVector) ? saved.textVector : null

/** A product's index document as a rebuild restores it from the store (CatalogStore.forEachProduct). */
export const restoredDocument = (
  product: StoredProduct,
  derived: DerivedProduct | null,
  images: ReadonlyArray<ImageAnalysisRecord>,
  imageSpace: ImageProjection
): IndexDocument => toIndexDocument(product, fittingTextVector(product, derived), images, imageSpace)

/** The index documents of a page of CatalogStore.forEachProduct, each in its site's visual space. */
export const restoredDocuments = (
  page: ReadonlyArray<{
    readonly product: StoredProduct
    readonly derived: DerivedProduct | null
    readonly images: ReadonlyArray<ImageAnalysisRecord>
  }>
) =>
  Effect.map(
    Effect.flatMap(SiteVisualSpaces, (spaces) => spaces.projections(page.map(({ product }) => product.siteId))),
    (spaceOf) =>
      page.map(({ derived, images, product }) => restoredDocument(product, derived, images, spaceOf(product.siteId)))
  )

/**
 * For these product versions, the text vector each can reuse (saved for the same text by the
 * same model) and its images' analyses; `toEmbed` lists the positions whose text still needs
 * the model, with their texts and keys. No model call: the write path indexes the products
 * with these at once (lexical first) and the indexing job fills in the rest. A reused vector
 * is saved for its new version as it is found (CatalogStore.reuseTextVectors): a caller whose
 * index write then fails marks those versions stale again.
 */
export const reusableVectors = (products: ReadonlyArray<StoredProduct>) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const texts = products.map((p) => embeddingText(p.data))
    const textKeys = texts.map(textKey)
    const saved = yield* store.reuseTextVectors(
      products.map((p, i) => ({
        siteId: p.siteId,
        productId: p.productId,
        version: p.textVersion,
        textKey: textKeys[i]
      }))
    )
    const vectors = saved.map((v) => (ofThisModel(v) ? v : null))
    const images = yield* Effect.forEach(products, (p) =>
      p.images.length === 0 ? Effect.succeed([]) : store.imageAnalyses(p.siteId, p.productId)
    )
    const toEmbed = products.flatMap((_, i) => (vectors[i] === null ? [i] : []))
    return {
      vectors,
      images,
      texts,
      textKeys,
      toEmbed
    }
  })

export const ProductIndexerLive = Layer.effect(
  ProductIndexer,
  Effect.gen(function* () {
    const store = yield* CatalogStore
    const index = yield* CatalogIndex
    const embedder = yield* TextEmbedder
    const suggester = yield* Suggester
    const spaces = yield* SiteVisualSpaces

    const index_ = (keys: ReadonlyArray<ProductKey>) =>
      Effect.gen(function* () {
        // One read per site; a product deleted since its job was queued leaves the index.
        const present: Array<StoredProduct> = []
        for (const [siteId, ids] of productIdsBySite(keys)) {
          const found = yield* store.getMany(siteId, ids)
          present.push(...found)
          const kept = new Set(found.map((p) => p.productId))
          const gone = ids.filter((id) => !kept.has(id))
          if (gone.length > 0) yield* index.remove(siteId, gone)
          yield* suggester.removeProducts(siteId, gone)
        }
        if (present.length === 0) return
        // A version whose text is the one already embedded (a price, stock or label change)
        // reuses the saved vector: only new text runs the model.
        const reusable = yield* reusableVectors(present).pipe(
          Effect.provideService(CatalogStore, store),
          Effect.provideService(SiteVisualSpaces, spaces)
        )
        const embedded = yield* embedder.embed(reusable.toEmbed.map((i) => reusable.texts[i]))
        const vectors = [...reusable.vectors] as Array<Float32Array>
        reusable.toEmbed.forEach((i, k) => (vectors[i] = embedded[k]))
        // The model took a while: a product deleted, or given another text or other images
        // meanwhile, is left to that write, which updated the index at once and queued its own
        // job (see AfterWrite). One whose other fields changed (a price patch, which queues
        // nothing) is indexed as it is now, with the vector of its unchanged text.
        const now = yield* currentProducts(present)
        const kept = present.flatMap((p, i) => {
          const current = now.get(productKey(p))
          return current !== undefined && current.textVersion === p.textVersion && sameImages(current, p) ? [i] : []
        })
        if (kept.length === 0) return
        for (const i of kept) present[i] = now.get(productKey(present[i]))!
        // The store first: replicated views (the index and vocabulary replicas of the distributed
        // topology) rebuild from it, so whatever they are told must already be there. A failed
        // index write makes the products stale again and fails the job: its retries, or the
        // reconcile pass once they are spent (an index down for minutes), write both again.
        const embeddedNow = new Set(reusable.toEmbed)
        yield* store.saveDerived(
          kept
            .filter((i) => embeddedNow.has(i))
            .map((i) => ({
              siteId: present[i].siteId,
              productId: present[i].productId,
              version: present[i].textVersion,
              textVector: vectors[i],
              textKey: reusable.textKeys[i]
            }))
        )
        // A version older than the one the write path indexed since is ignored by the index.
        // In slices: each vector's graph insertion takes a while, and searches go on meanwhile.
        yield* spaces
          .writing(
            kept.map((i) => present[i].siteId),
            (spaceOf) =>
              inSlices(kept, INDEX_SLICE, (slice) =>
                index.upsert(
                  slice.map((i) =>
                    toIndexDocument(present[i], vectors[i], reusable.images[i], spaceOf(present[i].siteId))
                  )
                )
              )
          )
          .pipe(
            Effect.tapError(() =>
              store.markStale(
                kept.map((i) => ({
                  siteId: present[i].siteId,
                  productId: present[i].productId,
                  version: present[i].version
                }))
              )
            )
          )
        yield* suggester.indexProducts(kept.map((i) => suggestSource(present[i])))
      })

    /** The current versions of `products`, by `productKey`. */
    const currentProducts = (products: ReadonlyArray<StoredProduct>) =>
      Effect.gen(function* () {
        const current = new Map<string, StoredProduct>()
        for (const [siteId, ids] of productIdsBySite(products)) {
          for (const p of yield* store.getMany(siteId, ids)) current.set(productKey(p), p)
        }
        return current
      })

    return { index: index_ }
  })
)
