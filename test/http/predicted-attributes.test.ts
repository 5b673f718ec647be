import Database from "better-sqlite3"
import { Effect, Either, Fiber, Layer, Option, TestClock, TestContext } from "effect"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PREDICTABLE_ATTRIBUTES } from "../../src/indexing/AttributePrediction.js"
import { currentPrediction } from "../../src/indexing/CurrentPrediction.js"
import { CatalogStore, type CatalogStoreService } from "../../src/services/catalog-store/CatalogStore.js"
import type { Job } from "../../src/model/Jobs.js"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"
import { PredictionStore } from "../../src/services/prediction-store/PredictionStore.js"
import { type ApiWithPhotos, startApiWithPhotos } from "../support/ApiWithPhotos.js"
import { call } from "../support/Http.js"
import { eventually } from "../support/Eventually.js"

let server: ApiWithPhotos

const shoes = { shopping_product_category: "Apparel & Accessories > Shoes", product_type: "Footwear > Running Shoes" }
const catalog: ReadonlyArray<{ id: string; data: Record<string, unknown>; image?: string }> = [
  { id: "shoe-1", data: { title: "Lightweight trail running shoe", brand: "Stridex", gender: "unisex", ...shoes } },
  {
    id: "shoe-2",
    data: { title: "Trail running shoe with grippy sole", brand: "Stridex", gender: "unisex", ...shoes }
  },
  { id: "shoe-3", data: { title: "Waterproof trail running shoe", brand: "Stridex", gender: "unisex", ...shoes } },
  {
    id: "mug-1",
    data: { title: "Ceramic coffee mug", brand: "Potters", product_type: "Kitchen > Mugs", color: "Blue" },
    image: "/blue.jpg"
  },
  {
    id: "mug-2",
    data: { title: "Stoneware coffee mug", brand: "Potters", product_type: "Kitchen > Mugs", color: "Green" },
    image: "/green.jpg"
  },
  {
    id: "kettle-1",
    data: { title: "Stainless steel electric kettle", brand: "Boilo", product_type: "Kitchen > Kettles" }
  },
  { id: "drill-1", data: { title: "Cordless drill 18V", brand: "Bosch", product_type: "Tools > Power Tools > Drills" } }
]

const predict = (productId: string, body: unknown = {}, auth?: string) =>
  call(server.baseUrl, "POST", `/product/${encodeURIComponent(productId)}/predicted-attributes`, {
    auth: auth ?? server.siteA.basic,
    body
  })
const put = (productId: string, data: Record<string, unknown>, image?: string) =>
  call(server.baseUrl, "PUT", `/product/${productId}`, {
    auth: server.siteA.basic,
    body: { data, images: image ? [{ url: server.imageBase + image }] : [] }
  })
const attribute = (res: { body: any }, name: string) => res.body.attributes.find((a: any) => a.name === name)

beforeAll(async () => {
  server = await startApiWithPhotos()
  for (const p of catalog) expect((await put(p.id, p.data, p.image)).status).toBe(200)
  // Neighbours must be searchable (text and image vectors) before anything is predicted from them.
  await eventually(async () => {
    const res = await call(server.baseUrl, "POST", "/text-search", {
      auth: server.siteA.bearer,
      body: { query: "blue mug" }
    })
    expect(res.body.data.products[0].productId).toBe("mug-1")
    const ready = await call(server.baseUrl, "GET", "/readyz")
    expect(ready.body.pendingJobs).toBe(0)
  }, 120_000)
}, 180_000)
afterAll(async () => {
  await server?.close()
})

