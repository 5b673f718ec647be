import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { searchTools } from "../../../src/mcp/tools/SearchTools.js"
import type { Principal } from "../../../src/services/auth/Auth.js"
import { ids, stockedShop } from "../../support/Shop.js"

/** Runs a tool as an agent of site A with a read token would, without the MCP transport. */
const call = (name: (typeof searchTools)[number]["name"], input: unknown) => {
  const tool = searchTools.find((t) => t.name === name)!
  const principal: Principal = { siteId: 1, scope: "read", subject: "test-agent" }
  // The encoded result, as the agent receives it; the tools called here need only the shop's services.
  return tool.call(principal, input) as Effect.Effect<
    any,
    { message: string },
    Layer.Layer.Success<ReturnType<typeof stockedShop>>
  >
}

describe("search tools", () => {
  it.layer(stockedShop())((it) => {
    it.effect("text_search searches the principal's site only", () =>
      Effect.gen(function* () {
        const found = ids((yield* call("text_search", { query: "brass desk lamp" })).data.products)
        expect(found[0]).toBe("lamp-1")
        expect(found).not.toContain("b-lamp")
      })
    )

    it.effect("text_search lists a sorted page with exact facet counts, as POST /text-search does", () =>
      Effect.gen(function* () {
        const listed = (yield* call("text_search", {
          query: "lamp",
          resultsCount: 2,
          offset: 1,
          sort: [{ column: "price", order: "desc" }]
        })).data
        const all = (yield* call("text_search", {
          query: "lamp",
          resultsCount: 50,
          sort: [{ column: "price", order: "desc" }]
        })).data
        expect(ids(listed.products)).toEqual(ids(all.products).slice(1, 3))
        expect(listed.total).toBe(all.products.length)
        const prices = all.products.map(
          (p: { price: { actual: number; sale: number | null } }) => p.price.sale ?? p.price.actual
        )
        expect(prices).toEqual([...prices].sort((a: number, b: number) => b - a))
        for (const facet of listed.interactions.dynamicFilters)
          for (const value of facet.values) expect(value.count).toBeGreaterThan(0)
      })
    )

    it.effect("a caller's mistake reaches the agent as a plain message, not a tagged error", () =>
      Effect.gen(function* () {
        expect(yield* Effect.flip(call("similar_products", { productId: "b-lamp" }))).toEqual({
          message: 'product "b-lamp" not found'
        })
        const wrongCampaign = yield* Effect.flip(call("text_search", { query: "lamp", campaign: 42 }))
        expect(Object.keys(wrongCampaign)).toEqual(["message"])
        expect(wrongCampaign.message).toMatch(/campaign/)
      })
    )
  })
})
