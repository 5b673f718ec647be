import { Effect, Layer } from "effect"
import { AppConfig } from "../src/config/AppConfig.js"
import { distributedCatalog } from "../src/topology/Distributed.js"
import { Models } from "../src/topology/Shared.js"

/**
 * A worker's backends: the same shared catalog the api reads (records in Redis, the index in
 * Qdrant or replicated through Redis) and model threads of its own.
 */
export const workerServices = (redisUrl: string) =>
  Layer.unwrapEffect(Effect.map(AppConfig, (config) => Layer.mergeAll(distributedCatalog({ ...config, redisUrl }), Models)))
