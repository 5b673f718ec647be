import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger } from "effect"
import { App } from "./App.js"
import { tuneHeap } from "./platform/HeapTuning.js"
import { ioFairScheduler } from "./platform/IoFairScheduler.js"
import { fileURLToPath } from "node:url"
import { defaultSearchReplicas } from "./topology/replica/SearchReplicaLeader.js"

tuneHeap()

// Launched as a program (not embedded in a test), the api may fork a search replica of itself
// to use a second core: by default when the machine has one (see topology/replica).
process.env.SEARCH_REPLICA_ENTRY ??= fileURLToPath(import.meta.url)
process.env.SEARCH_REPLICAS ??= String(defaultSearchReplicas())

// One JSON object per log line (request ids ride along as annotations); SIGTERM/SIGINT
// interrupt the main fiber, which closes the listener and releases every layer in order.
App.pipe(
  Layer.launch,
  Effect.withScheduler(ioFairScheduler),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
