import { Context, type Effect } from "effect"
import type { ShopperEvent } from "../../domain/ShopperEvents.js"
import { BackendFailure } from "../../platform/BackendFailure.js"

export class EventLogError extends BackendFailure("EventLogError") {}

/** An event as stored: the site's sequence orders what aggregation has read. */
export interface StoredEvent {
  /** Increasing in the order events were stored (per site; gaps allowed). */
  readonly sequence: number
  readonly event: ShopperEvent
  /** When it happened, epoch ms: its own timestamp, else when it was received. */
  readonly time: number
  readonly receivedAt: number
}

export interface AppendedEvents {
  readonly accepted: number
  /** Events whose id the site already had (before, or earlier in the same batch): not stored again. */
  readonly duplicates: number
}

/**
 * Shoppers' events per site: an append-only log, idempotent per event id, durable once an
 * append returns. Aggregation (popularity, co-purchases, analytics) reads it in sequence order.
 */
export interface EventLogService {
  readonly append: (
    siteId: number,
    events: ReadonlyArray<ShopperEvent>,
    receivedAt: number
  ) => Effect.Effect<AppendedEvents, EventLogError>
  /** Up to `limit` of the site's events stored after `sequence` (0: from the start), in order. */
  readonly read: (
    siteId: number,
    sequence: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<StoredEvent>, EventLogError>
  /** The sequence of the site's latest event (0: none): aggregation is behind while its cursor is lower. */
  readonly last: (siteId: number) => Effect.Effect<number, EventLogError>
}

export class EventLog extends Context.Tag("EventLog")<EventLog, EventLogService>() {}
