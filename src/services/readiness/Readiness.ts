import { Context, type Effect } from "effect"

/** Whether the process can answer queries: models loaded and the index rebuilt from the store. */
export interface ReadinessShape {
  readonly ready: Effect.Effect<boolean>
  readonly markReady: Effect.Effect<void>
}

export class Readiness extends Context.Tag("Readiness")<Readiness, ReadinessShape>() {}
