import { Effect } from "effect"
import type { BadRequest, NotFound, ServiceUnavailable } from "../domain/Errors.js"
import type { BackendFailure } from "../platform/BackendFailure.js"
import type { ImageFailure } from "../services/image-intake/IntakeErrors.js"

/** A tool failure the agent should see as an `isError` result (not a protocol error). */
export interface ToolFailure {
  readonly message: string
  /** The arguments broke a rule: answered as JSON-RPC -32602 naming the field, not as a tool result. */
  readonly invalidParams?: boolean
}

/**
 * What the service code behind the tools fails with: the caller-facing API errors, image intake
 * failures and backend failures. Typed, so that a tool surfacing anything else does not compile.
 */
export type ServiceFailure = BadRequest | NotFound | ServiceUnavailable | ImageFailure | BackendFailure

/** Caller mistakes and backend failures both reach the agent as a readable tool error. */
export const asToolFailure = <A, E extends ServiceFailure, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, ToolFailure, R> => Effect.mapError(effect, (e) => ({ message: e.message }))
