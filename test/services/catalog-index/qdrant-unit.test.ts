import { describe, expect, it } from "@effect/vitest"
import { QdrantClientTimeoutError, type QdrantClient } from "@qdrant/js-client-rest"
import { Effect, Either, Schema, TestClock } from "effect"
import { emptyFilter } from "../../../src/model/Filter.js"
import type { Qdrant } from "../../../src/services/catalog-index/qdrant/Client.js"
import { call } from "../../../src/services/catalog-index/qdrant/Request.js"
import { ColumnIndexes } from "../../../src/services/catalog-index/qdrant/Collection.js"
import { toQdrantFilter } from "../../../src/services/catalog-index/qdrant/FilterTranslation.js"
import { conditionHolds } from "../../../src/services/catalog-index/ColumnValues.js"
import { fuse, lexicalScores, nearBonus, type Candidate } from "../../../src/services/catalog-index/qdrant/Fusion.js"
import { columnKey } from "../../../src/services/catalog-index/qdrant/Layout.js"
import { resolveOptions, type QdrantIndexOptions } from "../../../src/services/catalog-index/qdrant/QdrantOptions.js"
import { pointId, pointIds } from "../../../src/services/catalog-index/qdrant/PointIds.js"
import { compiledDecoder, compiles } from "../../../src/domain/CompiledCheck.js"
import { TermChange } from "../../../src/services/catalog-index/qdrant/TermReplica.js"
import { denseJson, toPoint, upsertChunks } from "../../../src/services/catalog-index/qdrant/Points.js"
import { facet, histogram, numericStats } from "../../../src/services/catalog-index/qdrant/Aggregates.js"
import { TermMemory } from "../../../src/services/catalog-index/qdrant/SiteTerms.js"
import {
  documentTerms,
  fieldTermKey,
  hashTerm,
  keyQuery,
  pairTermKey
} from "../../../src/services/catalog-index/qdrant/SparseText.js"
import { doc } from "./fixtures.js"

const site = { key: "site_id", match: { value: "1" } }

describe("PointIds", () => {
  it("derives a stable RFC 4122 version-5 UUID per site and product", () => {
    const id = pointId(1, "sku-1")
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(pointId(1, "sku-1")).toBe(id)
    expect(pointId(2, "sku-1")).not.toBe(id)
    expect(pointId(1, "sku-2")).not.toBe(id)
    // "1:1" and "11:" style ambiguities cannot arise: the separator is in every name.
    expect(pointId(1, "1:x")).not.toBe(pointId(11, "x"))
    expect(pointIds(1, ["a", "a", "b"])).toEqual([pointId(1, "a"), pointId(1, "b")])
  })
})

describe("Points", () => {
  it("never writes two images as JSON that Qdrant would read as a sparse vector, yet stores them unchanged", () => {
    const images = [
      [1, 0, 0, 0],
      [0, 1, 0, 0]
    ]
    const point = toPoint(doc("p", { images }))
    const sent = JSON.parse(JSON.stringify(point.vector)) as { image: Array<Array<number>> }
    // A sparse vector's indices are u32: one non-integral number in the first row rules it out.
    expect(sent.image[0].every((x) => Number.isInteger(x))).toBe(false)
    // Qdrant reads float32: what it stores is exactly the images given.
    expect(sent.image.map((row) => row.map(Math.fround))).toEqual(images)
    // One image, three images and non-integral images are sent as they are.
    for (const other of [
      [[1, 0, 0, 0]],
      [...images, [0, 0, 1, 0]],
      [
        [0.6, 0.8, 0, 0],
        [0, 1, 0, 0]
      ]
    ]) {
      expect(toPoint(doc("p", { images: other })).vector).toEqual({ image: other })
    }
  })
})

