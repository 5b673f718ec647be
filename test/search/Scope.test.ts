import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import { buildFilter, columnCondition, dynamicCondition } from "../../src/search/Scope.js"

const message = <A, R>(effect: Effect.Effect<A, { readonly message: string }, R>) =>
  Effect.map(Effect.flip(effect), (e) => e.message)

describe("the search scope", () => {
  it.effect("names the unknown column, where it was given and which columns exist", () =>
    Effect.gen(function* () {
      const text = yield* message(buildFilter({ staticFilters: { included: [{ column: "colour", values: ["red"] }] } }))
      expect(text).toMatch(/^staticFilters\.included\.0\.column: unknown column "colour"/)
      expect(text).toContain("color")
    })
  )

  it.effect("decodes category paths, and points at the one value that is not Base64-URL", () =>
    Effect.gen(function* () {
      expect(yield* columnCondition("f", "category", [encodeCategoryPath("Tools > Saws")])).toEqual({
        column: "category",
        anyOf: ["Tools > Saws"]
      })
      const text = yield* message(
        buildFilter({
          staticFilters: { excluded: [{ column: "category", values: [encodeCategoryPath("Tools"), "not base64!"] }] }
        })
      )
      expect(text).toMatch(/^staticFilters\.excluded\.0\.values\.1: /)
    })
  )

  it.effect("matches colours by lowercase name, also when given as a name > #hex path", () =>
    Effect.gen(function* () {
      expect(yield* columnCondition("f", "color", ["Red", " Navy Blue > #000080"])).toEqual({
        column: "color",
        anyOf: ["red", "navy blue"]
      })
    })
  )

  it.effect("takes exactly one true or false for a boolean column", () =>
    Effect.gen(function* () {
      expect(yield* columnCondition("f", "adult", ["false"])).toEqual({ column: "adult", equals: false })
      expect(yield* message(columnCondition("f", "adult", ["true", "false"]))).toMatch(/true\/false/)
      expect(yield* message(columnCondition("f", "adult", ["yes"]))).toMatch(/true\/false/)
    })
  )

  it.effect("filters numbers by interval only, and intervals only on numbers", () =>
    Effect.gen(function* () {
      expect(yield* message(columnCondition("f", "price", ["10"]))).toMatch(/numeric.*interval/)
      expect(yield* dynamicCondition("d", { column: "price", values: { start: 10, end: 20 } })).toEqual({
        column: "price",
        range: { gte: 10, lt: 20 }
      })
      expect(yield* message(dynamicCondition("d", { column: "brand", values: { start: 1 } }))).toMatch(
        /needs a numeric column/
      )
    })
  )

  it.effect("narrows by campaign, then request, then dynamic filters; exclusions never become dynamic", () =>
    Effect.gen(function* () {
      const { filter, dynamic } = yield* buildFilter({
        campaign: {
          included: [{ column: "availability", values: ["in_stock"] }],
          excluded: [{ column: "brand", values: ["Acme"] }]
        },
        staticFilters: {
          included: [{ column: "brand", values: ["Bosch", "Makita"] }],
          excluded: [{ column: "color", values: ["Green"] }]
        },
        dynamicFilters: [{ column: "price", values: { end: 100 } }]
      })
      expect(filter.must).toEqual([
        { column: "availability", anyOf: ["in_stock"] },
        { column: "brand", anyOf: ["Bosch", "Makita"] },
        { column: "price", range: { gte: undefined, lt: 100 } }
      ])
      expect(filter.mustNot).toEqual([
        { column: "brand", anyOf: ["Acme"] },
        { column: "color", anyOf: ["green"] }
      ])
      expect(dynamic).toEqual([{ column: "price", range: { gte: undefined, lt: 100 } }])
    })
  )
})
