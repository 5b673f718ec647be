import { Effect, Layer } from "effect"
import { decayedTo, HALF_LIFE_MS } from "./Decay.js"
import { Sqlite } from "../../platform/Sqlite.js"
import {
  type KnownSearch,
  type ProductStats,
  SEARCH_MEMORY_MS,
  ShopperStats,
  ShopperStatsError,
  type StatsDelta
} from "./ShopperStats.js"

/**
 * The embedded ShopperStats: tables in the process's SQLite file; one transaction per step,
 * with the cursor, so a step lands whole or not at all.
 */
const schema = `
CREATE TABLE IF NOT EXISTS stats_cursor (site_id INTEGER PRIMARY KEY, sequence INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS product_stats (
  site_id INTEGER NOT NULL, product_id TEXT NOT NULL,
  orders INTEGER NOT NULL, popularity REAL NOT NULL, recent REAL NOT NULL, at INTEGER NOT NULL,
  PRIMARY KEY (site_id, product_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS copurchases (
  site_id INTEGER NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL, together INTEGER NOT NULL,
  PRIMARY KEY (site_id, a, b)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS query_stats (
  site_id INTEGER NOT NULL, day INTEGER NOT NULL, query TEXT NOT NULL,
  searches INTEGER NOT NULL, zero_results INTEGER NOT NULL, clicks INTEGER NOT NULL,
  position_sum INTEGER NOT NULL, clicked_searches INTEGER NOT NULL,
  PRIMARY KEY (site_id, day, query)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS known_searches (
  site_id INTEGER NOT NULL, request_id TEXT NOT NULL, query TEXT NOT NULL, day INTEGER NOT NULL,
  clicked INTEGER NOT NULL, expires INTEGER NOT NULL,
  PRIMARY KEY (site_id, request_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS known_searches_expiry ON known_searches (expires);
`

interface ProductRow {
  product_id: string
  orders: number
  popularity: number
  recent: number
  at: number
}
interface QueryRow {
  query: string
  searches: number
  zero_results: number
  clicks: number
  position_sum: number
  clicked_searches: number
}
interface SearchRow {
  request_id: string
  query: string
  day: number
  clicked: number
  expires: number
}

const attempt = <A>(what: string, f: () => A) =>
  Effect.try({
    try: f,
    catch: (cause) => new ShopperStatsError({ message: `shopper stats: ${what} failed: ${String(cause)}`, cause })
  })

const toProduct = (row: ProductRow): ProductStats => ({
  productId: row.product_id,
  orders: row.orders,
  popularity: row.popularity,
  recent: row.recent,
  at: row.at
})

/** SQLite's limit on bound parameters is far above this; chunks keep statements small. */
const CHUNK = 500

