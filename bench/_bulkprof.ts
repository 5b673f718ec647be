import { readFileSync } from "node:fs"
import { request } from "node:http"
import { startInProcessApi } from "../test/support/InProcessApi.js"
const file = process.argv[2]
const server = await startInProcessApi({ prefix: "bulkprof-", config: { EMBED_THREADS: Number(process.env.ET ?? 1), REST_RATE_LIMIT_SITE: 100000000 }, overEnv: true })
const body = readFileSync(file)
const t0 = performance.now()
const text = await new Promise<string>((resolve, reject) => {
  const req = request(server.baseUrl + "/products/bulk", { method: "POST", headers: { authorization: server.siteA.basic, "content-type": "application/x-ndjson" } }, (res) => {
    let s = ""; res.setEncoding("utf8"); res.on("data", (c) => (s += c)); res.on("end", () => resolve(s))
  })
  req.on("error", reject)
  req.end(body)
})
const t1 = performance.now()
const lines = text.trim().split("\n")
console.log(`${lines.length} answers in ${((t1 - t0) / 1000).toFixed(1)} s: ${(lines.length / ((t1 - t0) / 1000)).toFixed(0)}/s; non-200: ${lines.filter((l) => !l.includes('"status":200')).length}; rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`)
process.exit(0)
