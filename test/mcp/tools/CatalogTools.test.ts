import { describe, expect, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { catalogTools } from "../../../src/mcp/tools/CatalogTools.js"
import type { Principal } from "../../../src/services/auth/Auth.js"
import { stockedShop } from "../../support/Shop.js"

/** Runs a tool as an agent of `siteId` with a read token would, without the MCP transport. */
const call = (name: (typeof catalogTools)[number]["name"], input: unknown, siteId = 1) => {
  const tool = catalogTools.find((t) => t.name === name)!
  const principal: Principal = { siteId, scope: "read", subject: "test-agent" }
  // The encoded result, as the agent receives it; the tools called here need only the shop's services.
  return tool.call(principal, input) as Effect.Effect<
    any,
    { message: string },
    Layer.Layer.Success<ReturnType<typeof stockedShop>>
  >
}

describe("catalog tools", () => {
  it.layer(stockedShop())((it) => {
    it.effect("get_items answers in the order asked and lists unknown ids, also those of another site", () =>
      Effect.gen(function* () {
        const result = yield* call("get_items", { productIds: ["mug-2", "b-lamp", "lamp-1", "nope"] })
        expect(result.items.map((i: { productId: string }) => i.productId)).toEqual(["mug-2", "lamp-1"])
        expect(result.missing).toEqual(["b-lamp", "nope"])
      })
    )

    it.effect("get_item_group returns every variant, and fails readably for an unknown group", () =>
      Effect.gen(function* () {
        const group = yield* call("get_item_group", { itemGroupId: "mug" })
        expect(group.items.map((i: { productId: string }) => i.productId)).toEqual(["mug-1", "mug-2"])
        expect(yield* Effect.flip(call("get_item_group", { itemGroupId: "mug" }, 2))).toEqual({
          message: 'item group "mug" not found'
        })
      })
    )

    it.effect("describe_column counts a column's values catalog-wide, and gives a number's range", () =>
      Effect.gen(function* () {
        const brand = yield* call("describe_column", { column: "brand" })
        expect(brand).toMatchObject({ type: "string", products: 10, distinctValues: 4 })
        expect(brand.values).toContainEqual({ value: "Luma", count: 4 })
        expect(yield* call("describe_column", { column: "price" })).toMatchObject({
          type: "number",
          products: 10,
          range: { min: 5, max: 120 }
        })
      })
    )

    it.effect("list_relevant_columns leaves out identifying columns and columns without a choice", () =>
      Effect.gen(function* () {
        const { totalProducts, columns } = yield* call("list_relevant_columns", {})
        expect(totalProducts).toBe(10)
        const names = columns.map((c: { column: string }) => c.column)
        expect(names).toEqual(expect.arrayContaining(["brand", "color", "price", "availability", "category"]))
        expect(names).not.toContain("item_group_id")
        expect(names).not.toContain("gender")
        // Most-filled first.
        const filled = columns.map((c: { products: number }) => c.products)
        expect(filled).toEqual([...filled].sort((a, b) => b - a))
      })
    )
  })
})