const layer: Layer.Layer<ShopperStats, never, Sqlite> = Layer.effect(
  ShopperStats,
  Effect.gen(function* () {
    const db = yield* Sqlite
    db.exec(schema)
    const getCursor = db.prepare<[number], { sequence: number }>("SELECT sequence FROM stats_cursor WHERE site_id = ?")
    const setCursor = db.prepare(
      "INSERT INTO stats_cursor (site_id, sequence) VALUES (?, ?) " +
        "ON CONFLICT (site_id) DO UPDATE SET sequence = excluded.sequence"
    )
    const getProduct = db.prepare<[number, string], ProductRow>(
      "SELECT product_id, orders, popularity, recent, at FROM product_stats WHERE site_id = ? AND product_id = ?"
    )
    const putProduct = db.prepare(
      "INSERT OR REPLACE INTO product_stats (site_id, product_id, orders, popularity, recent, at) VALUES " +
        "(?, ?, ?, ?, ?, ?)"
    )
    const addPair = db.prepare(
      "INSERT INTO copurchases (site_id, a, b, together) VALUES (?, ?, ?, ?) " +
        "ON CONFLICT DO UPDATE SET together = together + excluded.together"
    )
    const addQuery =
      db.prepare(`INSERT INTO query_stats (site_id, day, query, searches, zero_results, clicks, position_sum,
        clicked_searches)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET searches = searches + excluded.searches,
      zero_results = zero_results + excluded.zero_results, clicks = clicks + excluded.clicks,
      position_sum = position_sum + excluded.position_sum,
      clicked_searches = clicked_searches + excluded.clicked_searches`)
    const putSearch = db.prepare(
      "INSERT OR REPLACE INTO known_searches (site_id, request_id, query, day, clicked, expires) VALUES " +
        "(?, ?, ?, ?, ?, ?)"
    )
    const forgetSearches = db.prepare("DELETE FROM known_searches WHERE expires < ?")
    const partners = db.prepare<
      [number, string, number, number],
      { product_id: string; together: number; orders: number | null }
    >(
      `SELECT c.b AS product_id, c.together, p.orders FROM copurchases c
       LEFT JOIN product_stats p ON p.site_id = c.site_id AND p.product_id = c.b
       WHERE c.site_id = ? AND c.a = ? AND c.together >= ? ORDER BY c.together DESC, c.b LIMIT ?`
    )
    const allProducts = db.prepare<[number], ProductRow>(
      "SELECT product_id, orders, popularity, recent, at FROM product_stats WHERE site_id = ?"
    )
    const queries = db.prepare<[number, number, number], QueryRow>(
      `SELECT query, SUM(searches) AS searches, SUM(zero_results) AS zero_results, SUM(clicks) AS clicks,
       SUM(position_sum) AS position_sum, SUM(clicked_searches) AS clicked_searches
       FROM query_stats WHERE site_id = ? AND day BETWEEN ? AND ? GROUP BY query`
    )

    const merge = (siteId: number, delta: ProductStats) => {
      const held = getProduct.get(siteId, delta.productId)
      if (held === undefined) {
        putProduct.run(siteId, delta.productId, delta.orders, delta.popularity, delta.recent, delta.at)
        return
      }
      const at = Math.max(held.at, delta.at)
      putProduct.run(
        siteId,
        delta.productId,
        held.orders + delta.orders,
        decayedTo(held.popularity, held.at, at, HALF_LIFE_MS.popularity) +
          decayedTo(delta.popularity, delta.at, at, HALF_LIFE_MS.popularity),
        decayedTo(held.recent, held.at, at, HALF_LIFE_MS.recent) +
          decayedTo(delta.recent, delta.at, at, HALF_LIFE_MS.recent),
        at
      )
    }

    const applyTx = db.transaction((siteId: number, from: number, to: number, delta: StatsDelta): boolean => {
      if ((getCursor.get(siteId)?.sequence ?? 0) !== from) return false
      for (const product of delta.products) merge(siteId, product)
      for (const { a, b, together } of delta.pairs) {
        addPair.run(siteId, a, b, together)
        addPair.run(siteId, b, a, together)
      }
      for (const q of delta.queries)
        addQuery.run(siteId, q.day, q.query, q.searches, q.zeroResults, q.clicks, q.positionSum, q.clickedSearches)
      const now = Date.now()
      for (const s of delta.searches)
        putSearch.run(siteId, s.requestId, s.query, s.day, s.clicked ? 1 : 0, now + SEARCH_MEMORY_MS)
      if (delta.searches.length > 0) forgetSearches.run(now)
      setCursor.run(siteId, to)
      return true
    })

    const selectIn = <Row>(sql: (marks: string) => string, siteId: number, ids: ReadonlyArray<string>): Array<Row> => {
      const rows: Array<Row> = []
      for (let i = 0; i < ids.length; i += CHUNK) {
        const slice = ids.slice(i, i + CHUNK)
        rows.push(...db.prepare<Array<number | string>, Row>(sql(slice.map(() => "?").join(","))).all(siteId, ...slice))
      }
      return rows
    }

    return ShopperStats.of({
      cursor: (siteId) => attempt("cursor", () => getCursor.get(siteId)?.sequence ?? 0),
      apply: (siteId, from, to, delta) => attempt("apply", () => applyTx(siteId, from, to, delta)),
      boughtWith: (siteId, productId, minTogether, limit) =>
        attempt("boughtWith", () => ({
          orders: getProduct.get(siteId, productId)?.orders ?? 0,
          partners: partners
            .all(siteId, productId, minTogether, limit)
            .map((row) => ({ productId: row.product_id, together: row.together, orders: row.orders ?? 0 }))
        })),
      products: (siteId, productIds) =>
        attempt("products", () =>
          selectIn<ProductRow>(
            (marks) =>
              "SELECT product_id, orders, popularity, recent, at FROM product_stats " +
              `WHERE site_id = ? AND product_id IN (${marks})`,
            siteId,
            [...new Set(productIds)]
          ).map(toProduct)
        ),
      allProducts: (siteId) => attempt("allProducts", () => allProducts.all(siteId).map(toProduct)),
      searches: (siteId, requestIds) =>
        attempt("searches", () => {
          const now = Date.now()
          return selectIn<SearchRow>(
            (marks) =>
              "SELECT request_id, query, day, clicked, expires FROM known_searches " +
              `WHERE site_id = ? AND request_id IN (${marks})`,
            siteId,
            [...new Set(requestIds)]
          )
            .filter((row) => row.expires >= now)
            .map(
              (row): KnownSearch => ({
                requestId: row.request_id,
                query: row.query,
                day: row.day,
                clicked: row.clicked === 1
              })
            )
        }),
      queries: (siteId, fromDay, toDay) =>
        attempt("queries", () =>
          queries.all(siteId, fromDay, toDay).map((row) => ({
            query: row.query,
            searches: row.searches,
            zeroResults: row.zero_results,
            clicks: row.clicks,
            positionSum: row.position_sum,
            clickedSearches: row.clicked_searches
          }))
        )
    })
  })
)

export const EmbeddedShopperStats = { layer }
