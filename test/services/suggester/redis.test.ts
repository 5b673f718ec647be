import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { type ProductSource, Suggester } from "../../../src/services/suggester/Suggester.js"
import {
  RedisSuggester,
  SuggestReplica,
  type RedisSuggesterOptions
} from "../../../src/services/suggester/RedisSuggester.js"
import { readUntil } from "../../support/Eventually.js"
import { quiet } from "../../support/Quiet.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { suggesterConformance } from "./conformance.js"

const redis = redisForThisFile()

const noCatalog: RedisSuggesterOptions["rebuild"] = () => Effect.succeed(0)

/** Up once its first rebuild is done, as the app's readiness would wait for. */
const syncedLayer = (options: RedisSuggesterOptions) =>
  Layer.effectDiscard(Effect.flatMap(SuggestReplica, (replica) => replica.synced)).pipe(
    Layer.provideMerge(RedisSuggester.layer(options)),
    Layer.provide(quiet)
  )

// A fresh key prefix per test: every process opened in the test shares it, like one deployment.
let keyPrefix: string
suggesterConformance("redis", {
  fresh: () => {
    keyPrefix = `test-${randomUUID()}`
  },
  layer: () => syncedLayer({ redisUrl: redis.url, keyPrefix, rebuild: noCatalog })
})

/** One process: its own connections and in-memory vocabulary on the test's keys. */
const open = (options: Partial<RedisSuggesterOptions>) =>
  Layer.build(
    syncedLayer({
      redisUrl: redis.url,
      keyPrefix,
      rebuild: noCatalog,
      flushEvery: "50 millis",
      refreshEvery: "200 millis",
      ...options
    })
  ).pipe(Effect.map(Context.get(Suggester)))

const texts = (found: ReadonlyArray<{ readonly suggestion: string }>) => found.map((x) => x.suggestion)

/** A stand-in for the CatalogStore that the app's rebuild pages through. */
const catalogStore = () => {
  const products = new Map<string, ProductSource>()
  const rebuild: RedisSuggesterOptions["rebuild"] = (apply) =>
    Effect.suspend(() => apply([...products.values()]).pipe(Effect.as(products.size)))
  return { products, rebuild }
}

describe("RedisSuggester across processes", () => {
  it.scopedLive("a search on one process is suggested by another after a refresh, and counted once by each", () =>
    Effect.gen(function* () {
      keyPrefix = `test-${randomUUID()}`
      const [a, b] = [yield* open({}), yield* open({})]
      // Searches are offered only with catalog words (see the conformance suite).
      yield* a.indexProducts([
        { siteId: 1, productId: "g1", source: { title: "Reel with Hose for the Garden", categories: [] } }
      ])
      for (let i = 0; i < 3; i++) yield* a.recordQuery(1, "Garden Hose Reel", 7)
      const onB = yield* readUntil(b.suggest(1, "gard", 5), (found) => texts(found).includes("garden hose reel"))
      expect(onB[0]).toMatchObject({ suggestion: "garden hose reel", source: "query" })
      // Several refreshes later, A (which counted its searches as they happened) must not have
      // added them again from Redis: both processes rank the phrase with the same count.
      yield* Effect.sleep("700 millis")
      const [onA, onBLater] = [yield* a.suggest(1, "gard", 1), yield* b.suggest(1, "gard", 1)]
      expect(onA[0].score).toBe(onBLater[0].score)
      expect(yield* b.suggest(2, "gard", 5)).toEqual([])
    })
  )

  it.scopedLive("catalog changes through one process reach the others; a process started later rebuilds them", () =>
    Effect.gen(function* () {
      keyPrefix = `test-${randomUUID()}`
      const store = catalogStore()
      const [a, b] = [yield* open({ rebuild: store.rebuild }), yield* open({ rebuild: store.rebuild })]
      const grill: ProductSource = {
        siteId: 1,
        productId: "g1",
        source: { title: "Weber Charcoal Grill", brand: "Weber", categories: ["Garden > Barbecues"] }
      }
      store.products.set("g1", grill)
      yield* a.indexProducts([grill])
      // The writing process sees its own change as soon as the call returns.
      expect(texts(yield* a.suggest(1, "webe", 5))).toContain("weber")
      expect(texts(yield* readUntil(b.suggest(1, "charc", 5), (found) => found.length > 0))).toContain("charcoal grill")

      store.products.delete("g1")
      yield* b.removeProducts(1, ["g1"])
      expect(yield* readUntil(a.suggest(1, "webe", 5), (found) => found.length === 0)).toEqual([])

      const kettle: ProductSource = {
        siteId: 1,
        productId: "k1",
        source: { title: "Stainless Steel Kettle", categories: ["Home > Kitchen"] }
      }
      store.products.set("k1", kettle)
      yield* a.indexProducts([kettle])
      const c = yield* open({ rebuild: store.rebuild })
      expect(texts(yield* c.suggest(1, "stainl", 5))).toContain("stainless steel kettle")
      expect(yield* c.suggest(1, "webe", 5)).toEqual([])
    })
  )

  it.scopedLive("while Redis is away, searches are counted locally and reach the others once it is back", () =>
    Effect.gen(function* () {
      keyPrefix = `test-${randomUUID()}`
      const [a, b] = [yield* open({}), yield* open({})]
      yield* a.indexProducts([
        { siteId: 1, productId: "c1", source: { title: "Weber Patio Heater Cover", categories: [] } }
      ])
      yield* readUntil(b.suggest(1, "weber", 5), (found) => texts(found).includes("weber patio heater cover"))
      yield* Effect.promise(() => redis.server.stop())
      yield* a.recordQuery(1, "patio heater", 3)
      yield* a.recordQuery(1, "patio heater", 3)
      expect(texts(yield* a.suggest(1, "pati", 5))[0]).toBe("patio heater")
      // A catalog change cannot reach the other processes now: the caller (a job) must retry it.
      const change = yield* Effect.exit(
        a.indexProducts([{ siteId: 1, productId: "h1", source: { title: "Gas Patio Heater", categories: [] } }])
      )
      expect(Exit.isFailure(change)).toBe(true)
      yield* Effect.promise(redis.restart)
      // The typed text itself is offered back only once searched twice: B must have both searches.
      const onB = yield* readUntil(b.suggest(1, "patio heater", 5), (found) => texts(found).includes("patio heater"))
      expect(texts(onB)[0]).toBe("patio heater")
    })
  )
})
