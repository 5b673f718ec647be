/**
 * Bulk push over HTTP: PUT /product for every product, `concurrency` requests in flight on
 * keep-alive connections, each request's latency recorded.
 */
import type { ProductRecord } from "../../src/domain/Product.js"
import { log } from "../catalog/common.js"
import type { Client } from "../catalog/http.js"
import { type Summary, summarize } from "../catalog/stats.js"

export interface PushItem {
  readonly id: string
  readonly data: ProductRecord
  readonly images?: ReadonlyArray<{ readonly url: string }>
}

export interface PushResult {
  readonly products: number
  readonly seconds: number
  /** Products acknowledged per second (2xx only). */
  readonly rate: number
  readonly latency: Summary
  readonly errors: number
}

export const push = async (
  client: Client,
  auth: string,
  items: ReadonlyArray<PushItem>,
  concurrency: number
): Promise<PushResult> => {
  const latencies: Array<number> = []
  let next = 0
  let errors = 0
  let ok = 0
  const started = performance.now()
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]
      const body = item.images === undefined ? { data: item.data } : { data: item.data, images: item.images }
      const res = await client
        .request("PUT", `/product/${encodeURIComponent(item.id)}`, auth, body)
        .catch((e: unknown) => ({ status: 0, body: String(e), ms: NaN }))
      if (res.status === 200 || res.status === 201) {
        ok++
        latencies.push(res.ms)
      } else if (errors++ < 3) {
        log(`PUT ${item.id}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane))
  const seconds = (performance.now() - started) / 1000
  return { products: items.length, seconds, rate: ok / seconds, latency: summarize(latencies), errors }
}
