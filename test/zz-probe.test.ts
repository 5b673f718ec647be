import { it } from "vitest"
import { fixtureProducts } from "./fixtures/catalog.js"
import { call, startTestServer } from "./support/TestServer.js"
it("probe", async () => {
  const s = await startTestServer()
  for (const p of fixtureProducts) await call(s.baseUrl, "PUT", `/product/${p.id}`, { auth: s.siteA.basic, body: { data: p.data, images: p.images ?? [] } })
  await new Promise((r) => setTimeout(r, 3000))
  const q = async (body: any, path = "/text-search") => {
    const r = await call(s.baseUrl, "POST", path, { auth: s.siteA.bearer, body })
    console.log(JSON.stringify(body), r.status, r.status === 200 ? JSON.stringify(r.body.data.products.map((p: any) => p.productId)) : JSON.stringify(r.body).slice(0, 600))
    return r
  }
  await q({ query: "cordless drill", requestId: "r-1" })
  await q({ query: "cordless drill" })
  await q({ query: "cordles drils" })
  await q({ query: "drill" })
  const f = await q({ query: "drill", dynamicFilters: [{ column: "brand", values: ["Bosch"] }] })
  console.log(JSON.stringify(f.body.interactions.dynamicFilters.map((x: any) => [x.column, x.isPrimary, x.values.map((v: any) => v.label)])))
  await q({ query: "drill", dynamicFilters: [{ column: "category", values: [Buffer.from("Tools > Power Tools").toString("base64url")] }] })
  await q({ productId: "drill-1" }, "/similar-products")
  const sub = await q({ productId: "shirt-red-m", substitutions: { category: [Buffer.from("Clothing > Bottoms > Jeans").toString("base64url")], price: 45 } }, "/similar-products")
  console.log(JSON.stringify(sub.body.substitutions))
  await s.close()
})