describe("upsertChunks", () => {
  it("cuts by encoded size and by count, a point over the size going alone", () => {
    const points = ["a".repeat(100), "b".repeat(100), "c".repeat(500), "d".repeat(10), "e", "f", "g"]
    const lengths = (chunks: Array<Array<string>>) => chunks.map((chunk) => chunk.map((point) => point[0]).join(""))
    // 102 bytes of JSON and a comma each: two fit in 250, the 500-char one goes alone.
    const json = (point: string) => Buffer.byteLength(JSON.stringify(point))
    expect(lengths(upsertChunks(points, json, 250, 3))).toEqual(["ab", "c", "def", "g"])
    expect(lengths(upsertChunks(["é".repeat(100), "x"], json, 150, 10))).toEqual(["é", "x"])
  })
})

describe("TermChange", () => {
  it("is checked by the compiled decoder (every process decodes every change), deciding as Effect does", () => {
    expect(compiles(TermChange)).toBe(true)
    const compiled = compiledDecoder(TermChange)
    const effect = Schema.decodeUnknownEither(TermChange)
    const text = doc("p", { text: { title: "Kettle" } }).text
    for (const input of [
      { _tag: "Put", siteId: 1, productId: "p", version: 3, text, payload: { price: 9, tags: ["a"] }, embedded: true },
      { _tag: "Put", siteId: 1, productId: "p", text, payload: {} },
      { _tag: "Remove", siteId: 1, productIds: ["p", "q"] },
      { _tag: "Put", siteId: "1", productId: "p", text, payload: {} },
      { _tag: "Remove", siteId: 1 }
    ])
      expect(Either.isRight(compiled(input))).toBe(Either.isRight(effect(input)))
  })
})

describe("denseJson", () => {
  it("sends a vector's direction at unit length, rounded well within the storage's precision", () => {
    const vector = Float32Array.from({ length: 1792 }, (_, i) => Math.cos(i * 0.37) * 3)
    const norm = Math.hypot(...vector)
    for (const [datatype, step] of [
      ["float32", 1e-7],
      ["float16", 1e-5]
    ] as const) {
      const sent = denseJson(vector, datatype)
      sent.forEach((x, i) => expect(Math.abs(x - vector[i] / norm)).toBeLessThanOrEqual(step / 2 + 1e-12))
      // Short decimals: the JSON is the decimal, at most 10 characters a number.
      expect(Math.max(...sent.map((x) => JSON.stringify(x).length))).toBeLessThanOrEqual(10)
    }
    expect(denseJson(Float32Array.of(0, 0), "float32")).toEqual([0, 0])
  })
})

describe("call", () => {
  /** A rejection shaped like the client's ApiError: the status text as message, Qdrant's body as data. */
  const apiError = (status: number, statusText: string, reason: string) =>
    Object.assign(new Error(statusText), { status, statusText, data: { status: { error: reason } } })
  const refused = () =>
    new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" })
    })

  it.effect("puts Qdrant's reason in the error and never retries a 4xx", () =>
    Effect.gen(function* () {
      let attempts = 0
      const error = yield* Effect.flip(
        call("upsert", () => {
          attempts++
          return Promise.reject(
            apiError(422, "Unprocessable Entity", "Validation error in JSON body: [indices: must be unique]")
          )
        })
      )
      expect(error.message).toBe(
        "Qdrant upsert failed: 422 Unprocessable Entity: Validation error in JSON body: [indices: must be unique]"
      )
      expect(attempts).toBe(1)
    })
  )

  // Live clock: the backoff really waits (some 700 ms in all).
  it.live("retries refused connections and 503s a few times, then names the cause", () =>
    Effect.gen(function* () {
      let attempts = 0
      const value = yield* call("count", () =>
        ++attempts < 3
          ? Promise.reject(attempts === 1 ? refused() : apiError(503, "Service Unavailable", ""))
          : Promise.resolve(7)
      )
      expect([value, attempts]).toEqual([7, 3])
      attempts = 0
      const error = yield* Effect.flip(call("count", () => (attempts++, Promise.reject(refused()))))
      expect(attempts).toBe(4)
      expect(error.message).toBe(
        "Qdrant count failed: the connection failed (connect ECONNREFUSED 127.0.0.1:9) (4 attempts)"
      )
    })
  )

  it.live("retries a timeout once: each attempt already waited a whole timeout", () =>
    Effect.gen(function* () {
      let attempts = 0
      const error = yield* Effect.flip(
        call("search", () => (attempts++, Promise.reject(new QdrantClientTimeoutError("aborted"))))
      )
      expect(attempts).toBe(2)
      expect(error.message).toBe("Qdrant search failed: no answer within the timeout (2 attempts)")
    })
  )
})

