import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decodeCategoryPath, encodeCategoryPath } from "../../src/domain/CategoryPath.js"
import { Effect, Either, Schema } from "effect"
import { TextSearchResponse } from "../../src/domain/Search.js"
import { fixtureProducts } from "../support/FixtureCatalog.js"
import { JobQueue } from "../../src/services/job-queue/JobQueue.js"
import { call } from "../support/Http.js"
import { parseServerTiming } from "../../src/platform/ServerTiming.js"
import { eventually } from "../support/Eventually.js"
import { type InProcessApi, startInProcessApi } from "../support/InProcessApi.js"

let server: InProcessApi
const path = (text: string) => encodeCategoryPath(text)
const text = (encoded: string) => Either.getOrThrow(decodeCategoryPath(encoded))

beforeAll(async () => {
  server = await startInProcessApi({
    campaigns: [
      { id: 7, name: "two results", resultsCount: 2 },
      {
        id: 8,
        name: "promo",
        resultsCount: 50,
        redirects: [{ query: "help", url: "https://shop.example.com/help" }],
        pins: [{ query: "gift", productIds: ["belt-1"] }]
      },
      {
        id: 9,
        name: "pairs",
        resultsCount: 10,
        crossSell: [{ from: "Tools > Power Tools > Drills", to: ["Tools > Accessories"] }]
      },
      { id: 10, name: "every variant", resultsCount: 50, collapseVariants: false }
    ]
  })
  for (const p of fixtureProducts) {
    const res = await call(server.baseUrl, "PUT", `/product/${p.id}`, {
      auth: server.siteA.basic,
      body: { data: p.data, images: p.images ?? [] }
    })
    expect(res.status).toBe(200)
  }
  // Site B has a product with the same words; it must never show up for site A.
  await call(server.baseUrl, "PUT", "/product/b-drill", {
    auth: server.siteB.basic,
    body: { data: { title: "Cordless Drill from site B" } }
  })
  await eventually(async () => {
    const res = await search({ query: "leather belt" })
    expect(res.body.data.products.map((p: { productId: string }) => p.productId)).toContain("belt-1")
    const b = await search({ query: "drill" }, server.siteB.bearer)
    expect(b.body.data.products.length).toBe(1)
    // Listed by their words at once; the vectors that similar products and ranking use follow.
    expect((await call(server.baseUrl, "GET", "/readyz")).body.pendingJobs).toBe(0)
  }, 60_000)
})
afterAll(() => server.close())

const search = (body: Record<string, unknown>, auth = server.siteA.bearer) =>
  call(server.baseUrl, "POST", "/text-search", { auth, body })
const ids = (res: { body: { data: { products: ReadonlyArray<{ productId: string }> } } }) =>
  res.body.data.products.map((p) => p.productId)

