import { QdrantClient } from "@qdrant/js-client-rest"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ensureCollection } from "../../src/services/catalog-index/qdrant/Collection.js"
import { resolveOptions } from "../../src/services/catalog-index/qdrant/QdrantOptions.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"
import { qdrantAvailability, type QdrantServer, startQdrantCluster } from "../support/QdrantProcess.js"
import { redisForThisFile } from "../support/RedisSuite.js"
import { type ServerProcess, startServerProcess } from "../support/ServerProcess.js"
import { startWorkerProcess, type WorkerProcess } from "../support/WorkerProcess.js"
import { makeWorkspace, type Workspace } from "../support/Workspace.js"
import { underLoad } from "./DistributedSuite.js"

const availability = qdrantAvailability()

interface ShardInfo {
  readonly shard_id: number
  readonly points_count?: number
  readonly state: string
}
interface CollectionCluster {
  readonly peer_id: number
  readonly shard_count: number
  readonly local_shards: ReadonlyArray<ShardInfo>
  readonly remote_shards: ReadonlyArray<ShardInfo & { readonly peer_id: number }>
}

/** A node's view of how the collection lies on the cluster. */
const clusterOf = async (node: QdrantServer, collection: string): Promise<CollectionCluster> => {
  const res = await fetch(`${node.url}/collections/${collection}/cluster`)
  if (!res.ok) throw new Error(`cluster info from ${node.url}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { result: CollectionCluster }).result
}

if (!("binary" in availability)) {
  const reason =
    "skip" in availability
      ? availability.skip
      : "QDRANT_URL names one server: the cluster test starts three nodes of its own from a `qdrant` binary on PATH"
  console.warn(reason)
  describe.skip(`the index on a three-node Qdrant cluster (${reason})`, () => {
    it("runs the api and a worker against three Qdrant nodes, one stopped under load", () => {})
  })
} else {
  describe("the index on a three-node Qdrant cluster", () => {
    const redis = redisForThisFile()
    const collection = `cluster_${process.pid}_${Date.now()}`
    let nodes: Array<QdrantServer> = []
    let api: ServerProcess
    let worker: WorkerProcess
    let sites: Workspace

    beforeAll(async () => {
      nodes = await startQdrantCluster(availability.binary, 3)
      sites = await makeWorkspace({
        prefix: "commerce-cluster-",
        campaigns: [{ id: 0, name: "default", resultsCount: 1000 }]
      })
      // The docs' recipe: six shards, two copies of each on different nodes, one acknowledging a write.
      const env = {
        ...sites.env,
        REDIS_URL: redis.url,
        QDRANT_URL: nodes[0].url,
        QDRANT_COLLECTION: collection,
        QDRANT_SHARDS: "6",
        QDRANT_REPLICATION_FACTOR: "2",
        QDRANT_WRITE_CONSISTENCY_FACTOR: "1"
      }
      ;[api, worker] = await Promise.all([startServerProcess(env), startWorkerProcess(env)])
    }, 240_000)

    afterAll(async () => {
      worker?.child.kill("SIGKILL")
      api?.child.kill("SIGKILL")
      await Promise.all(nodes.map((node) => node.stop()))
    })

    const put = (id: string, data: Record<string, unknown>) =>
      call(api.baseUrl, "PUT", `/product/${id}`, { auth: sites.siteA.basic, body: { data } })
    const search = (query: string) =>
      call(api.baseUrl, "POST", "/text-search", { auth: sites.siteA.bearer, body: { query, resultsCount: 1000 } })
    const ids = (res: { body: any }): Array<string> => res.body.data.products.map((p: any) => p.productId)

    it("spreads the collection over the three nodes, two copies of each shard on different nodes", async () => {
      const views = await Promise.all(nodes.map((node) => clusterOf(node, collection)))
      expect(views[0].shard_count).toBe(6)
      const holders = new Map<number, Set<number>>()
      for (const view of views)
        for (const shard of view.local_shards) {
          const set = holders.get(shard.shard_id) ?? new Set()
          set.add(view.peer_id)
          holders.set(shard.shard_id, set)
        }
      expect([...holders.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5])
      for (const peers of holders.values()) expect(peers.size).toBe(2)
      // Every node holds some of it.
      for (const view of views) expect(view.local_shards.length).toBeGreaterThan(0)
    }, 60_000)

    it("processes starting together on a new collection all start (the losers of its creation wait for its shards)", async () => {
      // The first creator's shards open a moment after the others learn the collection exists;
      // until then the cluster answers 500 to reads, which start-up waits out.
      const options = resolveOptions({
        url: nodes[0].url,
        collection: `race_${process.pid}`,
        shards: 6,
        replicationFactor: 2
      })
      const client = new QdrantClient({ url: nodes[0].url })
      const setups = await Promise.all(
        [0, 1, 2].map(() => Effect.runPromise(Effect.either(ensureCollection(client, options))))
      )
      expect(setups.map((setup) => setup._tag)).toEqual(["Right", "Right", "Right"])
    }, 120_000)

    it("a node stopped under load: searches answer 200 (or 503 with Retry-After), no acknowledged write is lost, and the node catches up", async () => {
      for (let i = 0; i < 12; i++) expect((await put(`kettle-${i}`, { title: `Enamel kettle ${i}` })).status).toBe(200)
      await eventually(async () => expect(ids(await search("enamel kettle"))).toHaveLength(12), 60_000)
      const load = underLoad({ put, search }, "teapot", "Cast iron teapot")
      await eventually(async () => expect(load.acknowledged.length).toBeGreaterThan(3), 60_000)
      const stopped = nodes[2]
      await stopped.stop()
      // Writes and searches go on while the node is away.
      const during = load.acknowledged.length
      await eventually(async () => expect(load.acknowledged.length).toBeGreaterThan(during + 5), 120_000)
      await stopped.restart()
      const { acknowledged, statuses } = await load.stop()
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
      await eventually(async () => {
        const found = new Set(ids(await search("cast iron teapot")))
        expect(acknowledged.filter((id) => !found.has(id))).toEqual([])
      }, 120_000)
      // The node's copies are active again and hold what the other copy of each shard holds.
      await eventually(async () => {
        const views = await Promise.all(nodes.map((node) => clusterOf(node, collection)))
        const back = views[2]
        expect(back.local_shards.map((shard) => shard.state)).toEqual(back.local_shards.map(() => "Active"))
        for (const shard of back.local_shards) {
          const other = views
            .slice(0, 2)
            .flatMap((view) => view.local_shards)
            .find((candidate) => candidate.shard_id === shard.shard_id)
          expect(shard.points_count).toBe(other?.points_count)
        }
      }, 120_000)
    }, 400_000)
  })
}
