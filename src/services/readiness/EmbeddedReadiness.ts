import { Effect, Layer, Ref } from "effect"
import { Readiness } from "./Readiness.js"

/** A flag in this process's memory: each process reports its own readiness. */
export const EmbeddedReadiness = {
  layer: Layer.effect(
    Readiness,
    Effect.map(Ref.make(false), (ref) => ({ ready: Ref.get(ref), markReady: Ref.set(ref, true) }))
  )
}
