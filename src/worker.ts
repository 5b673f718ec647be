import { NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Layer, Logger } from "effect"
import { ProductImagesLive } from "./indexing/ProductImages.js"
import { ProductIndexerLive } from "./indexing/ProductIndexer.js"
import { AppConfig } from "./config/AppConfig.js"
import { tuneHeap } from "./platform/HeapTuning.js"
import { checkRedisSettings } from "./platform/redis/RedisSettingsCheck.js"
import { BullMqWorker } from "./services/job-queue/BullMqWorker.js"
import { JobHandlersLive } from "./indexing/JobHandlers.js"
import { replicasSynced } from "./topology/Shared.js"
import { workerServices } from "../workers/WorkerServices.js"

tuneHeap()

// A worker process (`npm run worker`): the api's JobHandler layer fed from the BullMQ queues at
// REDIS_URL. It takes jobs once its replicas are filled. SIGTERM/SIGINT interrupt the main
// fiber; the worker then takes no new jobs and finishes its active ones before the services close.
const Worker = Layer.unwrapEffect(Effect.map(Config.string("REDIS_URL"), (redisUrl) => {
  const Ready = Layer.effectDiscard(Effect.zipRight(checkRedisSettings(redisUrl), replicasSynced))
  return BullMqWorker.layer(redisUrl).pipe(
    Layer.provide(Ready),
    Layer.provide(JobHandlersLive),
    Layer.provide([ProductIndexerLive, ProductImagesLive]),
    Layer.provideMerge(workerServices(redisUrl))
  )
}))

Worker.pipe(
  Layer.provide(AppConfig.fromEnv),
  Layer.launch,
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
