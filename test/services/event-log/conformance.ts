import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { ShopperEvent } from "../../../src/domain/ShopperEvents.js"
import { EventLog, type EventLogService } from "../../../src/services/event-log/EventLog.js"

const view = (eventId: string, productId = "p1"): ShopperEvent => ({ eventId, type: "view", productIds: [productId] })

/**
 * The behaviour every EventLog layer must show, through the interface only. `makeLayer` is
 * called once per test and must give an empty log (a fresh data dir, a flushed Redis).
 */
export const eventLogConformance = (name: string, makeLayer: () => Layer.Layer<EventLog, unknown>) =>
  describe(`EventLog conformance: ${name}`, () => {
    const test = (title: string, body: (log: EventLogService) => Effect.Effect<void, unknown>) =>
      it.live(title, () => Effect.flatMap(EventLog, body).pipe(Effect.provide(makeLayer())))

    test("stores events in order and reads them back after a sequence, page by page", (log) =>
      Effect.gen(function* () {
        const purchase: ShopperEvent = {
          eventId: "o1",
          type: "purchase",
          productIds: ["p1", "p2"],
          orderId: "o1",
          price: 12.5,
          quantity: 2,
          userToken: "u1",
          timestamp: "2026-11-01T10:00:00Z"
        }
        const search: ShopperEvent = {
          eventId: "s1",
          type: "search",
          query: "red shoes",
          requestId: "r1",
          timestamp: 1_700_000_000_000
        }
        expect(yield* log.append(1, [view("v1"), purchase, search], 5_000)).toEqual({ accepted: 3, duplicates: 0 })
        const all = yield* log.read(1, 0, 10)
        expect(all.map((e) => e.event)).toEqual([view("v1"), purchase, search])
        expect(all.map((e) => [e.time, e.receivedAt])).toEqual([
          [5_000, 5_000],
          [Date.parse("2026-11-01T10:00:00Z"), 5_000],
          [1_700_000_000_000, 5_000]
        ])
        const sequences = all.map((e) => e.sequence)
        expect([...sequences].sort((a, b) => a - b)).toEqual(sequences)
        expect((yield* log.read(1, sequences[0], 1)).map((e) => e.event.eventId)).toEqual(["o1"])
        expect(yield* log.read(1, sequences[2], 10)).toEqual([])
        expect(yield* log.last(1)).toBe(sequences[2])
        expect(yield* log.last(2)).toBe(0)
      }))

    test("an event id is stored once: repeated in a batch or sent again, it is a duplicate", (log) =>
      Effect.gen(function* () {
        expect(yield* log.append(1, [view("a"), view("b"), view("a", "p9")], 1)).toEqual({ accepted: 2, duplicates: 1 })
        expect(yield* log.append(1, [view("b"), view("c")], 2)).toEqual({ accepted: 1, duplicates: 1 })
        const all = yield* log.read(1, 0, 10)
        // The first of a repeated id is the one kept.
        expect(all.map((e) => [e.event.eventId, e.event.productIds?.[0]])).toEqual([
          ["a", "p1"],
          ["b", "p1"],
          ["c", "p1"]
        ])
      }))

    test("sites are apart: the same event id in two sites is two events, and each reads its own", (log) =>
      Effect.gen(function* () {
        expect(yield* log.append(1, [view("e1", "site1-product")], 1)).toEqual({ accepted: 1, duplicates: 0 })
        expect(yield* log.append(2, [view("e1", "site2-product")], 1)).toEqual({ accepted: 1, duplicates: 0 })
        expect((yield* log.read(1, 0, 10)).map((e) => e.event.productIds)).toEqual([["site1-product"]])
        expect((yield* log.read(2, 0, 10)).map((e) => e.event.productIds)).toEqual([["site2-product"]])
        expect(yield* log.read(3, 0, 10)).toEqual([])
      }))

    test("a batch of a thousand events with whole baskets is stored in one append and read in pages", (log) =>
      Effect.gen(function* () {
        const basket = Array.from({ length: 40 }, (_, i) => `p${i}`)
        const events = Array.from(
          { length: 1_000 },
          (_, n): ShopperEvent => ({ eventId: `o${n}`, type: "purchase", orderId: `o${n}`, productIds: basket })
        )
        expect(yield* log.append(7, events, 1)).toEqual({ accepted: 1_000, duplicates: 0 })
        const seen: Array<string> = []
        for (let after = 0; ; ) {
          const page = yield* log.read(7, after, 300)
          if (page.length === 0) break
          seen.push(...page.map((e) => e.event.eventId))
          after = page[page.length - 1].sequence
        }
        expect(seen).toEqual(events.map((e) => e.eventId))
      }))
  })