describe("FilterTranslation", () => {
  it("always scopes to the site and maps anyOf, ranges and exclusions", () => {
    const filter = {
      must: [
        { column: "brand", anyOf: ["Bosch", "Makita"] },
        { column: "price", range: { gte: 10, lt: 30 } }
      ],
      mustNot: [{ column: "color", anyOf: ["red"] }]
    }
    expect(toQdrantFilter(1, filter, { exceptIds: ["p-uuid"] })).toEqual({
      must: [
        site,
        { key: "columns.brand", match: { any: ["Bosch", "Makita"] } },
        { key: "columns.price", range: { gte: 10, lt: 30 } }
      ],
      must_not: [{ key: "columns.color", match: { any: ["red"] } }, { has_id: ["p-uuid"] }]
    })
    expect(toQdrantFilter(7, emptyFilter)).toEqual({ must: [{ key: "site_id", match: { value: "7" } }] })
  })

  it("keeps one-sided and open ranges numeric-only", () => {
    const must = (range: { gte?: number; lt?: number }) =>
      toQdrantFilter(1, { must: [{ column: "price", range }], mustNot: [] }).must[1]
    expect(must({ lt: 20 })).toEqual({ key: "columns.price", range: { lt: 20 } })
    expect(must({})).toEqual({ key: "columns.price", range: { gte: -Number.MAX_VALUE } })
  })

  it("matches booleans by value and by their string form, as the embedded index does", () => {
    const [, equals] = toQdrantFilter(1, { must: [{ column: "adult", equals: true }], mustNot: [] }).must
    expect(equals).toEqual({
      should: [
        { key: "columns.adult", match: { value: true } },
        { key: "columns.adult", match: { value: "true" } }
      ]
    })
    const [, anyOf] = toQdrantFilter(1, { must: [{ column: "adult", anyOf: ["false"] }], mustNot: [] }).must
    expect(anyOf).toEqual({
      should: [
        { key: "columns.adult", match: { any: ["false"] } },
        { key: "columns.adult", match: { value: false } }
      ]
    })
  })

  it("turns an empty anyOf and an empty id scope into conditions nothing satisfies", () => {
    const never = { is_empty: { key: "site_id" } }
    expect(toQdrantFilter(1, { must: [{ column: "brand", anyOf: [] }], mustNot: [] }).must[1]).toEqual(never)
    expect(toQdrantFilter(1, emptyFilter, { onlyIds: [] }).must[1]).toEqual(never)
    expect(toQdrantFilter(1, emptyFilter, { onlyIds: ["x"] }).must[1]).toEqual({ has_id: ["x"] })
  })

  it("quotes column names that are not plain words", () => {
    expect(columnKey("custom_label_0")).toBe("columns.custom_label_0")
    expect(columnKey("a.b")).toBe('columns."a.b"')
  })

  it("evaluates conditions on payload values for client-side boosts", () => {
    expect(conditionHolds({ column: "c", anyOf: ["red"] }, ["black", "red"])).toBe(true)
    expect(conditionHolds({ column: "c", anyOf: ["red"] }, "Red")).toBe(false)
    expect(conditionHolds({ column: "c", anyOf: ["true"] }, true)).toBe(true)
    expect(conditionHolds({ column: "c", equals: false }, false)).toBe(true)
    expect(conditionHolds({ column: "c", range: { gte: 10, lt: 20 } }, 10)).toBe(true)
    expect(conditionHolds({ column: "c", range: { gte: 10, lt: 20 } }, 20)).toBe(false)
    expect(conditionHolds({ column: "c", range: {} }, null)).toBe(false)
  })
})