describe("POST /text-search", () => {
  it("ranks the best match first and returns result entities", async () => {
    const res = await search({ query: "cordless drill", requestId: "r-1" })
    expect(res.status).toBe(200)
    expect(res.body.requestId).toBe("r-1")
    expect(ids(res)[0]).toBe("drill-1")
    const first = res.body.data.products[0]
    expect(first.entityType).toBe("product")
    expect(first.kind).toBe("product")
    expect(first.deeplink).toBeNull()
    expect(first.brand).toBe("Bosch")
    expect(text(first.productType)).toBe("Tools > Power Tools > Drills")
    expect(first.image.original).toBe("https://img.example.com/drill-1.jpg")
    expect(first.price).toEqual({ actual: 129, sale: null })
    expect(first.basePrice.actual).toEqual({ price: 86, quantity: 1, measure: "kg" })
  })

  it("marks the matched words of each title, and of a description snippet on request", async () => {
    const res = await search({ query: "leather belts" })
    const belt = res.body.data.products.find((p: { productId: string }) => p.productId === "belt-1")
    expect(belt.highlight).toEqual({ title: "<mark>Leather</mark> <mark>Belt</mark> Brown" })
    const withSnippet = await search({ query: "leather belts", snippet: true })
    const snipped = withSnippet.body.data.products.find((p: { productId: string }) => p.productId === "belt-1")
    expect(snipped.highlight).toEqual({
      title: "<mark>Leather</mark> <mark>Belt</mark> Brown",
      description: "Genuine <mark>leather</mark> <mark>belt</mark> with a metal buckle."
    })
    // A product without a description has no snippet to show.
    const bare = await search({ query: "cordless drill", snippet: true }, server.siteB.bearer)
    expect(bare.body.data.products[0].highlight).toEqual({
      title: "<mark>Cordless</mark> <mark>Drill</mark> from site B"
    })
    // A browse has no words to mark.
    const browse = await search({})
    expect(browse.body.data.products.every((p: { highlight?: unknown }) => p.highlight === undefined)).toBe(true)
    expect((await search({ query: "belt", snippet: "yes" })).status).toBe(400)
  })

  it("documents highlight and the snippet option in the OpenAPI document", async () => {
    const spec = (await call(server.baseUrl, "GET", "/openapi.json")).body
    const schemas = spec.components.schemas
    const request = spec.paths["/text-search"].post.requestBody.content["application/json"].schema
    const requestSchema = request.$ref ? schemas[request.$ref.split("/").at(-1)] : request
    expect(requestSchema.properties.snippet).toMatchObject({ type: "boolean" })
    expect(requestSchema.properties.snippet.description).toContain("<mark>")
    expect(schemas.ResultEntity.properties.highlight.$ref).toBe("#/components/schemas/Highlight")
    expect(schemas.Highlight.description).toContain("HTML-escaped")
    expect(schemas.Highlight.required).toEqual(["title"])
    expect(schemas.Highlight.properties.title.description).toContain("<mark>")
    expect(schemas.Highlight.properties.description.description).toContain("snippet")
  })

  it("says where the time went in a Server-Timing header", async () => {
    const res = await search({ query: "cordless drill" })
    const stages = parseServerTiming(res.headers.get("server-timing") ?? "")
    for (const stage of ["embed", "index", "entities"]) expect(stages.get(stage)).toBeGreaterThanOrEqual(0)
    // Only requests that time stages carry it.
    const health = await call(server.baseUrl, "GET", "/healthz", {})
    expect(health.headers.get("server-timing")).toBeNull()
  })

  it("returns only products that match the query: no apparel for a drill, nothing for made-up words", async () => {
    const drills = ids(await search({ query: "cordless drill" }))
    expect(drills).toContain("drill-1")
    expect(drills.filter((id) => !id.startsWith("drill-") && !id.startsWith("bits-"))).toEqual([])
    const nonsense = await search({ query: "xyzzy qwerty" })
    expect(nonsense.status).toBe(200)
    expect(ids(nonsense)).toEqual([])
    expect(nonsense.body.data.interactions.dynamicFilters ?? []).toEqual([])
    // A word the shop does not sell beside one it does: the known word's products, nothing else.
    expect(ids(await search({ query: "xyzzy belt" }))).toEqual(["belt-1"])
  })

  it("tolerates typos and stems words", async () => {
    expect(ids(await search({ query: "cordles drils" }))[0]).toBe("drill-1")
    expect(ids(await search({ query: "saws" }))[0]).toBe("saw-1")
  })

  it("never returns another site's products", async () => {
    expect(ids(await search({ query: "cordless drill from site B" }))).not.toContain("b-drill")
    expect(ids(await search({ query: "cordless drill" }, server.siteB.bearer))).toEqual(["b-drill"])
  })

  it("caps resultsCount at the campaign's defined count", async () => {
    expect(ids(await search({ query: "drill", resultsCount: 50, campaign: 7 })).length).toBe(2)
    expect(ids(await search({ query: "drill", resultsCount: 1 })).length).toBe(1)
    const unknown = await search({ query: "drill", campaign: 12345 })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toContain("12345")
  })

  it("applies static included and excluded filters", async () => {
    const bosch = ids(
      await search({ query: "drill", staticFilters: { included: [{ column: "brand", values: ["Bosch"] }] } })
    )
    expect(bosch.length).toBeGreaterThan(0)
    expect(bosch.every((id) => ["drill-1", "drill-3", "bits-1"].includes(id))).toBe(true)
    const notBosch = ids(
      await search({ query: "drill", staticFilters: { excluded: [{ column: "brand", values: ["Bosch"] }] } })
    )
    expect(notBosch).toContain("drill-2")
    expect(notBosch.some((id) => ["drill-1", "drill-3", "bits-1"].includes(id))).toBe(false)
  })

  it("filters intervals as [start, end) on the price the shopper pays", async () => {
    const res = ids(
      await search({ query: "drill", dynamicFilters: [{ column: "price", values: { start: 89.5, end: 129 } }] })
    )
    expect(res).toContain("drill-2") // 89.5: start is included
    expect(res).not.toContain("drill-1") // 129: end is excluded
    const sale = ids(
      await search({ query: "impact driver", dynamicFilters: [{ column: "price", values: { start: 70, end: 80 } }] })
    )
    expect(sale).toEqual(["drill-3"]) // list 99, on sale for 79
  })

  it("filters by encoded category paths, including parents", async () => {
    const drills = ids(
      await search({
        query: "drill",
        dynamicFilters: [{ column: "category", values: [path("Tools > Power Tools > Drills")] }]
      })
    )
    expect(drills.sort()).toEqual(["drill-1", "drill-2"])
    const power = ids(
      await search({ query: "drill", dynamicFilters: [{ column: "category", values: [path("Tools>Power Tools")] }] })
    )
    expect(power).not.toContain("bits-1")
    expect(power).toEqual(expect.arrayContaining(["drill-1", "drill-2"]))
    const bad = await search({ query: "drill", dynamicFilters: [{ column: "category", values: ["not base64!"] }] })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain("dynamicFilters")
  })

  it("rejects unknown filter columns and non-numeric intervals with the field named", async () => {
    const res = await search({ query: "drill", staticFilters: { included: [{ column: "flavour", values: ["x"] }] } })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain("staticFilters.included.0.column")
    const interval = await search({
      query: "drill",
      dynamicFilters: [{ column: "brand", values: { start: 1, end: 2 } }]
    })
    expect(interval.status).toBe(400)
  })

  it("computes dynamic filters from the matching set", async () => {
    const res = await search({ query: "drill", dynamicFilters: [{ column: "brand", values: ["Bosch"] }] })
    const facets = res.body.interactions.dynamicFilters as ReadonlyArray<any>
    expect(res.body.data.interactions).toEqual(res.body.interactions)
    const brand = facets.find((f) => f.column === "brand")
    expect(brand.type).toBe("categorical")
    expect(brand.isPrimary).toBe(true)
    // the brand facet ignores its own selection, so Makita stays offered
    expect(brand.values.map((v: any) => v.value)).toEqual(expect.arrayContaining(["Bosch", "Makita"]))
    expect(brand.values.find((v: any) => v.value === "Bosch").selected).toBe(true)
    expect(brand.values.find((v: any) => v.value === "Makita").selected).toBe(false)
    const category = facets.find((f) => f.column === "category")
    for (const v of category.values) {
      expect(Array.isArray(v.value)).toBe(true)
      expect(text(v.value[0]).startsWith("Tools")).toBe(true)
    }
    const price = facets.find((f) => f.column === "price")
    expect(price.type).toBe("interval")
    for (const v of price.values) expect(v.value.start).toBeLessThan(v.value.end)
  })

  it("returns a campaign redirect and puts pinned products first", async () => {
    const help = await search({ query: "  Help ", campaign: 8 })
    expect(help.body.interactions.redirect).toEqual({ url: "https://shop.example.com/help" })
    expect(ids(await search({ query: "gift", campaign: 8 }))[0]).toBe("belt-1")
  })

  it("answers what the response schema encodes (the compiled encoder agrees with Effect's)", async () => {
    for (const body of [{ query: "blue" }, { query: "cordless drill" }, {}, { query: "belt", campaign: 10 }]) {
      const res = await search(body)
      expect(res.status).toBe(200)
      const decoded = Schema.decodeUnknownSync(TextSearchResponse)(res.body)
      expect(Schema.encodeSync(TextSearchResponse)(decoded)).toEqual(res.body)
    }
  })

  it("proposes one refinement in the stream with a products annotation", async () => {
    const res = await search({ query: "blue" })
    const item = res.body.stream.items[0]
    expect(item.role).toBe("assistant")
    const annotation = item.parts[0].text.annotations[0]
    const content: string = item.parts[0].text.content
    const filter = annotation.interactions.dynamicFilters
    expect(filter).toHaveLength(1)
    expect(filter[0].values).toHaveLength(1)
    expect(content.substr(annotation.locator.start, annotation.locator.length)).toBe(filter[0].values[0].label)
    expect(annotation.data.type).toBe("products")
    expect(annotation.data.items.length).toBeGreaterThan(0)
  })

  it("browses the scope without a query: a category page, with its total", async () => {
    const drills = await search({
      staticFilters: { included: [{ column: "category", values: [path("Tools > Power Tools > Drills")] }] }
    })
    expect(drills.status).toBe(200)
    expect(ids(drills).sort()).toEqual(["drill-1", "drill-2"])
    expect(drills.body.data.total).toBe(2)
    const everything = await search({ query: "   ", resultsCount: 50, collapseVariants: false })
    expect(ids(everything).sort()).toEqual(fixtureProducts.map((p) => p.id).sort())
    expect(everything.body.data.total).toBe(fixtureProducts.length)
  })

  it("pages with offset: consecutive pages are the full list in order, each with the same total", async () => {
    const full = await search({ query: "drill", resultsCount: 50 })
    const all = ids(full)
    expect(all.length).toBeGreaterThanOrEqual(3)
    expect(full.body.data.total).toBe(all.length)
    const pages: Array<string> = []
    for (let offset = 0; offset < all.length; offset += 2) {
      const page = await search({ query: "drill", resultsCount: 2, offset })
      expect(page.body.data.total).toBe(all.length)
      pages.push(...ids(page))
    }
    expect(pages).toEqual(all)
    const beyond = await search({ query: "drill", resultsCount: 2, offset: all.length })
    expect(ids(beyond)).toEqual([])
    expect(beyond.body.data.total).toBe(all.length)
    const bad = await search({ query: "drill", offset: -3 })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain("offset")
  })
})

