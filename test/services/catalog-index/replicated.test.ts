import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Layer, Schedule } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { CatalogIndex, type CatalogIndexService, IndexError } from "../../../src/services/catalog-index/CatalogIndex.js"
import { emptyFilter } from "../../../src/model/Filter.js"
import type { IndexDocument } from "../../../src/model/IndexDocument.js"
import { makeEmbeddedCatalogIndex } from "../../../src/services/catalog-index/EmbeddedCatalogIndex.js"
import {
  IndexReplica,
  ReplicatedCatalogIndex,
  type ReplicatedIndexOptions
} from "../../../src/services/catalog-index/ReplicatedCatalogIndex.js"
import { readUntil } from "../../support/Eventually.js"
import { quiet } from "../../support/Quiet.js"
import { redisForThisFile } from "../../support/RedisSuite.js"
import { catalogIndexConformance } from "./conformance.js"
import { doc, titled, vec } from "./fixtures.js"

const redis = redisForThisFile()

const noRebuild: ReplicatedIndexOptions["rebuild"] = () => Effect.succeed(0)

// Each build follows its own stream, so conformance tests never see each other's writes.
catalogIndexConformance(
  "replicated",
  Layer.unwrapEffect(
    Effect.sync(() =>
      ReplicatedCatalogIndex.layer({ redisUrl: redis.url, feedKey: `test:${randomUUID()}`, rebuild: noRebuild }).pipe(
        Layer.orDie,
        Layer.provide(quiet)
      )
    )
  )
)

/** A stand-in for the CatalogStore: writers save here before they upsert, replicas rebuild from it. */
const catalogStore = () => {
  const docs = new Map<string, IndexDocument>()
  return {
    docs,
    save: (...saved: ReadonlyArray<IndexDocument>) => saved.forEach((d) => docs.set(d.productId, d)),
    /** Each replica's rebuild, counting its runs; `hold` delays a run after it took its snapshot. */
    rebuilder: (hold: (run: number) => Effect.Effect<void> = () => Effect.void) => {
      let runs = 0
      const rebuild: ReplicatedIndexOptions["rebuild"] = (apply) =>
        Effect.suspend(() => {
          const snapshot = [...docs.values()]
          return hold(++runs).pipe(Effect.zipRight(apply(snapshot)), Effect.as(snapshot.length))
        })
      return { rebuild, runs: () => runs }
    }
  }
}

/** One process's replica: its own connections and in-memory index on the shared stream. */
const open = (
  feedKey: string,
  rebuild: ReplicatedIndexOptions["rebuild"],
  options: Partial<ReplicatedIndexOptions> = {}
) =>
  Layer.build(
    ReplicatedCatalogIndex.layer({ redisUrl: redis.url, feedKey, rebuild, ...options }).pipe(Layer.provide(quiet))
  ).pipe(
    Effect.map((context) => ({
      index: Context.get(context, CatalogIndex),
      replica: Context.get(context, IndexReplica)
    }))
  )

const ids = (index: CatalogIndexService) =>
  index.scroll(1, emptyFilter, 1000).pipe(Effect.map((page) => page.docs.map((d) => d.productId)))

/** Two replicas on a fresh feed over one store, each counting its rebuilds, both synced. */
const twoSyncedReplicas = Effect.gen(function* () {
  const key = `test:${randomUUID()}`
  const store = catalogStore()
  const [ra, rb] = [store.rebuilder(), store.rebuilder()]
  const a = yield* open(key, ra.rebuild)
  const b = yield* open(key, rb.rebuild)
  yield* Effect.all([a.replica.synced, b.replica.synced])
  return { store, ra, rb, a, b }
})

/** Writes made while Redis restarts: the command connection comes back within a few seconds. */
const retried = <A, E>(write: Effect.Effect<A, E>) =>
  write.pipe(Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo("15 seconds"))))