describe("SparseText", () => {
  const text = (fields: Partial<ReturnType<typeof doc>["text"]>) => doc("x", { text: fields }).text
  const weightOf = (
    vector: { indices: Array<number>; values: Array<number> },
    term: string,
    field: "title" | "description" = "title"
  ) => vector.values[vector.indices.indexOf(fieldTermKey(field, term))]

  it("hashes terms with 32-bit FNV-1a", () => {
    expect(hashTerm("a")).toBe(0xe40c292c)
    expect(hashTerm("drill")).toBe(hashTerm("drill"))
  })

  it("indexes stemmed terms once, sorted, without stop words", () => {
    const vector = documentTerms(text({ title: "Drills for the drill press" })).lexical
    expect(vector.indices).toEqual([...vector.indices].sort((a, b) => a - b))
    expect(new Set(vector.indices).size).toBe(vector.indices.length)
    // "drill" (twice) and "press", and the title's neighbouring pairs "drill drill" and "drill press".
    expect(vector.indices).toHaveLength(4)
    expect(vector.values[vector.indices.indexOf(pairTermKey("drill press"))]).toBe(1)
    expect(vector.indices).not.toContain(pairTermKey("drill the"))
    expect(weightOf(vector, "the")).toBeUndefined()
    expect(weightOf(vector, "drill")).toBeGreaterThan(weightOf(vector, "press"))
  })

  it("keys terms per field (weights and IDF come with the query) and normalises by field length", () => {
    const vector = documentTerms(text({ title: "Drill", description: "Drill" })).lexical
    expect(vector.indices).toHaveLength(2) // a one-word title has no pair
    // BM25+: a one-word title scores D + tf·(K+1) / (tf + K·(1 − B + B·1/8)), a one-word description by 1/60.
    expect(weightOf(vector, "drill")).toBeCloseTo(0.5 + 2.2 / (1 + 1.2 * (0.3 + 0.7 / 8)), 6)
    expect(weightOf(vector, "drill", "description")).toBeCloseTo(0.5 + 2.2 / (1 + 1.2 * (0.3 + 0.7 / 60)), 6)
  })

  it("builds a query from key weights, sorted by key", () => {
    expect(
      keyQuery(
        new Map([
          [7, 0.5],
          [3, 1]
        ])
      )
    ).toEqual({ indices: [3, 7], values: [1, 0.5] })
  })
})

