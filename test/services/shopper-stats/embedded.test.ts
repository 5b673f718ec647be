import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { EmbeddedShopperStats } from "../../../src/services/shopper-stats/EmbeddedShopperStats.js"
import { ShopperStats } from "../../../src/services/shopper-stats/ShopperStats.js"
import { onSqlite } from "../../support/SqliteLayer.js"
import { shopperStatsConformance } from "./conformance.js"

const layerOn = (dataDir?: string) => onSqlite(EmbeddedShopperStats.layer, "commerce-stats-", dataDir)

shopperStatsConformance("embedded", () => layerOn())

describe("EmbeddedShopperStats", () => {
  it.live("keeps its cursor and counts when the store is opened again", () =>
    Effect.gen(function* () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-stats-"))
      yield* Effect.flatMap(ShopperStats, (stats) =>
        stats.apply(1, 0, 9, { products: [], pairs: [{ a: "x", b: "y", together: 2 }], queries: [], searches: [] })
      ).pipe(Effect.provide(layerOn(dir)))
      const [cursor, with_] = yield* Effect.flatMap(ShopperStats, (stats) =>
        Effect.zip(stats.cursor(1), stats.boughtWith(1, "y", 1, 5))
      ).pipe(Effect.provide(layerOn(dir)))
      expect(cursor).toBe(9)
      expect(with_.partners).toEqual([{ productId: "x", together: 2, orders: 0 }])
    })
  )
})
