import * as http from "node:http"
import { HOP_PEER_HEADER, HOP_SECRET_HEADER } from "./ReplicaMessages.js"

/** Headers of one hop, not of the request (RFC 9110 §7.6.1): each side's connection has its own. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "expect"
])

const endToEnd = (headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders => {
  const kept: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value
  return kept
}

/**
 * Passes a request a replica's connection carried to the leader's internal listener and its
 * answer back, both streamed (a bulk push's body, an MCP event stream), with the client's
 * address as the replica saw it. A client that goes away ends the leader's request too.
 */
export const toLeader = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  leader: { readonly port: number; readonly secret: string },
  agent: http.Agent
) => {
  const upstream = http.request(
    {
      host: "127.0.0.1",
      port: leader.port,
      method: req.method,
      path: req.url,
      agent,
      headers: {
        ...endToEnd(req.headers),
        [HOP_SECRET_HEADER]: leader.secret,
        [HOP_PEER_HEADER]: req.socket.remoteAddress ?? "unknown"
      }
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers))
      answer.pipe(res)
      answer.once("error", () => res.destroy())
    }
  )
  upstream.once("error", (error) => {
    // The leader is the service: without it the replica exits too (its channel closes).
    if (res.headersSent) return void res.destroy()
    res.writeHead(503, { "content-type": "application/json", "retry-after": "1" })
    res.end(JSON.stringify({ message: `the api is unavailable (${error.message}); retry` }))
  })
  res.once("close", () => {
    if (!res.writableFinished) upstream.destroy()
  })
  req.pipe(upstream)
}