describe("Fusion", () => {
  it("counts a gated variant only where the text model accepts it, keeping the rest of a refused match", () => {
    // "phillips coffee maker": "philips" is a typo of a word the site knows, so it is gated.
    const words = [
      { exact: new Map([["phillips", 4]]), variants: new Map(), gated: new Map([["philips", 4]]), group: 0, span: 1 },
      {
        exact: new Map([
          ["phillips", 2],
          ["philips", 2],
          ["other", 2]
        ]),
        variants: new Map(),
        group: 1,
        span: 1
      },
      { exact: new Map([["philips", 2]]), variants: new Map(), group: 2, span: 1 }
    ]
    const accepted = lexicalScores(words, 0.45, undefined, () => false)
    // Accepted: three words held; the variant capped at fuzzyWeight × the weakest exact score.
    expect(accepted.get("philips")).toBeCloseTo(0.45 * 4 + 2 + 2, 9)
    const refused = lexicalScores(words, 0.45, undefined, (id) => id === "philips")
    // Refused: as if the typo had not matched: two of three words, still enough.
    expect(refused.get("philips")).toBeCloseTo(((2 + 2) * 2) / 3, 9)
    expect(refused.get("phillips")).toBe(accepted.get("phillips"))
    // A match through the gated word alone does not match when refused.
    const alone = [
      { exact: new Map([["drill", 3]]), variants: new Map(), gated: new Map([["grill", 3]]), group: 0, span: 1 }
    ]
    expect([...lexicalScores(alone, 0.45, undefined, (id) => id === "grill").keys()]).toEqual(["drill"])
    expect([...lexicalScores(alone, 0.45, undefined, () => false).keys()].sort()).toEqual(["drill", "grill"])
  })

  it("scores only documents matching enough of the words, scaled by coverage, variants below exact matches", () => {
    const scores = lexicalScores(
      [
        {
          exact: new Map([
            ["both", 2],
            ["red", 4]
          ]),
          variants: new Map(),
          group: 0,
          span: 1
        },
        { exact: new Map([["both", 2]]), variants: new Map([["typo", 100]]), group: 1, span: 1 }
      ],
      0.45
    )
    // Two words, and a document holds both: only it matches.
    expect([...scores]).toEqual([["both", 4]])
    // Nobody holds both: each word's matches are results, at half coverage.
    const either = lexicalScores(
      [
        { exact: new Map([["red", 4]]), variants: new Map(), group: 0, span: 1 },
        { exact: new Map([["shoe", 2]]), variants: new Map([["typo", 100]]), group: 1, span: 1 }
      ],
      0.45
    )
    expect(either.get("red")).toBe(2)
    expect(either.get("typo")).toBeCloseTo((0.45 * 2) / 2, 9) // capped at fuzzyWeight × weakest exact, half coverage
    // "wi-fi router": "wi-fi" and "wifi" are forms of one typed word, so a document with "wifi" and
    // "router" holds both words.
    const joined = lexicalScores(
      [
        { exact: new Map([["hyphen", 1]]), variants: new Map(), group: 0, span: 1 },
        {
          exact: new Map([
            ["hyphen", 1],
            ["joined", 1]
          ]),
          variants: new Map(),
          group: 0,
          span: 1
        },
        {
          exact: new Map([
            ["hyphen", 1],
            ["joined", 1],
            ["other", 1]
          ]),
          variants: new Map(),
          group: 1,
          span: 1
        }
      ],
      0.45
    )
    expect([...joined.keys()].sort()).toEqual(["hyphen", "joined"])
    expect(joined.get("joined")).toBe(2)
    // "closet maid shelf": "closetmaid" joins the first two typed words, so a document holding it
    // and "shelf" holds all three; one holding "closet" and "closetmaid" still holds two.
    const spanning = lexicalScores(
      [
        {
          exact: new Map([
            ["apart", 1],
            ["partial", 1]
          ]),
          variants: new Map(),
          group: 0,
          span: 1
        },
        {
          exact: new Map([
            ["together", 1],
            ["partial", 1]
          ]),
          variants: new Map(),
          group: 0,
          span: 2
        },
        { exact: new Map([["apart", 1]]), variants: new Map(), group: 1, span: 1 },
        {
          exact: new Map([
            ["together", 1],
            ["apart", 1]
          ]),
          variants: new Map(),
          group: 2,
          span: 1
        }
      ],
      0.45
    )
    expect(spanning.get("together")).toBe(2)
    expect(spanning.get("apart")).toBe(3)
    expect(spanning.get("partial")).toBeCloseTo((2 * 2) / 3, 9)
  })

  it("multiplies a match's score by its phrase factor: the share of neighbouring word pairs its title holds", () => {
    const words = [
      {
        exact: new Map([
          ["phrase", 1],
          ["apart", 1],
          ["half", 1]
        ]),
        variants: new Map(),
        group: 0,
        span: 1
      },
      {
        exact: new Map([
          ["phrase", 1],
          ["apart", 1],
          ["half", 1]
        ]),
        variants: new Map(),
        group: 1,
        span: 1
      },
      {
        exact: new Map([
          ["phrase", 1],
          ["apart", 1],
          ["half", 1]
        ]),
        variants: new Map(),
        group: 2,
        span: 1
      }
    ]
    // Pairs (0, 1) and (1, 2); a pair holder that matches too few words gains nothing.
    const scores = lexicalScores(words, 0.45, {
      pairs: [new Set(["phrase", "half", "nomatch"]), new Set(["phrase"])],
      weight: 0.75
    })
    expect(scores.get("apart")).toBe(3)
    expect(scores.get("half")).toBeCloseTo(3 * (1 + 0.75 / 2), 9)
    expect(scores.get("phrase")).toBeCloseTo(3 * 1.75, 9)
    expect(scores.has("nomatch")).toBe(false)
  })

  const weights = { lexical: 1, text: 1, image: 1 }
  it("adds normalised lexical, clamped cosines, boosts and near, ties by product id", () => {
    const candidates: Array<Candidate> = [
      { productId: "b", columns: { brand: "Zeta" }, lexical: 5, text: 0 },
      { productId: "a", columns: { brand: "Acme" }, lexical: 5, text: 1 },
      { productId: "c", columns: { brand: "Acme" }, lexical: 0, text: 0.95 },
      { productId: "d", columns: {}, lexical: 0, text: -0.5 }
    ]
    const hits = fuse(candidates, { weights, boosts: [], signalBoosts: [] }, 3)
    expect(hits.map((hit) => hit.productId)).toEqual(["a", "b", "c"])
    expect(hits[0]).toEqual({
      productId: "a",
      score: 2,
      lexical: 1,
      text: 1,
      image: 0,
      weights,
      columns: { brand: "Acme" }
    })
    expect(
      fuse(candidates, { weights: { ...weights, lexical: 0.1 }, boosts: [], signalBoosts: [] }, 3).map(
        (h) => h.productId
      )
    ).toEqual(["a", "c", "b"])
    const boosts = [{ condition: { column: "brand", anyOf: ["Zeta"] }, weight: 2 }]
    expect(fuse(candidates, { weights, boosts, signalBoosts: [] }, 1)[0].productId).toBe("b")
    // A per-product number lifts its product by weight × number.
    expect(
      fuse(candidates, { weights, boosts: [], signalBoosts: [{ values: new Map([["c", 1]]), weight: 1.5 }] }, 1)[0]
        .productId
    ).toBe("c")
    const tie = [
      { productId: "y", columns: {}, lexical: 1 },
      { productId: "x", columns: {}, lexical: 1 }
    ]
    expect(fuse(tie, { weights, boosts: [], signalBoosts: [] }, 2).map((h) => h.productId)).toEqual(["x", "y"])
  })

  it("gives near a bonus falling linearly to zero at a relative distance of 1", () => {
    const near = { column: "price", value: 50, weight: 1 }
    expect(nearBonus(near, 50)).toBe(1)
    expect(nearBonus(near, 10)).toBeCloseTo(0.2, 9)
    expect(nearBonus(near, 100)).toBe(0)
    expect(nearBonus(near, null)).toBe(0)
  })
})

