/** A small keep-alive JSON client on node:http, so measured latency includes the HTTP layer. */
import * as http from "node:http"

export interface JsonResponse {
  readonly status: number
  readonly body: any
  /** Time from sending the request until the whole response body arrived. */
  readonly ms: number
  readonly headers: http.IncomingHttpHeaders
}

export const makeClient = (baseUrl: string, maxSockets = 32) => {
  const url = new URL(baseUrl)
  const agent = new http.Agent({ keepAlive: true, maxSockets })
  // Every answer's status, so a run can show that no request was refused (a 413 body too large, a 5xx).
  const statuses = new Map<number, number>()

  const request = (method: string, path: string, auth: string | null, body?: unknown): Promise<JsonResponse> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
      const headers: Record<string, string | number> = {}
      if (auth) headers.authorization = auth
      if (payload) {
        headers["content-type"] = "application/json"
        headers["content-length"] = payload.length
      }
      const started = performance.now()
      const req = http.request({ agent, hostname: url.hostname, port: url.port, method, path, headers }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => {
          const elapsed = performance.now() - started
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1)
          const text = Buffer.concat(chunks).toString("utf8")
          let parsed: unknown = text
          try {
            parsed = text.length > 0 ? JSON.parse(text) : undefined
          } catch {
            // not JSON; keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, ms: elapsed, headers: res.headers })
        })
        res.on("error", reject)
      })
      req.on("error", reject)
      if (payload) req.write(payload)
      req.end()
    })

  return { request, statuses: (): ReadonlyMap<number, number> => statuses, close: () => agent.destroy() }
}

export type Client = ReturnType<typeof makeClient>
