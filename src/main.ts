import { NodeRuntime } from "@effect/platform-node"
import { Layer, Logger } from "effect"
import { App } from "./App.js"
import { AppConfig } from "./config/AppConfig.js"

App(AppConfig.fromEnv).pipe(Layer.provide(Logger.json), Layer.launch, NodeRuntime.runMain)
