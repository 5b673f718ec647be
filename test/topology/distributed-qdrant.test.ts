import { describe, expect, it } from "vitest"
import { eventually } from "../support/Eventually.js"
import { qdrantForThisFile } from "../support/QdrantServer.js"
import { distributedTopologySuite, underLoad } from "./DistributedSuite.js"

const qdrant = qdrantForThisFile()
const ids = (res: { body: any }): Array<string> => res.body.data.products.map((p: any) => p.productId)

if (!qdrant.available) {
  console.warn(qdrant.skipReason)
  describe.skip(`distributed topology with Qdrant (${qdrant.skipReason})`, () => {
    it("runs the end-to-end topology tests with the index in Qdrant", () => {})
  })
} else {
  distributedTopologySuite(
    "the index in Qdrant",
    () => ({ QDRANT_URL: qdrant.url, QDRANT_COLLECTION: `topology_${process.pid}_${Date.now()}` }),
    ({ put, search }) =>
      it.runIf(qdrant.ownsServer)(
        "Qdrant stopped under load: the api answers 200 or 503 with Retry-After, never a 500, " +
          "and every acknowledged push is indexed once Qdrant is back",
        async () => {
          const server = qdrant.server!
          const load = underLoad({ put, search }, "teapot", "Cast iron teapot")
          await new Promise((r) => setTimeout(r, 500))
          await server.stop()
          // Records live in Redis: pushes are still acknowledged while the index is away.
          await eventually(
            async () => expect((await put("teapot-during", { title: "Cast iron teapot during" })).status).toBe(200),
            30_000
          )
          load.acknowledged.push("teapot-during")
          await eventually(async () => {
            const read = await search("cast iron teapot")
            expect(read.status).toBe(503)
            expect(Number(read.headers.get("retry-after"))).toBeGreaterThan(0)
          }, 30_000)
          // Down until the load's own searches have met the outage (on a busy machine one round of it takes seconds).
          await eventually(async () => expect(load.statuses).toContain(503), 60_000)
          await server.restart()
          const { acknowledged, statuses } = await load.stop()
          expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
          expect(statuses).toContain(503)
          // Workers' upserts that failed while Qdrant was down are healed (retries, reconcile).
          await eventually(async () => {
            const found = new Set(ids(await search("cast iron teapot", { resultsCount: 1000 })))
            expect(acknowledged.filter((id) => !found.has(id))).toEqual([])
          }, 150_000)
        },
        240_000
      )
  )
}