describe("POST /text-search listings: sort, exact counts, variant groups", () => {
  const prices = (res: {
    body: { data: { products: ReadonlyArray<{ price?: { actual?: number | null; sale?: number | null } }> } }
  }) => res.body.data.products.map((p) => p.price?.sale ?? p.price?.actual ?? null)

  it("sorts by the price the shopper pays, either way, products without a price last", async () => {
    const asc = await search({ resultsCount: 50, collapseVariants: false, sort: [{ column: "price", order: "asc" }] })
    expect(asc.status).toBe(200)
    const listed = prices(asc).filter((p): p is number => p !== null)
    expect(listed).toEqual([...listed].sort((a, b) => a - b))
    expect(asc.body.data.total).toBe(fixtureProducts.length)
    const desc = await search({ query: "drill", resultsCount: 50, sort: [{ column: "price", order: "desc" }] })
    const drills = prices(desc) as Array<number>
    expect(drills).toEqual([...drills].sort((a, b) => b - a))
    // The same matches as the relevance listing, in another order.
    expect(ids(desc).sort()).toEqual(ids(await search({ query: "drill", resultsCount: 50 })).sort())
  })

  it("sorts by title A–Z and pages through the sorted listing", async () => {
    const titles = (res: { body: { data: { products: ReadonlyArray<{ title?: string }> } } }) =>
      res.body.data.products.map((p) => p.title!.toLowerCase())
    const whole = await search({ resultsCount: 50, sort: [{ column: "title", order: "asc" }] })
    expect(titles(whole)).toEqual([...titles(whole)].sort())
    const pages: Array<string> = []
    for (let offset = 0; offset < fixtureProducts.length; offset += 4) {
      pages.push(...ids(await search({ resultsCount: 4, offset, sort: [{ column: "title", order: "asc" }] })))
    }
    expect(pages).toEqual(ids(whole))
  })

  it("sorts by newest: the time the catalog first received a product, which a later push keeps", async () => {
    const push = (id: string) =>
      call(server.baseUrl, "PUT", `/product/${id}`, {
        auth: server.siteB.basic,
        body: { data: { title: `Hammer ${id}` } }
      })
    expect((await push("b-older")).status).toBe(200)
    // A clock tick between the two pushes, so their times differ.
    const pushed = Date.now()
    while (Date.now() === pushed) await new Promise((resolve) => setTimeout(resolve, 1))
    expect((await push("b-newer")).status).toBe(200)
    expect((await push("b-older")).status).toBe(200)
    await eventually(async () => {
      const newest = await search(
        { resultsCount: 10, sort: [{ column: "newest", order: "desc" }] },
        server.siteB.bearer
      )
      expect(ids(newest)).toEqual(["b-newer", "b-older", "b-drill"])
    }, 60_000)
  })

  it("rejects an unknown sort column or order with the field named", async () => {
    const column = await search({ query: "drill", sort: [{ column: "rating", order: "asc" }] })
    expect(column.status).toBe(400)
    expect(column.body.message).toContain("sort")
    expect(column.body.message).toContain("must be one of: price, title, newest")
    const order = await search({ query: "drill", sort: [{ column: "price", order: "up" }] })
    expect(order.status).toBe(400)
    expect(order.body.message).toContain("sort.0.order: must be one of: asc, desc")
  })

  it("counts each facet value exactly over the whole result set, beyond the page", async () => {
    const page = await search({ query: "acme", resultsCount: 1, collapseVariants: false })
    const all = await search({ query: "acme", resultsCount: 50, collapseVariants: false })
    expect(page.body.data.total).toBe(ids(all).length)
    const colors = page.body.interactions.dynamicFilters.find((f: { column: string }) => f.column === "color")
    const expected = new Map<string, number>()
    for (const product of all.body.data.products as ReadonlyArray<{ productId: string }>) {
      const color = fixtureProducts.find((p) => p.id === product.productId)!.data.color as string | undefined
      if (color) expected.set(color.toLowerCase(), (expected.get(color.toLowerCase()) ?? 0) + 1)
    }
    expect(Object.fromEntries(colors.values.map((v: { value: string; count: number }) => [v.value, v.count]))).toEqual(
      Object.fromEntries(expected)
    )
    for (const facet of page.body.interactions.dynamicFilters) {
      for (const value of facet.values) expect(value.count).toBeGreaterThan(0)
    }
  })

  it("collapses variants to one product per item group by default, with the group's swatches, counting groups", async () => {
    const plain = await search({ query: "cotton t-shirt", collapseVariants: false })
    expect(ids(plain)).toEqual(expect.arrayContaining(["shirt-red-m", "shirt-blue-m"]))
    const grouped = await search({ query: "cotton t-shirt" })
    const shirts = ids(grouped).filter((id) => id.startsWith("shirt-"))
    expect(shirts).toHaveLength(1)
    const tile = grouped.body.data.products.find((p: { productId: string }) => p.productId === shirts[0])
    expect(tile.groupId).toBe("shirt-1")
    expect(tile.variants).toEqual({ count: 2, colors: expect.arrayContaining(["red", "blue"]), sizes: ["M"] })
    expect(grouped.body.data.total).toBe(plain.body.data.total - 1)
    // Facets count groups too: the two unisex shirts are one group.
    const gender = async (collapseVariants: boolean) => {
      const res = await search({ query: "acme", collapseVariants })
      const facet = res.body.interactions.dynamicFilters.find((f: { column: string }) => f.column === "gender")
      return Object.fromEntries(facet.values.map((v: { value: string; count: number }) => [v.value, v.count]))
    }
    expect(await gender(false)).toEqual({ unisex: 2, male: 2 })
    expect(await gender(true)).toEqual({ unisex: 1, male: 2 })
    // A campaign that lists every variant, and a request that asks for groups under it.
    expect(
      ids(await search({ query: "cotton t-shirt", campaign: 10 })).filter((id) => id.startsWith("shirt-"))
    ).toHaveLength(2)
    expect(
      ids(await search({ query: "cotton t-shirt", campaign: 10, collapseVariants: true })).filter((id) =>
        id.startsWith("shirt-")
      )
    ).toHaveLength(1)
  })
})

