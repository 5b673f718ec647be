import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger } from "effect"
import { App } from "./App.js"
import { tuneHeap } from "./platform/HeapTuning.js"
import { ioFairScheduler } from "./platform/IoFairScheduler.js"
import { fileURLToPath } from "node:url"
import { ProcessEntry } from "./topology/replica/ReplicaMessages.js"

tuneHeap()

// One JSON object per log line (request ids ride along as annotations); SIGTERM/SIGINT
// interrupt the main fiber, which closes the listener and releases every layer in order.
// Launched as a program (not embedded in a test), the api can fork search replicas of itself
// (SEARCH_REPLICAS, see topology/replica): this script is what they run.
App.pipe(
  Layer.provide(Layer.succeed(ProcessEntry, fileURLToPath(import.meta.url))),
  Layer.launch,
  Effect.withScheduler(ioFairScheduler),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