/** A Qdrant over a client double: only the methods a test needs, each recording its calls. */
const overDouble = (
  methods: Record<string, (collection: string, body: never) => Promise<unknown>>,
  given: Partial<QdrantIndexOptions> = {}
) => {
  const client = methods as unknown as QdrantClient
  const options = resolveOptions({
    url: "http://unused",
    collection: "c",
    textDimension: 4,
    imageDimension: 4,
    ...given
  })
  const memory = new TermMemory()
  const q: Qdrant = {
    client,
    writer: client,
    sendQuery: () => Promise.reject(new Error("no raw queries here")),
    sendWrite: () => Promise.reject(new Error("no writes here")),
    collection: "c",
    options,
    columns: new ColumnIndexes(client, "c"),
    terms: { memory: () => memory, written: () => Effect.void, synced: Effect.void, lag: Effect.succeed(0) }
  }
  return q
}

const _point = (productId: string, score: number, columns = {}) => ({
  id: pointId(1, productId),
  score,
  payload: { product_id: productId, columns }
})

describe("ColumnIndexes", () => {
  it.effect("reads the collection for a column without an index at most once per 30 s", () =>
    Effect.gen(function* () {
      let reads = 0
      let schema: Record<string, unknown> = {}
      const client = { getCollection: async () => (reads++, { payload_schema: schema }) } as unknown as QdrantClient
      const columns = new ColumnIndexes(client, "c")
      expect(yield* columns.kind("brand")).toBeUndefined()
      expect(yield* columns.kind("brand")).toBeUndefined()
      expect(reads).toBe(1)
      // Another process indexes the column: seen once the absence is 30 s old.
      schema = { "columns.brand": { data_type: "keyword", points: 1 } }
      yield* TestClock.adjust("29 seconds")
      expect(yield* columns.kind("brand")).toBeUndefined()
      yield* TestClock.adjust("1 second")
      expect(yield* columns.kind("brand")).toBe("keyword")
      expect(yield* columns.kind("brand")).toBe("keyword")
      expect(reads).toBe(2)
    })
  )

  it.effect("creates each new column's index once when concurrent writes bring the column", () =>
    Effect.gen(function* () {
      const schema: Record<string, unknown> = {}
      const created: Array<string> = []
      const client = {
        getCollection: async () => ({ payload_schema: { ...schema } }),
        createPayloadIndex: async (_: string, body: { field_name: string; field_schema: { type: string } }) => {
          created.push(body.field_name)
          schema[body.field_name] = { data_type: body.field_schema.type, points: 0 }
          return true
        }
      } as unknown as QdrantClient
      const columns = new ColumnIndexes(client, "c")
      const payload = { brand: "Acme", price: 3, in_stock: true }
      yield* Effect.forEach(["a", "b", "c", "d"], (id) => columns.ensure([doc(id, { payload })]), {
        concurrency: "unbounded"
      })
      expect(created.sort()).toEqual(["columns.brand", "columns.in_stock", "columns.price"])
      expect(yield* columns.kind("price")).toBe("float")
    })
  )
})