describe("POST /similar-products and /cross-selling", () => {
  it("finds the same kind of product first", async () => {
    const res = await call(server.baseUrl, "POST", "/similar-products", {
      auth: server.siteA.bearer,
      body: { productId: "drill-1", requestId: "s-1" }
    })
    expect(res.status).toBe(200)
    expect(res.body.requestId).toBe("s-1")
    expect(res.body.data.sourceProduct.productId).toBe("drill-1")
    const found = ids(res)
    expect(found).not.toContain("drill-1")
    expect(["drill-2", "drill-3"]).toContain(found[0])
    const shirt = found.indexOf("shirt-red-m")
    expect(found).toContain("drill-2")
    expect(shirt === -1 || found.indexOf("drill-2") < shirt).toBe(true)
  })

  it("honours a category substitution and reports it", async () => {
    const jeans = path("Clothing > Bottoms > Jeans")
    const res = await call(server.baseUrl, "POST", "/similar-products", {
      auth: server.siteA.bearer,
      body: { productId: "shirt-red-m", substitutions: { category: [jeans], price: 45 } }
    })
    expect(ids(res)).toEqual(["jeans-1"])
    expect(res.body.substitutions[0]).toEqual({ column: "category", value: { value: [jeans], label: "Jeans" } })
  })

  it("answers 404 for an unknown or foreign source product", async () => {
    const res = await call(server.baseUrl, "POST", "/similar-products", {
      auth: server.siteB.bearer,
      body: { productId: "drill-1" }
    })
    expect(res.status).toBe(404)
  })

  it("cross-sells complements, never from the source's leaf category or item group", async () => {
    const res = await call(server.baseUrl, "POST", "/cross-selling", {
      auth: server.siteA.bearer,
      body: { productId: "shirt-red-m" }
    })
    expect(res.status).toBe(200)
    const found = ids(res)
    expect(found.length).toBeGreaterThan(0)
    expect(found).not.toContain("shirt-blue-m")
    expect(found).not.toContain("shirt-red-m")
    expect(["jeans-1", "belt-1"]).toContain(found[0])
  })

  it("uses campaign category pairs for cross-selling", async () => {
    const res = await call(server.baseUrl, "POST", "/cross-selling", {
      auth: server.siteA.bearer,
      body: { productId: "drill-1", campaigns: [9] }
    })
    expect(ids(res)).toEqual(["bits-1"])
  })

  it("serves the deprecated GET endpoints with bestFits and extended", async () => {
    const res = await call(
      server.baseUrl,
      "GET",
      "/product/drill-1/similar-products?similar-products-count=2&excluded[]=brand:Makita",
      { auth: server.siteA.bearer }
    )
    expect(res.status).toBe(200)
    expect(res.body.bestFits.length).toBeLessThanOrEqual(2)
    expect(res.body.bestFits).not.toContain("drill-2")
    expect(res.body.extended.map((p: any) => p.productId)).toEqual(res.body.bestFits)
    const cross = await call(server.baseUrl, "GET", "/product/drill-1/cross-selling-products?campaigns=9", {
      auth: server.siteA.bearer
    })
    expect(cross.body.bestFits).toEqual(["bits-1"])
    const badColor = await call(server.baseUrl, "GET", "/product/drill-1/similar-products?color=blue", {
      auth: server.siteA.bearer
    })
    expect(badColor.status).toBe(400)
    const badImage = await call(server.baseUrl, "GET", "/product/drill-1/similar-products?image-code=nope", {
      auth: server.siteA.bearer
    })
    expect(badImage.status).toBe(400)
  })
})

