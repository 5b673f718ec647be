import { Context, Effect, type Either, Option } from "effect"
import { NotFound } from "../../domain/Errors.js"
import type { ProductRecord } from "../../domain/Product.js"
import { BackendFailure } from "../../platform/BackendFailure.js"
import type { ImageAnalysisRecord, ImageObjects, ImageSamples, ImageViews } from "../../model/ImageAnalysis.js"
import type { DerivedProduct, ProductKey, StoredProduct } from "../../model/StoredProduct.js"

/** Products whose images still need a pass (the job that does it in brackets). */
export interface PendingImageWork {
  /** Products with images that have no analysis yet (AnalyzeImages). */
  readonly analyze: ReadonlyArray<ProductKey>
  /** Products with analysed images whose objects are not detected yet (DetectObjects). */
  readonly detect: ReadonlyArray<ProductKey>
}

export class StoreError extends BackendFailure("StoreError") {}

/** A product's fields as PUT takes them; `images: undefined` keeps the stored images. */
export interface ProductFields {
  readonly data: ProductRecord
  readonly images?: ReadonlyArray<{ readonly url: string }> | undefined
}

/** One write of `writeMany`. */
export type CatalogWrite =
  | ({ readonly _tag: "Put"; readonly productId: string } & ProductFields)
  /**
   * A read-modify-write of an existing product (a merge patch): `modify` gets the current
   * record and returns the new fields, or why it cannot. It is applied over the version it
   * read, never over a write that came in between (from any process): then it reads again.
   */
  | {
      readonly _tag: "Modify"
      readonly productId: string
      readonly modify: (current: StoredProduct) => Either.Either<ProductFields, string>
    }
  | { readonly _tag: "Remove"; readonly productId: string }

export type CatalogWriteResult =
  | {
      readonly _tag: "Written"
      readonly product: StoredProduct
      readonly created: boolean
      /** A Modify's product as it read and changed it (what the index holds unless a write failed). */
      readonly previous?: StoredProduct
    }
  | { readonly _tag: "Removed"; readonly product: StoredProduct }
  /** Modify or Remove of a product that does not exist. */
  | { readonly _tag: "Absent" }
  /** `modify` refused the current record (its message says why). */
  | { readonly _tag: "Refused"; readonly message: string }
  /** Other writes kept coming first; the Modify was not applied. */
  | { readonly _tag: "Contended" }

/** Read-merge-writes a Modify retries when other writes keep coming first. */
export const MODIFY_ATTEMPTS = 10

/** A product version and the key of the text it embeds (see ProductIndexer.textKey). */
export interface TextVectorKey extends ProductKey {
  readonly version: number
  readonly textKey: string
}

