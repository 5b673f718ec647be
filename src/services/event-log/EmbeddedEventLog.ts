import { Effect, Layer } from "effect"
import { eventTime, type ShopperEvent } from "../../domain/ShopperEvents.js"
import { Sqlite } from "../../platform/Sqlite.js"
import { decodeEvent, encodeEvent } from "./EventCodec.js"
import { EventLog, EventLogError, type StoredEvent } from "./EventLog.js"

/**
 * The embedded EventLog: a table in the process's SQLite file (WAL, synchronous=NORMAL: a
 * committed append survives SIGKILL). One transaction per append; the unique (site, event id)
 * makes a repeated event a no-op, counted as a duplicate.
 */
const schema = `
CREATE TABLE IF NOT EXISTS shopper_events (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  event TEXT NOT NULL,
  UNIQUE (site_id, event_id)
);
CREATE INDEX IF NOT EXISTS shopper_events_site ON shopper_events (site_id, sequence);
`

interface EventRow {
  sequence: number
  time: number
  received_at: number
  event: string
}

const attempt = <A>(what: string, f: () => A) =>
  Effect.try({
    try: f,
    catch: (cause) => new EventLogError({ message: `events: ${what} failed: ${String(cause)}`, cause })
  })

const layer: Layer.Layer<EventLog, never, Sqlite> = Layer.effect(
  EventLog,
  Effect.gen(function* () {
    const db = yield* Sqlite
    db.exec(schema)
    const insert = db.prepare(
      "INSERT OR IGNORE INTO shopper_events (site_id, event_id, time, received_at, event) VALUES (?, ?, ?, ?, ?)"
    )
    const select = db.prepare<[number, number, number], EventRow>(
      "SELECT sequence, time, received_at, event FROM shopper_events " +
        "WHERE site_id = ? AND sequence > ? ORDER BY sequence LIMIT ?"
    )
    const last = db.prepare<[number], { sequence: number | null }>(
      "SELECT MAX(sequence) AS sequence FROM shopper_events WHERE site_id = ?"
    )
    const appendTx = db.transaction((siteId: number, events: ReadonlyArray<ShopperEvent>, receivedAt: number) => {
      let accepted = 0
      for (const event of events)
        accepted += insert.run(
          siteId,
          event.eventId,
          eventTime(event, receivedAt),
          receivedAt,
          encodeEvent(event)
        ).changes
      return { accepted, duplicates: events.length - accepted }
    })
    return EventLog.of({
      append: (siteId, events, receivedAt) => attempt("append", () => appendTx(siteId, events, receivedAt)),
      read: (siteId, sequence, limit) =>
        attempt("read", () =>
          select.all(siteId, sequence, limit).map(
            (row): StoredEvent => ({
              sequence: row.sequence,
              event: decodeEvent(row.event),
              time: row.time,
              receivedAt: row.received_at
            })
          )
        ),
      last: (siteId) => attempt("last", () => last.get(siteId)?.sequence ?? 0)
    })
  })
)

export const EmbeddedEventLog = { layer }
