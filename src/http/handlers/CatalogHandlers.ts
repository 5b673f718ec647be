import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import type { SetProductResponse } from "../../domain/Catalog.js"
import {
  type BadRequest,
  type ImageDeleteFailure,
  type NotFound,
  type ServiceUnavailable,
  UnsupportedMediaType
} from "../../domain/Errors.js"
import { bulkPush } from "../BulkPush.js"
import { patchedProduct } from "../../model/MergePatch.js"
import type { StoredProduct } from "../../model/StoredProduct.js"
import { requireScope } from "../../services/auth/Auth.js"
import { CatalogStore } from "../../services/catalog-store/CatalogStore.js"
import { JobQueue } from "../../services/job-queue/JobQueue.js"
import { afterWrite } from "../../indexing/AfterWrite.js"
import { CommerceApi } from "../Api.js"
import { CurrentPrincipal } from "../Authentication.js"
import { restErrors, saveErrors, unappliedWrite } from "../ErrorMapping.js"
import { requireProduct } from "../../services/catalog-store/CatalogStore.js"

/** The names NDJSON goes by. */
const NDJSON_TYPES = ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines"]

/** Indexes a written product (lexical first, see AfterWrite) and answers as the spec's PUT does. */
const indexAndAnswer = (
  siteId: number,
  productId: string,
  product: StoredProduct,
  created: boolean,
  previous?: StoredProduct
) =>
  Effect.gen(function* () {
    yield* afterWrite([{ product, previous, created }], [])
    const response: SetProductResponse = {
      message: created ? "product created" : "product updated",
      data: { "site-id": siteId, "product-id": productId, data: product.data }
    }
    // Sent as it is rather than encoded through SetProductResponse: that would validate the
    // whole record a second time, though it is the payload this request just decoded (and
    // a product record's wire and decoded forms are the same JSON): a bulk push would pay
    // that second pass on every PUT.
    return HttpServerResponse.unsafeJson(response)
  })

/** Products whose failed images GET /catalog/health lists (the count is of all of them). */
const HEALTH_FAILURES = 100

export const CatalogHandlers = HttpApiBuilder.group(CommerceApi, "catalog", (handlers) =>
  handlers
    .handle("getProduct", ({ path }) =>
      Effect.gen(function* () {
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
      })
    )
    .handle("putProduct", ({ path, payload }) =>
      Effect.gen(function* () {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const store = yield* CatalogStore
        const { siteId } = principal
        const { created, product } = yield* store
          .put(siteId, path.productId, payload.data, payload.images)
          .pipe(saveErrors(siteId, path.productId, payload.data))
        return yield* indexAndAnswer(siteId, path.productId, product, created)
      })
    )
    .handle("patchProduct", ({ path, payload }) =>
      Effect.gen(function* () {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const { siteId } = principal
        const store = yield* CatalogStore
        // Merged over the version it read, never over a write that came in between (from any
        // api process): then the store reads and merges again.
        const [result] = yield* store
          .writeMany(siteId, [
            { _tag: "Modify", productId: path.productId, modify: (current) => patchedProduct(current, payload) }
          ])
          .pipe(saveErrors(siteId, path.productId, {}))
        if (result._tag === "Written")
          return yield* indexAndAnswer(siteId, path.productId, result.product, false, result.previous)
        if (result._tag === "Removed") return yield* Effect.die("a Modify never removes")
        const { error } = unappliedWrite(siteId, path.productId, "Modify", result)
        return yield* error as BadRequest | NotFound | ServiceUnavailable
      })
    )
    .handle("bulkProducts", () =>
      Effect.gen(function* () {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const request = yield* HttpServerRequest.HttpServerRequest
        const type = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase()
        if (!NDJSON_TYPES.includes(type)) {
          return yield* new UnsupportedMediaType({
            message: `content-type: must be application/x-ndjson, not ${type === "" ? "missing" : type}`
          })
        }
        return yield* bulkPush(principal.siteId, request)
      })
    )
    .handle("catalogHealth", () =>
      Effect.gen(function* () {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const store = yield* CatalogStore
        const queue = yield* JobQueue
        const [products, lastWrite, pendingJobs, failedImages] = yield* restErrors(
          Effect.all(
            [
              store.count(principal.siteId),
              store.lastWrite(principal.siteId),
              queue.pending,
              store.imageFailures(principal.siteId, HEALTH_FAILURES)
            ],
            { concurrency: 4 }
          )
        )
        const lastProductWrite = Option.match(lastWrite, {
          onNone: () => null,
          onSome: (ms) => new Date(ms).toISOString()
        })
        return { products, lastProductWrite, pendingJobs, failedImages }
      })
    )
    .handle("deleteProduct", ({ path }) =>
      Effect.gen(function* () {
        const principal = yield* CurrentPrincipal
        yield* requireScope(principal, "site")
        const store = yield* CatalogStore
        const { siteId } = principal
        const removed = yield* restErrors(store.remove(siteId, path.productId))
        if (Option.isNone(removed))
          return yield* unappliedWrite(siteId, path.productId, "Remove", { _tag: "Absent" }).error as ImageDeleteFailure
        yield* afterWrite([], [{ siteId, productId: path.productId }])
        return {
          message: "product deleted",
          data: { "site-id": siteId, "product-id": path.productId, "image-ids": removed.value.images.map((i) => i.id) }
        }
      })
    )
)