describe("POST /auto-suggest", () => {
  it("completes partial queries from the catalog, tolerating typos", async () => {
    const res = await call(server.baseUrl, "POST", "/auto-suggest", {
      auth: server.siteA.bearer,
      body: { query: "cordl" }
    })
    expect(res.status).toBe(200)
    expect(res.body.data.query).toBe("cordl")
    const suggestions = res.body.data.completions.map((c: any) => c.suggestion)
    expect(suggestions.some((s: string) => s.includes("cordless"))).toBe(true)
    const typo = await call(server.baseUrl, "POST", "/auto-suggest", {
      auth: server.siteA.bearer,
      body: { query: "cirular" }
    })
    expect(typo.body.data.completions.map((c: any) => c.suggestion).some((s: string) => s.includes("circular"))).toBe(
      true
    )
  })

  it(
    "learns a query from searches shoppers clicked a result of, " +
      "not from searches alone; never words the catalog lacks",
    async () => {
      const completions = async (query: string) =>
        (
          await call(server.baseUrl, "POST", "/auto-suggest", { auth: server.siteA.bearer, body: { query } })
        ).body.data.completions.map((c: any) => c.suggestion)
      const searched: Record<string, Array<string>> = {}
      for (let i = 0; i < 3; i++) {
        for (const query of ["drill quillon", "cordless circular"]) {
          // Both find products ("drill" matches); each answer names its requestId.
          const found = await call(server.baseUrl, "POST", "/text-search", {
            auth: server.siteA.bearer,
            body: { query }
          })
          expect(found.body.data.products.length, query).toBeGreaterThan(0)
          expect(typeof found.body.requestId).toBe("string")
          ;(searched[query] ??= []).push(found.body.requestId)
        }
      }
      // Searched three times with the public token and never clicked: no completion.
      await server.run(Effect.flatMap(JobQueue, (queue) => queue.drained))
      expect(await completions("cordless c")).not.toContain("cordless circular")
      // A shopper clicks a result of each query's first search.
      const clicks = Object.entries(searched).map(([query, [requestId]], i) => ({
        eventId: `click-${i}`,
        type: "click",
        productIds: ["drill-1"],
        requestId,
        position: 1,
        query
      }))
      expect(
        (await call(server.baseUrl, "POST", "/events", { auth: server.siteA.bearer, body: { events: clicks } })).status
      ).toBe(200)
      await eventually(async () => expect(await completions("cordless c")).toContain("cordless circular"), 30_000)
      // Clicked, but its words are not the catalog's: never offered.
      expect(await completions("drill")).not.toContain("drill quillon")
      expect(await completions("drill q")).toEqual([])
    }
  )

  it("needs credentials", async () => {
    const res = await call(server.baseUrl, "POST", "/auto-suggest", { body: { query: "dr" } })
    expect(res.status).toBe(401)
  })
})