describe("Query and aggregates (against a client double)", () => {
  it.effect("facets over a filter through the facet API, re-sorting ties by value", () =>
    Effect.gen(function* () {
      const asked: Array<unknown> = []
      const q = overDouble({
        getCollection: async () => ({ payload_schema: { "columns.brand": { data_type: "keyword", points: 3 } } }),
        facet: async (_, body) => {
          asked.push(body)
          return {
            hits: [
              { value: "Zeta", count: 1 },
              { value: "Bosch", count: 2 },
              { value: "Acme", count: 1 }
            ]
          }
        }
      })
      const inStock = { must: [{ column: "in_stock", anyOf: ["true"] }], mustNot: [] }
      expect(yield* facet(q, 1, "brand", { filter: inStock }, 2)).toEqual([
        { value: "Bosch", count: 2 },
        { value: "Acme", count: 1 }
      ])
      expect(asked).toEqual([{ key: "columns.brand", filter: toQdrantFilter(1, inStock), limit: 102, exact: true }])
      // A column no process has indexed has no values, as in the embedded index.
      expect(yield* facet(q, 1, "color", { filter: emptyFilter }, 10)).toEqual([])
    })
  )

  it.effect("computes numeric statistics from a count and two ordered one-point scrolls", () =>
    Effect.gen(function* () {
      const counted: Array<unknown> = []
      const q = overDouble({
        getCollection: async () => ({ payload_schema: { "columns.price": { data_type: "float", points: 3 } } }),
        count: async (_, body: { filter: { must: Array<unknown> } }) => {
          counted.push(body.filter.must.at(-1))
          return { count: 3 }
        },
        scroll: async (_, body: { order_by: { direction: string } }) => ({
          points: [{ id: "x", order_value: body.order_by.direction === "asc" ? 10 : 30 }]
        })
      })
      expect(yield* numericStats(q, 1, "price", { filter: emptyFilter })).toEqual({ min: 10, max: 30, count: 3 })
      expect(yield* histogram(q, 1, "price", { filter: emptyFilter }, [0, 15, 31])).toEqual([3, 3])
      expect(counted).toEqual([
        { key: "columns.price", range: { gte: -Number.MAX_VALUE } },
        { key: "columns.price", range: { gte: 0, lt: 15 } },
        { key: "columns.price", range: { gte: 15, lt: 31 } }
      ])
    })
  )
})
