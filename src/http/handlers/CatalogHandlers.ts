import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Option, Schedule } from "effect"
import type { SetProductResponse } from "../../domain/Catalog.js"
import { ImageDeleteFailure } from "../../domain/Errors.js"
import { requireScope } from "../../services/auth/Auth.js"
import { CatalogStore } from "../../services/catalog-store/CatalogStore.js"
import { JobQueue } from "../../services/job-queue/JobQueue.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors, saveErrors } from "../ErrorMapping.js"
import { requireProduct } from "../../search/Products.js"

/** The record is the truth: a queue hiccup after a durable write is healed by the reconcile pass. */
/**
 * The write is durable before this runs, so a queue that cannot take the job does not fail the
 * request. The store and the queue may share one Redis whose connections come back at slightly
 * different moments after an outage, hence a few quick retries; beyond them the periodic
 * reconcile pass picks the product up (within a minute).
 */
const enqueueOrLog = (job: Parameters<JobQueue["Type"]["enqueue"]>[0][number]) =>
  Effect.flatMap(JobQueue, (q) => q.enqueue([job])).pipe(
    Effect.retry(Schedule.intersect(Schedule.exponential("100 millis"), Schedule.recurs(4))),
    Effect.catchAll((e) => Effect.logWarning("could not enqueue; reconcile will pick the product up", e))
  )

export const CatalogHandlers = HttpApiBuilder.group(CommerceApi, "catalog", (handlers) =>
  handlers
    .handle("getProduct", ({ path }) =>
      Effect.gen(function*() {
        const { siteId } = yield* CurrentPrincipal
        const product = yield* restErrors(requireProduct(siteId, path.productId))
        return {
          data: {
            "site-id": siteId,
            "product-id": product.productId,
            data: product.data,
            images: product.images,
            updatedAt: new Date(product.updatedAt).toISOString()
          }
        }
      }))
    .handle("putProduct", ({ path, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const store = yield* CatalogStore
        const { siteId } = principal
        const { product, created } = yield* store.put(siteId, path.productId, payload.data, payload.images).pipe(
          saveErrors(siteId, path.productId, payload.data)
        )
        yield* enqueueOrLog({ _tag: "IndexProduct", siteId, productId: path.productId })
        const response: SetProductResponse = {
          message: created ? "product created" : "product updated",
          data: { "site-id": siteId, "product-id": path.productId, data: product.data }
        }
        // Sent as it is rather than encoded through SetProductResponse: that would validate the
        // whole record a second time, though it is the payload this request just decoded (and
        // a product record's wire and decoded forms are the same JSON). Under a bulk push that
        // second pass was about a twentieth of the api's work per PUT.
        return HttpServerResponse.unsafeJson(response)
      }))
    .handle("deleteProduct", ({ path }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const store = yield* CatalogStore
        const { siteId } = principal
        const removed = yield* restErrors(store.remove(siteId, path.productId))
        if (Option.isNone(removed)) {
          return yield* new ImageDeleteFailure({
            message: `no product "${path.productId}" and no image of it found`,
            data: { "site-id": siteId, "image-id": "" }
          })
        }
        yield* enqueueOrLog({ _tag: "RemoveProduct", siteId, productId: path.productId })
        return {
          message: "product deleted",
          data: { "site-id": siteId, "product-id": path.productId, "image-ids": removed.value.images.map((i) => i.id) }
        }
      }))
)
