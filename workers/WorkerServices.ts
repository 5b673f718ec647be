import { Layer } from "effect"
import type { CatalogIndex } from "../src/services/CatalogIndex.js"
import type { CatalogStore } from "../src/services/CatalogStore.js"
import type { Suggester } from "../src/services/Suggester.js"
import type { TextEmbedder } from "../src/services/TextEmbedder.js"
import type { AppConfig } from "../src/config/AppConfig.js"
import type { ImageAnalyzer } from "../src/services/ImageAnalyzer.js"
import type { ImageIntake } from "../src/services/ImageIntake.js"

/** What the job handlers (ProductIndexer, ProductImages) need in a worker process. */
export type WorkerServices = CatalogStore | CatalogIndex | TextEmbedder | Suggester | ImageIntake | ImageAnalyzer

export interface WorkerConfig {
  readonly redisUrl: string
}

/**
 * The worker's backends. They must be the shared, distributed ones (the records and index the
 * api reads), which do not exist yet, so a worker refuses to start rather than index into a
 * private embedded copy nobody searches. To be completed with the Redis/Qdrant layers.
 */
export const workerServices = (_config: WorkerConfig): Layer.Layer<WorkerServices, Error, AppConfig> =>
  Layer.fail(new Error("worker processes need the distributed CatalogStore and CatalogIndex layers, which are not available yet"))
