import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Option } from "effect"
import type { SetProductBody, SetProductResponse } from "../../domain/Catalog.js"
import { BadRequest, ImageDeleteFailure } from "../../domain/Errors.js"
import { patchedProduct } from "../../domain/MergePatch.js"
import { KeyedLock } from "../../platform/KeyedLock.js"
import { requireScope } from "../../services/auth/Auth.js"
import { CatalogStore } from "../../services/catalog-store/CatalogStore.js"
import { enqueueAfterWrite } from "../../indexing/EnqueueAfterWrite.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors, saveErrors } from "../ErrorMapping.js"
import { requireProduct } from "../../search/Products.js"

export const CatalogHandlers = HttpApiBuilder.group(CommerceApi, "catalog", (handlers) => {
  // Writes of one product take turns, so a PATCH's read-merge-write sees no other write between.
  const lock = new KeyedLock()
  const ofProduct = (siteId: number, productId: string) => `${siteId}\u0000${productId}`

  /** Stores a product and queues its indexing; answers as the spec's PUT does. */
  const save = (siteId: number, productId: string, body: SetProductBody) =>
    Effect.gen(function*() {
      const store = yield* CatalogStore
      const { product, created } = yield* store.put(siteId, productId, body.data, body.images).pipe(
        saveErrors(siteId, productId, body.data)
      )
      yield* enqueueAfterWrite({ _tag: "IndexProduct", siteId, productId })
      const response: SetProductResponse = {
        message: created ? "product created" : "product updated",
        data: { "site-id": siteId, "product-id": productId, data: product.data }
      }
      // Sent as it is rather than encoded through SetProductResponse: that would validate the
      // whole record a second time, though it is the payload this request just decoded (and
      // a product record's wire and decoded forms are the same JSON). Under a bulk push that
      // second pass was about a twentieth of the api's work per PUT.
      return HttpServerResponse.unsafeJson(response)
    })

  return handlers
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
        return yield* lock.with(ofProduct(principal.siteId, path.productId), save(principal.siteId, path.productId, payload))
      }))
    .handle("patchProduct", ({ path, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const { siteId } = principal
        return yield* lock.with(
          ofProduct(siteId, path.productId),
          Effect.gen(function*() {
            const current = yield* restErrors(requireProduct(siteId, path.productId))
            const patched = patchedProduct(current, payload)
            if (Either.isLeft(patched)) return yield* new BadRequest({ message: patched.left })
            return yield* save(siteId, path.productId, patched.right)
          })
        )
      }))
    .handle("deleteProduct", ({ path }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const store = yield* CatalogStore
        const { siteId } = principal
        const removed = yield* lock.with(ofProduct(siteId, path.productId), restErrors(store.remove(siteId, path.productId)))
        if (Option.isNone(removed)) {
          return yield* new ImageDeleteFailure({
            message: `no product "${path.productId}" and no image of it found`,
            data: { "site-id": siteId, "image-id": "" }
          })
        }
        yield* enqueueAfterWrite({ _tag: "RemoveProduct", siteId, productId: path.productId })
        return {
          message: "product deleted",
          data: { "site-id": siteId, "product-id": path.productId, "image-ids": removed.value.images.map((i) => i.id) }
        }
      }))
})
