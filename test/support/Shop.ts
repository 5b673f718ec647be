import { SiteVisualSpacesLive } from "../../src/visual-space/SiteVisualSpaces.js"
import { EmbeddedVisualSpaceStore } from "../../src/visual-space/EmbeddedVisualSpaceStore.js"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { ProductRecord } from "../../src/domain/Product.js"
import type { Campaign, Site } from "../../src/domain/Site.js"
import { ProductIndexer, ProductIndexerLive } from "../../src/indexing/ProductIndexer.js"
import { Sqlite } from "../../src/platform/Sqlite.js"
import { EmbeddedMerchandisingStore } from "../../src/services/merchandising/EmbeddedMerchandisingStore.js"
import { EmbeddedCatalogIndex } from "../../src/services/catalog-index/EmbeddedCatalogIndex.js"
import { CatalogStore } from "../../src/services/catalog-store/CatalogStore.js"
import { EmbeddedCatalogStore } from "../../src/services/catalog-store/EmbeddedCatalogStore.js"
import { createSite, putCampaign } from "../../src/services/site-registry/SiteAdmin.js"
import { EmbeddedSiteRegistry } from "../../src/services/site-registry/EmbeddedSiteRegistry.js"
import { EmbeddedSuggester } from "../../src/services/suggester/EmbeddedSuggester.js"
import { EmbeddedShopperStats } from "../../src/services/shopper-stats/EmbeddedShopperStats.js"
import type { ShopperStats } from "../../src/services/shopper-stats/ShopperStats.js"
import { EmbeddedEventLog } from "../../src/services/event-log/EmbeddedEventLog.js"
import type { EventLog } from "../../src/services/event-log/EventLog.js"
import { EmbeddedJobQueue } from "../../src/services/job-queue/EmbeddedJobQueue.js"
import { JobHandler } from "../../src/services/job-queue/JobQueue.js"
import type { Job } from "../../src/model/Jobs.js"
import { aggregateJobs } from "../../src/learning/Aggregation.js"
import { ShopperSignalsLive } from "../../src/learning/ShopperSignals.js"
import type { Suggester } from "../../src/services/suggester/Suggester.js"
import { HashingTextEmbedder } from "./HashingTextEmbedder.js"
import { settings } from "./Settings.js"

/**
 * The search rules' world in this process, in milliseconds: the embedded index and store (a
 * SQLite file in a temp dir), the embedded suggester, a fixed registry of two sites and the
 * hashing stand-in for the text model. Products go in through the real ProductIndexer.
 */

/** Site A (id 1) with `campaigns` added, and site B (id 2) with only the default. */
export const twoSites = (campaigns: ReadonlyArray<Campaign> = []) =>
  Effect.gen(function* () {
    const a = yield* createSite({ sites: [] }, "shop-a")
    const b = yield* createSite(a.file, "shop-b")
    return { a: campaigns.reduce(putCampaign, a.site), b: b.site }
  })

const tempDataDir = Layer.unwrapScoped(
  Effect.acquireRelease(
    Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "commerce-search-"))),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  ).pipe(Effect.map((dataDir) => settings({ DATA_DIR: dataDir })))
)

/**
 * The embedded queue running the aggregation jobs that searches and events ask for (products are
 * indexed by `stock` itself).
 */
const aggregationQueue = EmbeddedJobQueue.layer().pipe(
  Layer.provide(
    Layer.effect(
      JobHandler,
      Effect.map(Effect.context<EventLog | ShopperStats | Suggester>(), (learning) => ({
        handle: (jobs: ReadonlyArray<Job>) => aggregateJobs(jobs).pipe(Effect.provide(learning))
      }))
    )
  )
)

export const shopLayer = (sites: ReadonlyArray<Site>) => {
  const backends = Layer.mergeAll(
    EmbeddedCatalogStore.layer,
    EmbeddedSuggester.layer,
    EmbeddedShopperStats.layer,
    EmbeddedEventLog.layer,
    EmbeddedMerchandisingStore.layer,
    SiteVisualSpacesLive.pipe(Layer.provideMerge(EmbeddedVisualSpaceStore.layer))
  ).pipe(Layer.provide(Sqlite.layer), Layer.provide(tempDataDir))
  const services = Layer.mergeAll(
    Layer.mergeAll(aggregationQueue, ShopperSignalsLive).pipe(Layer.provideMerge(backends)),
    EmbeddedCatalogIndex.layer,
    HashingTextEmbedder,
    EmbeddedSiteRegistry.fromSites(sites)
  )
  return ProductIndexerLive.pipe(Layer.provideMerge(services))
}

