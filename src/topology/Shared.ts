import { Effect, Layer, Option } from "effect"
import { IndexReplica } from "../services/catalog-index/ReplicatedCatalogIndex.js"
import { EmbeddedImageAnalyzer } from "../services/image-analyzer/EmbeddedImageAnalyzer.js"
import { EmbeddedImageIntake } from "../services/image-intake/EmbeddedImageIntake.js"
import { ImageIntakeConfig } from "../services/image-intake/ImageIntakeConfig.js"
import { SuggestReplica } from "../services/suggester/RedisSuggester.js"
import { EmbeddedTextEmbedder } from "../services/text-embedder/EmbeddedTextEmbedder.js"

/** The model threads and image intake: every process that embeds or analyses has its own. */
export const Models = Layer.mergeAll(
  EmbeddedImageAnalyzer.layer,
  EmbeddedImageIntake.layer.pipe(Layer.provide(ImageIntakeConfig.fromEnv)),
  EmbeddedTextEmbedder.layer
)

/**
 * Completes once this process's replicas (distributed index, suggester vocabulary) are filled;
 * at once where there are none. The api is ready only then, and a worker takes jobs only then.
 */
export const replicasSynced = Effect.gen(function*() {
  const index = yield* Effect.serviceOption(IndexReplica)
  if (Option.isSome(index)) yield* index.value.synced
  const suggester = yield* Effect.serviceOption(SuggestReplica)
  if (Option.isSome(suggester)) yield* suggester.value.synced
})
