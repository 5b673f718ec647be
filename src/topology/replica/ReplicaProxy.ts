import * as http from "node:http"

/**
 * Hands a request the api received to a search replica listening on `port` (loopback) and writes
 * its answer back. A search's body and answer are small: each is gathered and written whole,
 * headers and body in one write, so neither hop waits on the other end's acknowledgement of a
 * first small packet (piped, they cost ~4 ms more a search). The client's address is appended
 * to X-Forwarded-For (the replica trusts one more hop), and Server-Timing names the replica.
 */
export const handOver = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  port: number,
  agent: http.Agent,
  /** The replica cannot be reached: no more requests for it until it reports ready again. */
  gone: () => void
) => {
  const peer = req.socket.remoteAddress ?? "unknown"
  const forwardedFor = req.headers["x-forwarded-for"]
  const body: Array<Buffer> = []
  const unavailable = (error: Error) => {
    // The replica went away with this request on it: a transient failure the client retries.
    gone()
    if (res.headersSent) return void res.destroy()
    res.writeHead(503, { "content-type": "application/json", "retry-after": "1" })
    res.end(JSON.stringify({ message: `search replica unavailable (${error.message}); retry` }))
  }
  req.on("data", (chunk: Buffer) => body.push(chunk))
  const send = (payload: Buffer, retried: boolean) => {
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.url,
        agent,
        headers: { ...req.headers, "x-forwarded-for": forwardedFor ? `${forwardedFor}, ${peer}` : peer }
      },
      (answer) => {
        const chunks: Array<Buffer> = []
        answer.on("data", (chunk: Buffer) => chunks.push(chunk))
        answer.once("end", () => {
          // Who answered shows in a browser's network panel.
          const timing = answer.headers["server-timing"]
          res.writeHead(answer.statusCode ?? 502, {
            ...answer.headers,
            "server-timing": timing ? `${timing}, replica` : "replica"
          })
          res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))
        })
        answer.once("error", unavailable)
      }
    )
    upstream.once("error", (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the replica closed as it was reused: sent again on a new one.
      if (upstream.reusedSocket && error.code === "ECONNRESET" && !retried) send(payload, true)
      else unavailable(error)
    })
    upstream.end(payload)
  }
  req.once("end", () => send(body.length === 1 ? body[0] : Buffer.concat(body), false))
}