export interface ShopProduct {
  readonly id: string
  readonly data: Record<string, unknown>
}

/** Stores the products of one site and indexes them, as a PUT and its IndexProduct job do. */
export const stock = (siteId: number, products: ReadonlyArray<ShopProduct>) =>
  Effect.gen(function* () {
    const store = yield* CatalogStore
    for (const p of products) yield* store.put(siteId, p.id, p.data as ProductRecord, [])
    yield* Effect.flatMap(ProductIndexer, (indexer) =>
      indexer.index(products.map((p) => ({ siteId, productId: p.id })))
    )
  })

export const ids = (products: ReadonlyArray<{ readonly productId?: string | undefined }>) =>
  products.map((p) => p.productId)

const lighting = (leaf: string) => `Home > Lighting > ${leaf}`
const kitchen = (leaf: string) => `Home > Kitchen > ${leaf}`

/** Site A's catalog: lamps of three brands in five leaf categories, a bulb, two mug variants, a kettle. */
export const shopProducts: ReadonlyArray<ShopProduct> = [
  {
    id: "lamp-1",
    data: {
      title: "Brass desk lamp",
      brand: "Luma",
      product_type: lighting("Desk Lamps"),
      color: "Gold",
      price: 40,
      availability: "in_stock"
    }
  },
  {
    id: "lamp-2",
    data: {
      title: "Walnut desk lamp",
      brand: "Luma",
      product_type: lighting("Desk Lamps"),
      color: "Brown",
      price: 60,
      availability: "in_stock"
    }
  },
  {
    id: "lamp-3",
    data: {
      title: "Steel floor lamp",
      brand: "Nordlys",
      product_type: lighting("Floor Lamps"),
      color: "Black",
      price: 120,
      availability: "out_of_stock"
    }
  },
  {
    id: "lamp-4",
    data: {
      title: "Paper pendant lamp",
      brand: "Nordlys",
      product_type: lighting("Pendants"),
      color: "White",
      price: 25,
      availability: "in_stock"
    }
  },
  {
    id: "lamp-5",
    data: {
      title: "Glass table lamp",
      brand: "Luma",
      product_type: lighting("Table Lamps"),
      color: "Green",
      price: 80,
      availability: "in_stock"
    }
  },
  {
    id: "lamp-6",
    data: {
      title: "Clip lamp for shelves",
      brand: "Brightr",
      product_type: lighting("Desk Lamps"),
      color: "Black",
      price: 15,
      availability: "in_stock"
    }
  },
  {
    id: "bulb-1",
    data: {
      title: "LED bulb warm white",
      brand: "Luma",
      product_type: lighting("Bulbs"),
      price: 5,
      availability: "in_stock"
    }
  },
  {
    id: "mug-1",
    data: {
      title: "Stoneware coffee mug blue",
      brand: "Clayworks",
      product_type: kitchen("Mugs"),
      item_group_id: "mug",
      color: "Blue",
      price: 12,
      availability: "in_stock"
    }
  },
  {
    id: "mug-2",
    data: {
      title: "Stoneware coffee mug red",
      brand: "Clayworks",
      product_type: kitchen("Mugs"),
      item_group_id: "mug",
      color: "Red",
      price: 12,
      availability: "in_stock"
    }
  },
  {
    id: "kettle-1",
    data: {
      title: "Enamel kettle",
      brand: "Clayworks",
      product_type: kitchen("Kettles"),
      color: "Red",
      price: 45,
      availability: "in_stock"
    }
  }
]

/** Site B's only product, worded like site A's lamps: it must never show up for site A. */
export const otherShopProducts: ReadonlyArray<ShopProduct> = [
  {
    id: "b-lamp",
    data: {
      title: "Brass desk lamp from the other shop",
      brand: "Luma",
      product_type: lighting("Desk Lamps"),
      price: 41
    }
  }
]

export const lampIds = shopProducts.filter((p) => p.id.startsWith("lamp-")).map((p) => p.id)

/** The shop with both sites stocked, for a test body that needs nothing else. */
export const stockedShop = (campaigns: ReadonlyArray<Campaign> = []) =>
  Layer.unwrapEffect(
    Effect.map(twoSites(campaigns), ({ a, b }) =>
      Layer.effectDiscard(Effect.zipRight(stock(a.id, shopProducts), stock(b.id, otherShopProducts))).pipe(
        Layer.provideMerge(shopLayer([a, b]))
      )
    )
  )
