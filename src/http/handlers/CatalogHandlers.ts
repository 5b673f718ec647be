import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Option } from "effect"
import type { SetProductResponse } from "../../domain/Catalog.js"
import { BadRequest, ImageDeleteFailure, ServiceUnavailable } from "../../domain/Errors.js"
import { patchedProduct } from "../../domain/MergePatch.js"
import type { StoredProduct } from "../../model/StoredProduct.js"
import { requireScope } from "../../services/auth/Auth.js"
import { CatalogStore } from "../../services/catalog-store/CatalogStore.js"
import { enqueueAfterWrite } from "../../indexing/EnqueueAfterWrite.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors, saveErrors } from "../ErrorMapping.js"
import { requireProduct } from "../../search/Products.js"

/** Read-merge-writes a PATCH retries when other writes keep coming first, before answering 503. */
const PATCH_ATTEMPTS = 10

/** Queues the indexing of a written product and answers as the spec's PUT does. */
const written = (siteId: number, productId: string, product: StoredProduct, created: boolean) =>
  Effect.gen(function*() {
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
        const { created, product } = yield* store.put(siteId, path.productId, payload.data, payload.images).pipe(
          saveErrors(siteId, path.productId, payload.data)
        )
        return yield* written(siteId, path.productId, product, created)
      }))
    .handle("patchProduct", ({ path, payload }) =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const { siteId } = principal
        const store = yield* CatalogStore
        // Compare-and-set: the merge is written only over the version it was made from, so a
        // write that came in between (from any api process) is never lost; then merge again.
        for (let attempt = 1; ; attempt++) {
          const current = yield* restErrors(requireProduct(siteId, path.productId))
          const patched = patchedProduct(current, payload)
          if (Either.isLeft(patched)) return yield* new BadRequest({ message: patched.left })
          const replaced = yield* store.replaceAtVersion(siteId, path.productId, current.version, patched.right.data, patched.right.images).pipe(
            saveErrors(siteId, path.productId, patched.right.data)
          )
          if (Option.isSome(replaced)) return yield* written(siteId, path.productId, replaced.value, false)
          if (attempt === PATCH_ATTEMPTS) {
            return yield* new ServiceUnavailable({ message: `product "${path.productId}" kept changing while the patch was applied; retry` })
          }
        }
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
        yield* enqueueAfterWrite({ _tag: "RemoveProduct", siteId, productId: path.productId })
        return {
          message: "product deleted",
          data: { "site-id": siteId, "product-id": path.productId, "image-ids": removed.value.images.map((i) => i.id) }
        }
      }))
)