describe("POST /text-search: what the titles name", () => {
  it("lists products whose title names what the query names before those it only describes", async () => {
    const products = {
      "watch-armitron": "Gold Dress Watch",
      "watch-seiko": "Seiko Gold Dress Watch",
      "dress-chiasso": "Chiasso Women's Sleeveless Gold Dress"
    }
    for (const [id, title] of Object.entries(products)) {
      const res = await call(server.baseUrl, "PUT", `/product/${id}`, {
        auth: server.siteB.basic,
        body: { data: { title } }
      })
      expect(res.status).toBe(200)
    }
    await eventually(async () => {
      expect((await call(server.baseUrl, "GET", "/readyz")).body.pendingJobs).toBe(0)
      const res = await search({ query: "gold dress" }, server.siteB.bearer)
      expect(ids(res)).toHaveLength(3)
      // The watches hold both words too (a dress watch), but the dress is what a shopper asked for.
      expect(ids(res)[0]).toBe("dress-chiasso")
      // Pages come from one re-ranked window: together they are the whole listing.
      const first = await search({ query: "gold dress", resultsCount: 1 }, server.siteB.bearer)
      const rest = await search({ query: "gold dress", resultsCount: 2, offset: 1 }, server.siteB.bearer)
      expect([...ids(first), ...ids(rest)]).toEqual(ids(res))
    }, 60_000)
  })
})
