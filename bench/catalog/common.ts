/** Small helpers every bench section shares: progress log, rates, memory and queue state. */
import type { Client } from "./http.js"
import { mb } from "./stats.js"

export const sleep = (msecs: number) => new Promise((r) => setTimeout(r, msecs))
export const log = (message: string) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`)
export const fmtRate = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1))
export const check = (ok: boolean) => (ok ? "✅" : "❌")

/** RSS with the V8 heap and off-heap (Buffers, typed arrays, native) shares, to tell where memory goes. */
export const memory = () => {
  const m = process.memoryUsage()
  return `rss ${mb(m.rss)} (js heap ${mb(m.heapUsed)}/${mb(m.heapTotal)}, external ${mb(m.external)})`
}

/** Jobs the api has not finished (GET /readyz); null while it is not ready. */
export const pendingJobs = async (client: Client): Promise<number | null> => {
  const res = await client.request("GET", "/readyz", null).catch(() => null)
  return res && res.status === 200 && typeof res.body?.pendingJobs === "number" ? res.body.pendingJobs : null
}

/** Summary and latency rows a section adds to the two report tables. */
export interface SectionReport {
  readonly summary: Array<Array<string>>
  readonly latency: Array<Array<string>>
}
