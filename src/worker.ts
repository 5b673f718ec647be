import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger } from "effect"
import { tuneHeap } from "./platform/HeapTuning.js"
import { ioFairScheduler } from "./platform/IoFairScheduler.js"
import { WorkerTopology } from "./topology/Topology.js"

tuneHeap()

// A worker process (`npm run worker`): the api's job handlers fed from the BullMQ queues at
// REDIS_URL. It takes jobs once its replicas are filled. SIGTERM/SIGINT interrupt the main
// fiber; the worker then takes no new jobs and finishes its active ones before the services close.
WorkerTopology.pipe(
  Layer.launch,
  Effect.withScheduler(ioFairScheduler),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
