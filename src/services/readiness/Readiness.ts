import { Context, Effect, Layer, Ref } from "effect"

/** Whether the process can answer queries: models loaded and the index rebuilt from the store. */
export class Readiness extends Context.Tag("Readiness")<Readiness, {
  readonly ready: Effect.Effect<boolean>
  readonly markReady: Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(
    Readiness,
    Effect.map(Ref.make(false), (ref) => ({ ready: Ref.get(ref), markReady: Ref.set(ref, true) }))
  )
}
