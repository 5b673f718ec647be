import { randomUUID } from "node:crypto"
import { describe, it } from "@effect/vitest"
import { QdrantClient } from "@qdrant/js-client-rest"
import { Effect, Layer } from "effect"
import { QdrantCatalogIndex } from "../../../src/services/catalog-index/QdrantCatalogIndex.js"
import { qdrantForThisFile } from "../../support/QdrantServer.js"
import { catalogIndexConformance } from "./conformance.js"

const qdrant = qdrantForThisFile()

/**
 * Each test builds the layer afresh, so each gets its own collection (4-d vectors, like the
 * fixtures), dropped when the test's scope closes: tests never see each other's points.
 */
const freshCollection = Layer.unwrapScoped(
  Effect.gen(function*() {
    const { apiKey, url } = qdrant
    const collection = `conformance_${randomUUID().replaceAll("-", "")}`
    const client = new QdrantClient({ url, ...(apiKey && { apiKey }), checkCompatibility: false })
    yield* Effect.addFinalizer(() => Effect.promise(() => client.deleteCollection(collection).catch(() => false)))
    return QdrantCatalogIndex.layer({ url, apiKey, collection, textDimension: 4, imageDimension: 4 }).pipe(Layer.orDie)
  })
)

if (qdrant.available) {
  catalogIndexConformance("qdrant", freshCollection)
} else {
  console.warn(qdrant.skipReason)
  describe.skip(`CatalogIndex conformance: qdrant (${qdrant.skipReason})`, () => {
    it("runs the shared conformance suite against a Qdrant server", () => {})
  })
}
