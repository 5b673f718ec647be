import { Data, Predicate } from "effect"

export const BackendFailureTypeId: unique symbol = Symbol.for("commerce-search/BackendFailure")

/**
 * A backend (store, index, model, queue, Redis …) failed: nothing the caller did, and nothing
 * it can do but retry. Every such service error extends `BackendFailure(tag)`, so the HTTP and
 * MCP edges recognise it by type: a new backend error is answered like the others (503) without
 * anyone listing its tag, and an error that is not one cannot be answered as one by accident.
 */
export interface BackendFailure {
  readonly [BackendFailureTypeId]: typeof BackendFailureTypeId
  readonly _tag: string
  readonly message: string
}

/** The base class of a backend error: `class StoreError extends BackendFailure("StoreError") {}`. */
export const BackendFailure = <const Tag extends string>(tag: Tag) =>
  class
    extends Data.TaggedError(tag)<{ readonly message: string; readonly cause?: unknown }>
    implements BackendFailure
  {
    readonly [BackendFailureTypeId]: typeof BackendFailureTypeId = BackendFailureTypeId
  }

export const isBackendFailure = (u: unknown): u is BackendFailure => Predicate.hasProperty(u, BackendFailureTypeId)
