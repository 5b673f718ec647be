import { Context, Data, type Effect, type Option } from "effect"
import type { ProductRecord } from "../../domain/Product.js"

/** An image of a product as stored: a stable id derived from its URL, so re-pushing the same URL keeps the id. */
export interface StoredImage {
  readonly id: string
  readonly url: string
}

/** The record of truth for one product, as acknowledged to the merchant. */
export interface StoredProduct {
  readonly siteId: number
  readonly productId: string
  readonly data: ProductRecord
  readonly images: ReadonlyArray<StoredImage>
  /** Monotonic write stamp: derived data (vectors, index entries) remembers which version it came from. */
  readonly version: number
  readonly updatedAt: number
}

/** Derived data computed from a product version (text vector now; image data joins with vision). */
export interface DerivedProduct {
  readonly siteId: number
  readonly productId: string
  readonly version: number
  readonly textVector: Float32Array | null
}

/** What the vision models derived from one product image (or why they could not). */
export interface ImageAnalysisRecord {
  readonly imageId: string
  readonly url: string
  readonly status: "ok" | "failed"
  /** Why the image could not be used (fetch refused, not an image, …); null when ok. */
  readonly reason: string | null
  readonly embedding: Float32Array | null
  readonly adult: number | null
  readonly colors: ReadonlyArray<{ readonly name: string; readonly hex: string; readonly share: number }>
  /**
   * Detected objects; null while object detection, a later and lower-priority pass than
   * features and colours, has not run on the image yet (always [] for a failed image).
   */
  readonly objects: ReadonlyArray<StoredObject> | null
  readonly analyzedAt: number
}

export interface StoredObject {
  readonly classId: number
  readonly class: string
  readonly score: number
  readonly rectangle: { readonly left: number; readonly top: number; readonly width: number; readonly height: number }
}

/** The result of the detection pass for one image. */
export interface ImageObjects {
  readonly imageId: string
  readonly objects: ReadonlyArray<StoredObject>
}

export interface ProductKey {
  readonly siteId: number
  readonly productId: string
}

/** Products whose images still need a pass (the job that does it in brackets). */
export interface PendingImageWork {
  /** Products with images that have no analysis yet (AnalyzeImages). */
  readonly analyze: ReadonlyArray<ProductKey>
  /** Products with analysed images whose objects are not detected yet (DetectObjects). */
  readonly detect: ReadonlyArray<ProductKey>
}

export class StoreError extends Data.TaggedError("StoreError")<{ readonly message: string; readonly cause?: unknown }> {}

export interface CatalogStoreService {
  /** Creates or replaces a product; `images: undefined` keeps the stored images. Atomic and durable on return. */
  readonly put: (
    siteId: number,
    productId: string,
    data: ProductRecord,
    images: ReadonlyArray<{ readonly url: string }> | undefined
  ) => Effect.Effect<{ readonly product: StoredProduct; readonly created: boolean }, StoreError>
  readonly get: (siteId: number, productId: string) => Effect.Effect<Option.Option<StoredProduct>, StoreError>
  /** Products in the order of `productIds`; unknown ids are skipped. */
  readonly getMany: (siteId: number, productIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoredProduct>, StoreError>
  readonly byItemGroup: (siteId: number, itemGroupId: string) => Effect.Effect<ReadonlyArray<StoredProduct>, StoreError>
  /** Deletes the product with its derived data; returns what was deleted. */
  readonly remove: (siteId: number, productId: string) => Effect.Effect<Option.Option<StoredProduct>, StoreError>
  /** Saves derived data only if the product is still at `version` (a late job never overwrites newer data). */
  readonly saveDerived: (derived: ReadonlyArray<DerivedProduct>) => Effect.Effect<number, StoreError>
  /** Products whose derived data is missing or older than the record: the reconcile pass re-enqueues these. */
  readonly stale: (limit: number) => Effect.Effect<ReadonlyArray<ProductKey & { readonly version: number }>, StoreError>
  /**
   * Products with image work pending, at most `limit` of each kind: the reconcile pass
   * re-enqueues their image jobs. Every write keeps this list in step, so reading it costs
   * the pending products, not the catalog.
   */
  readonly pendingImageWork: (limit: number) => Effect.Effect<PendingImageWork, StoreError>
  /** Visits every product that has current derived data, in pages (used to rebuild the in-memory index at startup). */
  readonly forEachIndexed: (
    pageSize: number,
    visit: (page: ReadonlyArray<{ readonly product: StoredProduct; readonly derived: DerivedProduct; readonly images: ReadonlyArray<ImageAnalysisRecord> }>) => Effect.Effect<void, unknown>
  ) => Effect.Effect<number, StoreError | unknown>
  readonly count: (siteId: number) => Effect.Effect<number, StoreError>
  /**
   * Saves image analyses, keeping only images the product still has (an image removed by a
   * later PUT while it was being analysed is dropped) and has no analysis of yet: an image's
   * id stands for its URL, so two analyses of it agree, except that one racing job may have
   * detected objects and the other not; the first saved is kept. Returns how many were saved.
   */
  readonly saveImageAnalyses: (siteId: number, productId: string, analyses: ReadonlyArray<ImageAnalysisRecord>) => Effect.Effect<number, StoreError>
  /**
   * Fills in the objects of analysed images whose detection is still pending: only for images
   * the product still has, whose analysis is "ok" and has no objects yet, so a late or
   * repeated detection never replaces what is there. Returns how many images were updated.
   */
  readonly saveImageObjects: (siteId: number, productId: string, detections: ReadonlyArray<ImageObjects>) => Effect.Effect<number, StoreError>
  /** Analyses of the product's current images (images not analysed yet are absent). */
  readonly imageAnalyses: (siteId: number, productId: string) => Effect.Effect<ReadonlyArray<ImageAnalysisRecord>, StoreError>
}

export class CatalogStore extends Context.Tag("CatalogStore")<CatalogStore, CatalogStoreService>() {}
