import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { ConversationInfo, MemoryLogService } from "../../../src/services/memory-log/MemoryLog.js"
import { contents, type MemoryTest, user } from "./helpers.js"

/** Follows `next` to the end, so tests see exactly what a paging client sees. */
const listAll = (log: MemoryLogService, siteId: number, limit: number) =>
  Effect.gen(function* () {
    const pages: Array<ReadonlyArray<ConversationInfo>> = []
    let cursor: string | undefined
    do {
      const page = yield* log.list(siteId, limit, cursor)
      pages.push(page.conversations)
      cursor = page.next ?? undefined
    } while (cursor !== undefined)
    return pages
  })

const ids = (infos: ReadonlyArray<ConversationInfo>) => infos.map((c) => c.conversationId)

export const listingConformance = (test: MemoryTest) => {
  test("lists conversations most recently appended first, page by page, with their times", (log) =>
    Effect.gen(function* () {
      for (const id of ["c1", "c2", "c3", "c4", "c5", "c2"]) {
        yield* log.append(1, id, [user(`to ${id}`)])
        yield* Effect.sleep("5 millis") // distinct milliseconds, so the order is by time alone
      }
      const pages = yield* listAll(log, 1, 2)
      expect(pages.map(ids)).toEqual([["c2", "c5"], ["c4", "c3"], ["c1"]])
      const [c2] = pages[0]
      expect(c2).toMatchObject({ conversationId: "c2", length: 2 })
      expect(c2.createdAt < c2.lastAppendedAt).toBe(true)
      const c1 = pages[2][0]
      expect(c1.createdAt).toBe(c1.lastAppendedAt)
      expect(c1.lastAppendedAt < pages[1][1].lastAppendedAt).toBe(true)
      expect(yield* log.list(1, 10)).toMatchObject({ next: null })
      expect(yield* log.list(7, 10)).toEqual({ conversations: [], next: null })
    }))

  test("paging through conversations appended in the same millisecond misses and repeats none", (log) =>
    Effect.gen(function* () {
      const all = Array.from({ length: 40 }, (_, i) => `t${String(i).padStart(2, "0")}`)
      yield* Effect.forEach(all, (id) => log.append(1, id, [user("x")]), { concurrency: "unbounded" })
      const listed = (yield* listAll(log, 1, 7)).flat()
      expect([...ids(listed)].sort()).toEqual(all)
      const order = listed.map((c) => [c.lastAppendedAt, c.conversationId].join(" "))
      expect(order).toEqual([...order].sort().reverse())
    }))

  test("sites are isolated: same conversation id, separate logs, keys and listings", (log) =>
    Effect.gen(function* () {
      yield* log.append(1, "shared", [user("site one secret")], "k")
      expect(yield* log.recall(2, "shared", 10)).toEqual([])
      expect(yield* log.replay(2, "shared", 0, 10)).toEqual([])
      expect(yield* log.summary(2, "shared")).toBeNull()
      expect(yield* log.list(2, 10)).toEqual({ conversations: [], next: null })
      expect(yield* log.append(2, "shared", [user("site two")], "k")).toEqual({
        positions: [0],
        duplicate: false,
        length: 1
      })
      yield* log.append(2, "own", [user("mine")])
      expect(ids((yield* log.list(2, 10)).conversations).sort()).toEqual(["own", "shared"])
      expect(ids((yield* log.list(1, 10)).conversations)).toEqual(["shared"])
      expect(contents(yield* log.recall(1, "shared", 10))).toEqual(["site one secret"])
      expect(contents(yield* log.recall(2, "shared", 10))).toEqual(["site two"])
    }))
}
