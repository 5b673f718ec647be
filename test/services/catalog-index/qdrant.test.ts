import { randomUUID } from "node:crypto"
import { describe, it } from "@effect/vitest"
import { QdrantClient } from "@qdrant/js-client-rest"
import { Effect, Layer } from "effect"
import { QdrantCatalogIndex } from "../../../src/services/catalog-index/QdrantCatalogIndex.js"
import { catalogIndexConformance } from "./conformance.js"

const url = process.env.QDRANT_URL
const apiKey = process.env.QDRANT_API_KEY

/**
 * Each test builds the layer afresh, so each gets its own collection (4-d vectors, like the
 * fixtures), dropped when the test's scope closes: tests never see each other's points.
 */
const freshCollection = (url: string) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const collection = `conformance_${randomUUID().replaceAll("-", "")}`
      const client = new QdrantClient({ url, ...(apiKey && { apiKey }), checkCompatibility: false })
      yield* Effect.addFinalizer(() => Effect.promise(() => client.deleteCollection(collection).catch(() => false)))
      return QdrantCatalogIndex.layer({ url, apiKey, collection, textDimension: 4, imageDimension: 4 }).pipe(Layer.orDie)
    })
  )

if (url === undefined) {
  console.warn(
    "QDRANT_URL not set: the Qdrant CatalogIndex suite needs a running Qdrant " +
      "(e.g. `docker run -p 6333:6333 qdrant/qdrant`, then QDRANT_URL=http://localhost:6333)"
  )
  describe.skip("CatalogIndex conformance: qdrant (QDRANT_URL not set)", () => {
    it("runs the shared conformance suite against a Qdrant server", () => {})
  })
} else {
  catalogIndexConformance("qdrant", freshCollection(url))
}
