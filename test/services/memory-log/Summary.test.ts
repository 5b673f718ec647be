import { describe, expect, it } from "vitest"
import type { MemoryItem, MemoryItemInput } from "../../../src/services/memory-log/MemoryLog.js"
import { emptySummary, foldSummary, renderSummary } from "../../../src/services/memory-log/Summary.js"

/** Stored items with consecutive positions and one-second steps, as a layer would return them. */
const log = (...inputs: Array<MemoryItemInput>): Array<MemoryItem> =>
  inputs.map((input, position) => ({
    ...input,
    position,
    appendedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, position)).toISOString()
  }))
const u = (content: string, metadata?: Record<string, unknown>): MemoryItemInput => ({
  role: "user",
  content,
  metadata
})
const a = (content: string, metadata?: Record<string, unknown>): MemoryItemInput => ({
  role: "assistant",
  content,
  metadata
})

describe("extractive summary", () => {
  it("keeps the last three substantive user requests, skipping courtesy words", () => {
    const s = foldSummary(
      emptySummary,
      log(
        u("I want a tent"),
        u("ok"),
        u("a 2-person one"),
        u("Thanks!"),
        u("under 3 kg"),
        u("Thank you so much :)"),
        u("and green, please"),
        u("ok thanks"),
        a("Sure, here are some"),
        { role: "tool", content: "search: tent green" }
      )
    )
    expect(s.lookingFor).toEqual(["a 2-person one", "under 3 kg", "and green, please"])
    expect(s.lastUser).toBe("ok thanks")
    expect(s.lastAssistant).toBe("Sure, here are some")
    expect(s.length).toBe(10)
    expect(s.updatedAt).toBe("2025-01-01T00:00:09.000Z")
  })

  it("trims long requests and collapses their whitespace", () => {
    const s = foldSummary(emptySummary, log(u(`  looking   for\n${"very ".repeat(100)}long boots`)))
    expect(s.lookingFor[0]).toHaveLength(200)
    expect(s.lookingFor[0]).toMatch(/^looking for very very .*…$/)
    expect(s.lastUser!.length).toBeLessThanOrEqual(300)
  })

  it("takes products from metadata, and from content only when metadata names none", () => {
    const s = foldSummary(
      emptySummary,
      log(
        a("The RTX 4090 and iPhone 15 are not ids; SKU-1001 and p_000123 are"),
        a("Results mention SKU-9999 in passing", { productIds: ["p7", "p8"] }),
        u("compare p8 with SKU-1001 please")
      )
    )
    expect(s.products).toEqual(["SKU-1001", "p7", "p8", "p_000123"])
  })

  it("keeps the latest values per filter column, most recent first, and drops cleared ones", () => {
    const s = foldSummary(
      emptySummary,
      log(
        u("red or blue, size M", {
          filters: [
            { column: "color", values: ["red", "blue"] },
            { column: "size", values: ["M"] }
          ]
        }),
        u("any brand but in wool", {
          filters: [
            { column: "material", values: ["wool"] },
            { column: "brand", values: [] }
          ]
        }),
        u("only blue now", {
          filters: [{ column: "color", values: ["blue"] }, { column: "size", values: [] }, { bogus: 1 }]
        })
      )
    )
    expect(s.filters).toEqual([
      { column: "color", values: ["blue"] },
      { column: "material", values: ["wool"] }
    ])
  })

  it("is the same whether folded at once or batch by batch, and ignores positions already folded", () => {
    const items = log(
      u("hiking boots"),
      a("try p1", { productIds: ["p1"] }),
      u("waterproof", { filters: [{ column: "w", values: ["yes"] }] }),
      a("p2 then")
    )
    const once = foldSummary(emptySummary, items)
    const stepwise = foldSummary(
      foldSummary(foldSummary(emptySummary, items.slice(0, 1)), items.slice(1, 3)),
      items.slice(3)
    )
    expect(stepwise).toEqual(once)
    expect(foldSummary(once, items.slice(1))).toEqual(once)
    expect(JSON.parse(JSON.stringify(once))).toEqual(once)
  })

  it("renders a short paragraph from the parts", () => {
    const s = foldSummary(
      emptySummary,
      log(
        u("a kettle for camping", { filters: [{ column: "capacity", values: ["1l"] }] }),
        a("The KT-2001 fits", { productIds: ["KT-2001"] })
      )
    )
    expect(renderSummary("c1", s)).toEqual({
      conversationId: "c1",
      length: 2,
      lookingFor: ["a kettle for camping"],
      products: ["KT-2001"],
      filters: [{ column: "capacity", values: ["1l"] }],
      lastUser: "a kettle for camping",
      lastAssistant: "The KT-2001 fits",
      text:
        "The user asked for: “a kettle for camping” (latest last). Products mentioned (most recent first): " +
        "KT-2001. Filters: capacity = 1l. Last from the user: “a kettle for camping”. " +
        "Last from the assistant: “The KT-2001 fits”.",
      updatedAt: "2025-01-01T00:00:01.000Z"
    })
    expect(renderSummary("c2", foldSummary(emptySummary, log({ role: "system", content: "be nice" }))).text).toBe(
      "Nothing from the user or the assistant yet."
    )
  })
})