describe("POST /product/{id}/predicted-attributes", () => {
  it("predicts red for a plainly red product image whose record names no colour; describes each image", async () => {
    // Called straight after the PUT: the job indexes the product and analyses its image itself.
    expect(
      (await put("mug-red", { title: "Ceramic tea mug", product_type: "Kitchen > Mugs" }, "/red.jpg")).status
    ).toBe(200)
    const res = await predict("mug-red", { attributes: ["color"] })
    expect(res.status).toBe(200)
    expect(res.body.id).toBe("mug-red")
    expect(res.body.attributes).toEqual([{ name: "color", value: null, prediction: "red", confirmed: null }])
    expect(res.body.images).toHaveLength(1)
    const [image] = res.body.images
    expect(image.url).toBe(`${server.imageBase}/red.jpg`)
    expect(image.attributes.map((a: any) => a.name)).toEqual(["color", "adult", "objects"])
    expect(image.attributes[0]).toEqual({ name: "color", value: null, prediction: "red", confirmed: null })
    expect(image.attributes[1]).toMatchObject({ name: "adult", value: null, prediction: false })
    expect(Array.isArray(image.attributes[2].prediction)).toBe(true)
    // A plain-colour photo is not adult content, and its own image decides that.
    expect(attribute(await predict("mug-red", { attributes: ["adult"] }), "adult")).toEqual({
      name: "adult",
      value: null,
      prediction: false,
      confirmed: null
    })
  })

  it("serves a repeated call from the stored result, and recomputes after the product changes", async () => {
    await predict("mug-red")
    const db = new Database(path.join(server.dataDir, "catalog.db"), { readonly: true, fileMustExist: true })
    try {
      const computedAt = () =>
        (
          db
            .prepare("SELECT computed_at FROM prediction_results WHERE site_id = ? AND product_id = ?")
            .get(server.siteA.site.id, "mug-red") as { computed_at: number }
        ).computed_at
      const first = computedAt()
      const again = await predict("mug-red")
      expect(again.status).toBe(200)
      expect(computedAt()).toBe(first)
      expect(
        (
          await put(
            "mug-red",
            { title: "Ceramic tea mug", product_type: "Kitchen > Mugs", color: "Crimson" },
            "/red.jpg"
          )
        ).status
      ).toBe(200)
      const updated = await predict("mug-red", { attributes: ["color"] })
      expect(updated.body.attributes).toEqual([{ name: "color", value: "Crimson", prediction: "red", confirmed: null }])
      expect(computedAt()).toBeGreaterThan(first)
    } finally {
      db.close()
    }
  })

  it("returns every predictable attribute for an empty or omitted list, in a fixed order", async () => {
    const empty = await predict("shoe-1", { attributes: [] })
    expect(empty.status).toBe(200)
    expect(empty.body.attributes.map((a: any) => a.name)).toEqual([...PREDICTABLE_ATTRIBUTES])
    expect(PREDICTABLE_ATTRIBUTES).toEqual(
      expect.arrayContaining([
        "color",
        "adult",
        "shopping_product_category",
        "product_type",
        "gender",
        "age_group",
        "material",
        "pattern",
        "brand"
      ])
    )
    for (const a of empty.body.attributes) expect(a).toHaveProperty("confirmed", null)
    expect(attribute(empty, "brand").value).toBe("Stridex")
    expect(attribute(empty, "product_type").value).toBe("Footwear > Running Shoes")
    expect(empty.body.images).toEqual([])
    const omitted = await predict("shoe-1", {})
    expect(omitted.body.attributes).toEqual(empty.body.attributes)
    const noBody = await call(server.baseUrl, "POST", "/product/shoe-1/predicted-attributes", {
      auth: server.siteA.basic
    })
    expect(noBody.status).toBe(200)
    expect(noBody.body.attributes).toEqual(empty.body.attributes)
  })

  it("predicts brand and categories from the nearest catalog neighbours", async () => {
    expect((await put("shoe-new", { title: "Trail running shoe for mountains" })).status).toBe(200)
    const res = await predict("shoe-new", {
      attributes: ["brand", "shopping_product_category", "product_type", "gender", "material"]
    })
    expect(res.status).toBe(200)
    expect(res.body.attributes).toEqual([
      { name: "brand", value: null, prediction: "Stridex", confirmed: null },
      { name: "shopping_product_category", value: null, prediction: "Apparel & Accessories > Shoes", confirmed: null },
      { name: "product_type", value: null, prediction: "Footwear > Running Shoes", confirmed: null },
      { name: "gender", value: null, prediction: "unisex", confirmed: null },
      // No neighbour names a material: no evidence, no prediction.
      { name: "material", value: null, prediction: null, confirmed: null }
    ])
  })

  it("predicts a known brand of the site written in the title", async () => {
    expect((await put("kettle-new", { title: "Boilo travel kettle 0.5 l" })).status).toBe(200)
    const res = await predict("kettle-new", { attributes: ["brand"] })
    expect(res.body.attributes).toEqual([{ name: "brand", value: null, prediction: "Boilo", confirmed: null }])
  })

  it("rejects unknown attribute names with 400 naming them and the predictable ones", async () => {
    const res = await predict("shoe-1", { attributes: ["color", "flavour"] })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain("flavour")
    expect(res.body.message).toContain("shopping_product_category")
    const notArray = await predict("shoe-1", { attributes: "color" })
    expect(notArray.status).toBe(400)
    const misspelt = await predict("shoe-1", { attribute: ["color"] })
    expect(misspelt.status).toBe(400)
  })

  it("answers 404 for an unknown product, also of another site", async () => {
    const res = await predict("no-such-product")
    expect(res.status).toBe(404)
    expect(res.body.message).toContain("no-such-product")
    const otherSite = await predict("shoe-1", {}, server.siteB.basic)
    expect(otherSite.status).toBe(404)
  })

  it("needs site (Basic) credentials", async () => {
    expect((await predict("shoe-1", {}, server.siteA.bearer)).status).toBe(403)
    const anonymous = await call(server.baseUrl, "POST", "/product/shoe-1/predicted-attributes", { body: {} })
    expect(anonymous.status).toBe(401)
  })
})

describe("waiting for the prediction job", () => {
  it("gives up with 503 after the bounded wait when no worker answers, asking the queue again meanwhile", async () => {
    const enqueued: Array<Job> = []
    const product = { siteId: 1, productId: "p", data: {}, images: [], version: 1, updatedAt: 0, createdAt: 0 }
    const services = Layer.mergeAll(
      Layer.succeed(CatalogStore, {
        get: () => Effect.succeed(Option.some(product)),
        imageAnalyses: () => Effect.succeed([])
      } as unknown as CatalogStoreService),
      Layer.succeed(PredictionStore, {
        get: () => Effect.succeed(Option.none()),
        save: () => Effect.void,
        remove: () => Effect.void
      }),
      Layer.succeed(JobQueue, {
        enqueue: (jobs) => Effect.sync(() => void enqueued.push(...jobs)),
        queued: (jobs) => Effect.succeed(jobs.map(() => false)),
        pending: Effect.succeed(0),
        drained: Effect.void
      })
    )
    const outcome = await Effect.gen(function* () {
      const fiber = yield* Effect.fork(Effect.either(currentPrediction(1, "p")))
      yield* TestClock.adjust("9 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("2 seconds")
      return yield* Fiber.join(fiber)
    }).pipe(Effect.provide(services), Effect.provide(TestContext.TestContext), Effect.runPromise)
    expect(Either.isLeft(outcome)).toBe(true)
    if (Either.isLeft(outcome)) {
      expect(outcome.left._tag).toBe("ServiceUnavailable")
      expect(outcome.left.message).toContain("did not finish within")
    }
    expect(enqueued[0]).toEqual({ _tag: "PredictAttributes", siteId: 1, productId: "p" })
    expect(enqueued.length).toBeGreaterThanOrEqual(9)
  })
})
