import { Effect, Layer, Option } from "effect"
import { AppConfig } from "../src/config/AppConfig.js"
import { IndexReplica } from "../src/services/catalog-index/ReplicatedCatalogIndex.js"
import { ImageAnalyzer } from "../src/services/ImageAnalyzer.js"
import { ImageIntake, ImageIntakeConfig } from "../src/services/ImageIntake.js"
import { SuggestReplica } from "../src/services/suggest/RedisSuggester.js"
import { TextEmbedder } from "../src/services/TextEmbedder.js"
import { distributedCatalog } from "../src/topology/Distributed.js"

/**
 * A worker's backends: the same shared catalog the api reads (records in Redis, the index in
 * Qdrant or replicated through Redis) and model threads of its own.
 */
export const workerServices = (redisUrl: string) =>
  Layer.unwrapEffect(Effect.map(AppConfig, (config) =>
    Layer.mergeAll(
      distributedCatalog({ ...config, redisUrl }),
      TextEmbedder.layer,
      ImageAnalyzer.layer,
      ImageIntake.layer.pipe(Layer.provide(ImageIntakeConfig.fromEnv))
    )))

/**
 * Completes once this process's replicas are filled: a worker takes jobs only then, since an
 * index write waits to see itself applied, and predictions read neighbours from the index.
 */
export const replicasSynced = Effect.gen(function*() {
  const index = yield* Effect.serviceOption(IndexReplica)
  if (Option.isSome(index)) yield* index.value.synced
  const suggester = yield* Effect.serviceOption(SuggestReplica)
  if (Option.isSome(suggester)) yield* suggester.value.synced
})