export interface CatalogStoreService {
  /** Creates or replaces a product; `images: undefined` keeps the stored images. Atomic and durable on return. */
  readonly put: (
    siteId: number,
    productId: string,
    data: ProductRecord,
    images: ReadonlyArray<{ readonly url: string }> | undefined
  ) => Effect.Effect<{ readonly product: StoredProduct; readonly created: boolean }, StoreError>
  /**
   * Writes in order, each atomic and durable on return, for one site: a bulk push's batch, a
   * PATCH. The embedded store writes them in one transaction; Redis one script per write,
   * writes of different products pipelined. Results in the order of `writes`.
   */
  readonly writeMany: (
    siteId: number,
    writes: ReadonlyArray<CatalogWrite>
  ) => Effect.Effect<ReadonlyArray<CatalogWriteResult>, StoreError>
  readonly get: (siteId: number, productId: string) => Effect.Effect<Option.Option<StoredProduct>, StoreError>
  /** Products in the order of `productIds`; unknown ids are skipped. */
  readonly getMany: (
    siteId: number,
    productIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<StoredProduct>, StoreError>
  readonly byItemGroup: (siteId: number, itemGroupId: string) => Effect.Effect<ReadonlyArray<StoredProduct>, StoreError>
  /** Deletes the product with its derived data; returns what was deleted. */
  readonly remove: (siteId: number, productId: string) => Effect.Effect<Option.Option<StoredProduct>, StoreError>
  /** Saves derived data only if the product is still at `version` (a late job never overwrites newer data). */
  readonly saveDerived: (derived: ReadonlyArray<DerivedProduct>) => Effect.Effect<number, StoreError>
  /**
   * For each product at `version` whose saved text vector was computed from the text `textKey`
   * names (at this or any earlier version, e.g. before a price change): that vector, now saved
   * for `version` as well, so the version counts as derived and needs no model. Null where no
   * vector fits or the product is no longer at `version`; nothing changes for those. In the
   * order of `items`. One statement or script per product: the vector is not written again.
   */
  readonly reuseTextVectors: (
    items: ReadonlyArray<TextVectorKey>
  ) => Effect.Effect<ReadonlyArray<Float32Array | null>, StoreError>
  /**
   * The index did not take these versions (its write failed after the derived data was saved):
   * they count as stale again, so the reconcile pass re-enqueues them. A newer version is left
   * alone (its own indexing decides).
   */
  readonly markStale: (
    keys: ReadonlyArray<ProductKey & { readonly version: number }>
  ) => Effect.Effect<void, StoreError>
  /** Products whose derived data is missing or older than the record: the reconcile pass re-enqueues these. */
  readonly stale: (limit: number) => Effect.Effect<ReadonlyArray<ProductKey & { readonly version: number }>, StoreError>
  /**
   * Products with image work pending, at most `limit` of each kind: the reconcile pass
   * re-enqueues their image jobs. Every write keeps this list in step, so reading it costs
   * the pending products, not the catalog.
   */
  readonly pendingImageWork: (limit: number) => Effect.Effect<PendingImageWork, StoreError>
  /**
   * Visits every product in pages, with the derived data last saved for it (of any version,
   * text key included; null when none) and its current images' analyses: what the in-memory
   * index and vocabulary are rebuilt from. A product acknowledged but not embedded yet is
   * visited too (it is searchable by its words); `restoredDocument` decides which vector fits.
   */
  readonly forEachProduct: (
    pageSize: number,
    visit: (
      page: ReadonlyArray<{
        readonly product: StoredProduct
        readonly derived: DerivedProduct | null
        readonly images: ReadonlyArray<ImageAnalysisRecord>
      }>
    ) => Effect.Effect<void, unknown>
  ) => Effect.Effect<number, StoreError | unknown>
  readonly count: (siteId: number) => Effect.Effect<number, StoreError>
  /** When the site's latest product was created or changed (epoch ms); none before any. */
  readonly lastWrite: (siteId: number) => Effect.Effect<Option.Option<number>, StoreError>
  /**
   * The site's product images whose analysis failed (fetch refused, not an image, …), with the
   * reason: how many products have one, and the images of the first `limit` of them by id.
   * Every write keeps the list in step, so reading it costs the failures, not the catalog.
   */
  readonly imageFailures: (
    siteId: number,
    limit: number
  ) => Effect.Effect<
    {
      readonly products: number
      readonly images: ReadonlyArray<{ readonly productId: string; readonly url: string; readonly reason: string }>
    },
    StoreError
  >
  /**
   * Saves image analyses, keeping only images the product still has (an image removed by a
   * later PUT while it was being analysed is dropped) and has no analysis of yet: an image's
   * id stands for its URL, so two analyses of it agree, except that one racing job may have
   * detected objects and the other not; the first saved is kept. Returns how many were saved.
   */
  readonly saveImageAnalyses: (
    siteId: number,
    productId: string,
    analyses: ReadonlyArray<ImageAnalysisRecord>
  ) => Effect.Effect<number, StoreError>
  /**
   * Fills in the objects of analysed images whose detection is still pending: only for images
   * the product still has, whose analysis is "ok" and has no objects yet, so a late or
   * repeated detection never replaces what is there. Returns how many images were updated.
   */
  readonly saveImageObjects: (
    siteId: number,
    productId: string,
    detections: ReadonlyArray<ImageObjects>
  ) => Effect.Effect<number, StoreError>
  /** Analyses of the product's current images (images not analysed yet are absent). */
  readonly imageAnalyses: (
    siteId: number,
    productId: string
  ) => Effect.Effect<ReadonlyArray<ImageAnalysisRecord>, StoreError>
  /** A page of the site's product ids in their order, after `after` ("" for the first page). */
  readonly productIds: (
    siteId: number,
    after: string,
    limit: number
  ) => Effect.Effect<ReadonlyArray<string>, StoreError>
  /**
   * The training samples of these products' analysed photos (each photo's features, then its
   * views' once saved): what a fit of the site's visual space reads.
   */
  readonly imageSamples: (
    siteId: number,
    productIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<ImageSamples>, StoreError>
  /**
   * Saves the features of photos' views beside their analyses: only for images the product has,
   * analysed with features and without views yet (a late or repeated fit changes nothing; the
   * views go when the image does). Returns how many were saved.
   */
  readonly saveImageViews: (
    siteId: number,
    productId: string,
    views: ReadonlyArray<ImageViews>
  ) => Effect.Effect<number, StoreError>
}

export class CatalogStore extends Context.Tag("CatalogStore")<CatalogStore, CatalogStoreService>() {}

/** The product's current record, or NotFound naming it. */
export const requireProduct = (siteId: number, productId: string) =>
  Effect.flatMap(CatalogStore, (store) => store.get(siteId, productId)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(new NotFound({ message: `product "${productId}" not found` })),
        onSome: Effect.succeed
      })
    )
  )
