import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { assistant, type MemoryTest, user } from "./helpers.js"

export const summaryConformance = (test: MemoryTest) => {
  test("the summary follows the conversation as items are appended", (log) =>
    Effect.gen(function* () {
      expect(yield* log.summary(1, "shop")).toBeNull()
      yield* log.append(1, "shop", [user("hi")])
      expect(yield* log.summary(1, "shop")).toMatchObject({
        length: 1,
        lookingFor: [],
        lastUser: "hi",
        lastAssistant: null
      })

      yield* log.append(1, "shop", [
        user("I need trail running shoes", { filters: [{ column: "size", values: ["42"] }] }),
        assistant("Here are three options", { productIds: ["p1", "p2", "p3"] })
      ])
      yield* log.append(1, "shop", [user("thanks!")])
      yield* log.append(1, "shop", [
        user("show me red ones under 100", {
          filters: [
            { column: "color", values: ["red"] },
            { column: "size", values: ["43"] }
          ]
        }),
        assistant("SKU-5551 is red and costs 89")
      ])
      const summary = yield* log.summary(1, "shop")
      const last = (yield* log.recall(1, "shop", 1))[0]
      expect(summary).toEqual({
        conversationId: "shop",
        length: 6,
        lookingFor: ["I need trail running shoes", "show me red ones under 100"],
        products: ["SKU-5551", "p1", "p2", "p3"],
        filters: [
          { column: "size", values: ["43"] },
          { column: "color", values: ["red"] }
        ],
        lastUser: "show me red ones under 100",
        lastAssistant: "SKU-5551 is red and costs 89",
        text: expect.stringContaining("“show me red ones under 100”"),
        updatedAt: last.appendedAt
      })
      expect(summary?.text).toContain("size = 43")
    }))
}