describe("ReplicatedCatalogIndex", () => {
  it.scopedLive("a write through one replica is visible in the other, vectors and all", () =>
    Effect.gen(function* () {
      const key = `test:${randomUUID()}`
      const a = yield* open(key, noRebuild)
      const b = yield* open(key, noRebuild)
      yield* Effect.all([a.replica.synced, b.replica.synced])
      const drill = titled("p1", "Cordless drill", {
        vector: [1, -1e-20, 0.123456, 1e-30],
        images: [
          [1, 0, 0, 0],
          [0, 1, 0, 0]
        ],
        payload: { brand: "Bosch", price: 99, category: ["Tools", "Tools > Drills"], adult: false }
      })
      yield* a.index.upsert([drill, titled("p2", "Garden hose", { vector: [0, 0, 1, 0], images: [] })])
      // Read-your-writes in the writing process, at once.
      expect(yield* ids(a.index)).toEqual(["p1", "p2"])
      expect(yield* readUntil(ids(b.index), (found) => found.length === 2)).toEqual(["p1", "p2"])
      // B holds exactly what an index fed the document in-process holds.
      const local = makeEmbeddedCatalogIndex()
      yield* local.upsert([drill])
      const [[copy, hose], [expected]] = [yield* b.index.retrieve(1, ["p1", "p2"]), yield* local.retrieve(1, ["p1"])]
      expect(copy.text).toEqual(drill.text)
      expect(copy.payload).toEqual(drill.payload)
      expect(Array.from(copy.vectors.text!)).toEqual(Array.from(expected.vectors.text!))
      expect(copy.vectors.image!.map((v) => Array.from(v))).toEqual(expected.vectors.image!.map((v) => Array.from(v)))
      expect(hose.vectors.image).toEqual([])
      const near = yield* b.index.search({
        siteId: 1,
        textVector: vec(0, 0, 1, 0),
        filter: emptyFilter,
        limit: 1,
        minSimilarity: 0.9
      })
      expect(near.hits.map((h) => h.productId)).toEqual(["p2"])
      expect(yield* b.replica.lag).toBe(0)

      yield* b.index.remove(1, ["p1"])
      expect(yield* ids(b.index)).toEqual(["p2"])
      expect(yield* readUntil(ids(a.index), (found) => found.length === 1)).toEqual(["p2"])
    })
  )

  it.scopedLive("a batch the replica refuses fails with IndexError and reaches no replica", () =>
    Effect.gen(function* () {
      const key = `test:${randomUUID()}`
      const a = yield* open(key, noRebuild)
      const b = yield* open(key, noRebuild)
      yield* Effect.all([a.replica.synced, b.replica.synced])
      yield* a.index.upsert([doc("p1", { vector: [1, 0, 0, 0] })])
      const refused = yield* Effect.flip(
        a.index.upsert([doc("p2", { vector: [1, 0, 0, 0] }), doc("p3", { vector: [1, 0, 0] })])
      )
      expect(refused).toBeInstanceOf(IndexError)
      expect(refused.message).toContain("3 dimensions")
      // A later write arriving proves the refused one would have arrived before it.
      yield* a.index.upsert([doc("p4", { vector: [0, 1, 0, 0] })])
      expect(yield* readUntil(ids(b.index), (found) => found.includes("p4"))).toEqual(["p1", "p4"])
      expect(yield* ids(a.index)).toEqual(["p1", "p4"])
    })
  )

  it.scopedLive("a replica started after writes rebuilds from the store, then follows", () =>
    Effect.gen(function* () {
      const key = `test:${randomUUID()}`
      const store = catalogStore()
      const a = yield* open(key, store.rebuilder().rebuild)
      yield* a.replica.synced
      const early = [titled("p1", "Cordless drill"), titled("p2", "Garden hose"), titled("p3", "Claw hammer")]
      store.save(...early)
      yield* a.index.upsert(early)

      const late = store.rebuilder()
      const b = yield* open(key, late.rebuild)
      yield* b.replica.synced
      expect(yield* ids(b.index)).toEqual(["p1", "p2", "p3"])
      expect(late.runs()).toBe(1)

      const next = titled("p4", "Hand saw")
      store.save(next)
      yield* a.index.upsert([next])
      expect(yield* readUntil(ids(b.index), (found) => found.length === 4)).toEqual(["p1", "p2", "p3", "p4"])
      expect(late.runs()).toBe(1)
    })
  )

  it.scopedLive("a replica that fell behind the trimmed stream rebuilds instead of skipping changes", () =>
    Effect.gen(function* () {
      const key = `test:${randomUUID()}`
      const store = catalogStore()
      store.save(titled("gone", "Discontinued lamp"))
      const a = yield* open(key, store.rebuilder().rebuild, { maxLen: 10 })
      yield* a.replica.synced
      // B's first rebuild takes its snapshot, then stalls while 300 changes go by.
      const release = yield* Deferred.make<void>()
      const slow = store.rebuilder((run) => (run === 1 ? Deferred.await(release) : Effect.void))
      const b = yield* open(key, slow.rebuild, { maxLen: 10 })
      for (let batch = 0; batch < 3; batch++) {
        const docs = Array.from({ length: 100 }, (_, i) =>
          titled(`p${String(batch * 100 + i).padStart(3, "0")}`, "Thing")
        )
        store.save(...docs)
        yield* a.index.upsert(docs)
      }
      store.docs.delete("gone")
      yield* a.index.remove(1, ["gone"])
      yield* Deferred.succeed(release, undefined)
      yield* b.replica.synced
      const found = yield* readUntil(ids(b.index), (found) => found.length === 300 && !found.includes("gone"))
      expect(found).toHaveLength(300)
      expect(found).not.toContain("gone")
      expect(slow.runs()).toBe(2)
    })
  )

  it.scopedLive("after a Redis restart the followers resume where they were, without rebuilding", () =>
    Effect.gen(function* () {
      const { store, ra, rb, a, b } = yield* twoSyncedReplicas
      store.save(titled("p1", "Cordless drill"))
      yield* a.index.upsert([titled("p1", "Cordless drill")])
      expect(yield* readUntil(ids(b.index), (found) => found.length === 1)).toEqual(["p1"])

      // SIGTERM: redis-server writes its AOF, so the stream survives the restart.
      yield* Effect.promise(redis.restart)
      store.save(titled("p2", "Garden hose"))
      yield* retried(a.index.upsert([titled("p2", "Garden hose")]))
      expect(yield* readUntil(ids(b.index), (found) => found.length === 2)).toEqual(["p1", "p2"])
      expect([ra.runs(), rb.runs()]).toEqual([1, 1])
    })
  )

  it.scopedLive("after a Redis restart that lost the stream the replicas rebuild from the store", () =>
    Effect.gen(function* () {
      const { store, ra, rb, a, b } = yield* twoSyncedReplicas
      store.save(titled("p1", "Cordless drill"), titled("p2", "Garden hose"))
      yield* a.index.upsert([titled("p1", "Cordless drill")])
      yield* a.index.upsert([titled("p2", "Garden hose")])
      expect(yield* readUntil(ids(b.index), (found) => found.length === 2)).toEqual(["p1", "p2"])

      // A restart without persistence: the stream starts over at 0-1, reusing ids B has applied.
      yield* Effect.promise(async () => {
        await redis.server.stop()
        fs.rmSync(path.join(redis.server.dir, "appendonlydir"), { recursive: true, force: true })
        await redis.restart()
      })
      // Three writes: the third gets id 0-3, the very next one B expects, so only the check made
      // on reconnecting can tell that 0-1 and 0-2 are not the entries B applied.
      for (const next of [titled("p3", "Claw hammer"), titled("p4", "Hand saw"), titled("p5", "Tape measure")]) {
        store.save(next)
        yield* retried(a.index.upsert([next]))
      }
      const all = ["p1", "p2", "p3", "p4", "p5"]
      expect(yield* readUntil(ids(b.index), (found) => found.length === 5)).toEqual(all)
      expect(yield* readUntil(ids(a.index), (found) => found.length === 5)).toEqual(all)
      expect([ra.runs(), rb.runs()]).toEqual([2, 2])
    })
  )
})
