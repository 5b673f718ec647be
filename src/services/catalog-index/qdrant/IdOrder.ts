import { productIdOf } from "./Layout.js"
import type { Schemas } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import type { IndexError } from "../CatalogIndex.js"
import type { Qdrant } from "./Client.js"
import { call } from "./Request.js"
import { andAlso, type QdrantFilter } from "./FilterTranslation.js"
import { byCodeUnits } from "../ColumnValues.js"
import { idOrder, ORDER_KEY, PRODUCT_KEY } from "./Layout.js"
import { scrollAll } from "./Points.js"

/**
 * The first `limit` points of `filter` by product id (after `after`, when given), and whether
 * more follow: one `order_by` scroll on the key, plus the points tying with its last key (and
 * with `after`'s), so the cut falls exactly where code-unit order puts it. O(limit + ties).
 */
export const byProductId = (
  q: Qdrant,
  filter: QdrantFilter,
  limit: number,
  payload: ReadonlyArray<string>,
  after?: string
): Effect.Effect<{ readonly records: Array<Schemas["Record"]>; readonly more: boolean }, IndexError> =>
  Effect.gen(function* () {
    const withPayload = [...new Set([PRODUCT_KEY, ...payload])]
    const tying = (key: number, scope: QdrantFilter) =>
      scrollAll(
        q,
        andAlso(scope, { key: ORDER_KEY, range: { gte: key, lte: key } }),
        withPayload,
        Number.MAX_SAFE_INTEGER
      )
    const records: Array<Schemas["Record"]> = []
    let rest = filter
    if (after !== undefined) {
      const key = idOrder(after)
      records.push(...(yield* tying(key, filter)).filter((record) => productIdOf(record.payload) > after))
      rest = andAlso(filter, { key: ORDER_KEY, range: { gt: key } })
    }
    // One beyond the page tells whether more follow.
    const want = limit + 1
    const { points } = yield* call("scroll", () =>
      q.client.scroll(q.collection, {
        filter: rest,
        limit: want,
        with_payload: withPayload,
        order_by: { key: ORDER_KEY, direction: "asc" }
      })
    )
    records.push(...points)
    if (points.length === want) {
      const seen = new Set(points.map((point) => String(point.id)))
      const last = Number(points[points.length - 1].order_value)
      records.push(...(yield* tying(last, rest)).filter((record) => !seen.has(String(record.id))))
    }
    records.sort((a, b) => byCodeUnits(productIdOf(a.payload), productIdOf(b.payload)))
    return { records: records.slice(0, limit), more: records.length > limit }
  })
