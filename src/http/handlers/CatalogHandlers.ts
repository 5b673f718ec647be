import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import type { SetProductResponse } from "../../domain/Catalog.js"
import { ImageDeleteFailure } from "../../domain/Errors.js"
import { requireScope } from "../../services/auth/Auth.js"
import { CatalogStore } from "../../services/catalog-store/CatalogStore.js"
import { enqueueAfterWrite } from "../../indexing/EnqueueAfterWrite.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors, saveErrors } from "../ErrorMapping.js"
import { requireProduct } from "../../search/Products.js"

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
        yield* enqueueAfterWrite({ _tag: "IndexProduct", siteId, productId: path.productId })
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
        yield* enqueueAfterWrite({ _tag: "RemoveProduct", siteId, productId: path.productId })
        return {
          message: "product deleted",
          data: { "site-id": siteId, "product-id": path.productId, "image-ids": removed.value.images.map((i) => i.id) }
        }
      }))
)
