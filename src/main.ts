import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger } from "effect"
import { App } from "./App.js"
import { tuneHeap } from "./platform/HeapTuning.js"
import { ioFairScheduler } from "./platform/IoFairScheduler.js"

tuneHeap()

// One JSON object per log line (request ids ride along as annotations); SIGTERM/SIGINT
// interrupt the main fiber, which closes the listener and releases every layer in order.
App.pipe(
  Layer.launch,
  Effect.withScheduler(ioFairScheduler),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
