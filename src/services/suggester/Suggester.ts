import { Context, type Effect } from "effect"
import type { Suggestion } from "./Complete.js"
import type { ProductText } from "./Phrases.js"
import { BackendFailure } from "../../platform/BackendFailure.js"

/** A catalog change could not be shared with the other processes (the distributed layer only). */
export class SuggestError extends BackendFailure("SuggestError") {}

/** Completions for POST /auto-suggest, from each site's catalog vocabulary and past searches. */
export interface SuggesterService {
  /**
   * Idempotent: re-indexing a product replaces everything it contributed before. Many at once
   * (a bulk batch, an indexing job's products): the distributed layer shares them with the
   * other processes in one publication, not one each.
   */
  readonly indexProducts: (products: ReadonlyArray<ProductSource>) => Effect.Effect<void, SuggestError>
  /** Many at once, like `indexProducts`. */
  readonly removeProducts: (siteId: number, productIds: ReadonlyArray<string>) => Effect.Effect<void, SuggestError>
  /**
   * Called by aggregation (learning/Aggregation.ts) for a search a shopper clicked a result of:
   * a query alone, which anyone holding a read-only token can send, becomes no completion.
   * Only searches that found something become suggestions.
   */
  readonly recordQuery: (siteId: number, query: string, resultCount: number) => Effect.Effect<void>
  readonly suggest: (siteId: number, prefix: string, limit: number) => Effect.Effect<ReadonlyArray<Suggestion>>
}

/** What one product gives the vocabulary. */
export interface ProductSource {
  readonly siteId: number
  readonly productId: string
  readonly source: ProductText
}

export class Suggester extends Context.Tag("Suggester")<Suggester, SuggesterService>() {}
