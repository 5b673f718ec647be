import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { EmbeddedEventLog } from "../../../src/services/event-log/EmbeddedEventLog.js"
import { EventLog } from "../../../src/services/event-log/EventLog.js"
import { eventLogConformance } from "./conformance.js"
import { onSqlite } from "../../support/SqliteLayer.js"

const layerOn = (dataDir?: string) => onSqlite(EmbeddedEventLog.layer, "commerce-events-", dataDir)

eventLogConformance("embedded", () => layerOn())

describe("EmbeddedEventLog", () => {
  it.live("keeps its events and their ids when the store is opened again", () =>
    Effect.gen(function* () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-events-"))
      yield* Effect.flatMap(EventLog, (log) =>
        log.append(1, [{ eventId: "v1", type: "view", productIds: ["p1"] }], 1)
      ).pipe(Effect.provide(layerOn(dir)))
      const again = yield* Effect.flatMap(EventLog, (log) =>
        Effect.zip(log.append(1, [{ eventId: "v1", type: "view", productIds: ["p1"] }], 2), log.read(1, 0, 10))
      ).pipe(Effect.provide(layerOn(dir)))
      expect(again[0]).toEqual({ accepted: 0, duplicates: 1 })
      expect(again[1].map((e) => e.event.eventId)).toEqual(["v1"])
    })
  )
})
