import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { MemoryLimits, MemoryLog, type MemoryItemInput } from "../../../src/services/memory-log/MemoryLog.js"
import { concurrencyConformance } from "./conformance-concurrency.js"
import { listingConformance } from "./conformance-listing.js"
import { summaryConformance } from "./conformance-summary.js"
import { assistant, contents, type MemoryTest, positions, rejects, user } from "./helpers.js"

/**
 * The behaviour every MemoryLog layer must show, through the interface only. `makeLayer` is
 * called once per test and must give an empty store (a fresh data dir, a flushed Redis).
 * Tests run on the live clock: listing order depends on real append times.
 */
export const memoryLogConformance = (name: string, makeLayer: () => Layer.Layer<MemoryLog, unknown>) =>
  describe(`MemoryLog conformance: ${name}`, () => {
    const test: MemoryTest = (title, body, timeout) =>
      it.live(title, () => Effect.flatMap(MemoryLog, body).pipe(Effect.provide(makeLayer())), timeout)

    test("appends in order and reads back by recall and replay", (log) =>
      Effect.gen(function* () {
        expect(yield* log.append(1, "c1", [user("red shoes?"), assistant("here", { productIds: ["p1"] })])).toEqual({
          positions: [0, 1],
          duplicate: false,
          length: 2
        })
        expect(yield* log.append(1, "c1", [user("in size 42")])).toEqual({
          positions: [2],
          duplicate: false,
          length: 3
        })
        const all = yield* log.replay(1, "c1", 0, 10)
        expect(all.map(({ appendedAt: _, ...item }) => item)).toEqual([
          { role: "user", content: "red shoes?", position: 0 },
          { role: "assistant", content: "here", metadata: { productIds: ["p1"] }, position: 1 },
          { role: "user", content: "in size 42", position: 2 }
        ])
        expect(all.every((item) => new Date(item.appendedAt).toISOString() === item.appendedAt)).toBe(true)
        expect(all[2].appendedAt >= all[0].appendedAt).toBe(true)
        expect(positions(yield* log.recall(1, "c1", 2))).toEqual([1, 2])
        expect(yield* log.recall(1, "c1", 1000)).toEqual(all)
        expect(positions(yield* log.replay(1, "c1", 1, 1))).toEqual([1])
        expect(yield* log.replay(1, "c1", 3, 10)).toEqual([])
        expect(yield* log.replay(1, "c1", 500, 10)).toEqual([])
        expect(yield* log.recall(1, "never", 10)).toEqual([])
      }))

    test("an append retried with the same key is stored once and answers the same positions", (log) =>
      Effect.gen(function* () {
        const first = yield* log.append(1, "c1", [user("a"), user("b")], "batch-1")
        const retry = yield* log.append(1, "c1", [user("a"), user("b")], "batch-1")
        expect(retry).toEqual({ ...first, duplicate: true })
        expect(yield* log.append(1, "c1", [user("c")], "batch-2")).toEqual({
          positions: [2],
          duplicate: false,
          length: 3
        })
        // The key names the batch: a retry is recognised even after later appends.
        expect((yield* log.append(1, "c1", [user("a"), user("b")], "batch-1")).positions).toEqual([0, 1])
        expect(contents(yield* log.replay(1, "c1", 0, 10))).toEqual(["a", "b", "c"])
        // Keys belong to one conversation.
        expect((yield* log.append(1, "c2", [user("a")], "batch-1")).duplicate).toBe(false)
      }))

    test("a used key sent with other items is refused, not answered as a duplicate that drops them", (log) =>
      Effect.gen(function* () {
        yield* log.append(1, "c1", [user("a", { productIds: ["p1"] }), assistant("b")], "batch-1")
        for (const other of [
          [user("a", { productIds: ["p1"] })],
          [user("a", { productIds: ["p2"] }), assistant("b")],
          [user("a", { productIds: ["p1"] }), user("b")],
          [user("a"), assistant("b")]
        ]) {
          const error = yield* Effect.flip(log.append(1, "c1", other, "batch-1"))
          expect(error).toMatchObject({ _tag: "MemoryRejected", field: "idempotencyKey" })
          expect(error.message).toMatch(/already used for a different batch \(positions 0\.\.1\)/)
        }
        // The same items are still a retry, and nothing else was stored.
        expect(
          (yield* log.append(1, "c1", [user("a", { productIds: ["p1"] }), assistant("b")], "batch-1")).duplicate
        ).toBe(true)
        expect(contents(yield* log.replay(1, "c1", 0, 10))).toEqual(["a", "b"])
      }))

    test("every limit is rejected with its field named", (log) =>
      Effect.gen(function* () {
        for (const id of ["", "x".repeat(MemoryLimits.maxConversationIdChars + 1), "has space", "slash/no"]) {
          yield* rejects(log.append(1, id, [user("x")]), "conversationId")
          yield* rejects(log.recall(1, id, 1), "conversationId")
        }
        yield* rejects(log.append(1, "c1", []), "items")
        yield* rejects(
          log.append(
            1,
            "c1",
            Array.from({ length: MemoryLimits.maxBatchItems + 1 }, () => user("x"))
          ),
          "items"
        )
        yield* rejects(
          log.append(1, "c1", [user("ok"), user("x".repeat(MemoryLimits.maxContentChars + 1))]),
          "items[1].content"
        )
        yield* rejects(
          log.append(1, "c1", [user("x", { blob: "é".repeat(MemoryLimits.maxMetadataBytes / 2) })]),
          "items[0].metadata"
        )
        yield* rejects(
          log.append(1, "c1", [{ role: "robot", content: "x" } as unknown as MemoryItemInput]),
          "items[0].role"
        )
        yield* rejects(
          log.append(1, "c1", [user("x")], "k".repeat(MemoryLimits.maxIdempotencyKeyChars + 1)),
          "idempotencyKey"
        )
        yield* rejects(log.recall(1, "c1", 0), "count")
        yield* rejects(log.recall(1, "c1", MemoryLimits.maxReadItems + 1), "count")
        yield* rejects(log.replay(1, "c1", -1, 10), "offset")
        yield* rejects(log.replay(1, "c1", 0, 0), "limit")
        yield* rejects(log.list(1, MemoryLimits.maxReadItems + 1), "limit")
        yield* rejects(log.list(1, 10, "not-a-cursor"), "cursor")
        // The largest allowed values pass.
        yield* log.append(
          1,
          "x".repeat(MemoryLimits.maxConversationIdChars),
          [user("x".repeat(MemoryLimits.maxContentChars))],
          "k".repeat(MemoryLimits.maxIdempotencyKeyChars)
        )
        expect(yield* log.list(1, 10)).toMatchObject({ conversations: [{ length: 1 }] })
      }))

    test("a batch with one invalid item stores nothing", (log) =>
      Effect.gen(function* () {
        yield* log.append(1, "c1", [user("kept")])
        yield* rejects(
          log.append(1, "c1", [user("lost"), user("x".repeat(MemoryLimits.maxContentChars + 1))], "k1"),
          "items[1].content"
        )
        expect(contents(yield* log.replay(1, "c1", 0, 10))).toEqual(["kept"])
        // The rejected batch did not consume its key either.
        expect(yield* log.append(1, "c1", [user("now")], "k1")).toEqual({ positions: [1], duplicate: false, length: 2 })
      }))

    test(
      "a conversation stops at its length limit and refuses a batch that would pass it whole",
      (log) =>
        Effect.gen(function* () {
          const batch = Array.from({ length: MemoryLimits.maxBatchItems }, () => user("x"))
          const full = MemoryLimits.maxConversationItems
          yield* Effect.forEach(Array.from({ length: full / batch.length - 1 }), () => log.append(1, "long", batch), {
            concurrency: 8
          })
          yield* log.append(1, "long", batch.slice(50))
          yield* rejects(log.append(1, "long", batch), "items")
          expect((yield* log.append(1, "long", batch.slice(50))).length).toBe(full)
          yield* rejects(log.append(1, "long", [user("one more")]), "items")
          expect(positions(yield* log.recall(1, "long", 1))).toEqual([full - 1])
        }),
      120_000
    )

    listingConformance(test)
    concurrencyConformance(test)
    summaryConformance(test)
  })
