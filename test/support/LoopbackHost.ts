import http from "node:http"
import type { AddressInfo } from "node:net"

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void

export interface LoopbackHost {
  /** http://127.0.0.1:<port> */
  readonly base: string
  readonly url: (path: string) => string
  readonly close: () => Promise<void>
}

/**
 * A real HTTP server on 127.0.0.1 answering by path (404 for any other), e.g. a site's image
 * origin. Close drops held-open responses too.
 */
export const startLoopbackHost = async (routes: Record<string, Route>): Promise<LoopbackHost> => {
  const server = http.createServer((req, res) => {
    const route = routes[new URL(req.url ?? "/", "http://x").pathname]
    if (route) route(req, res)
    else res.writeHead(404).end("not found")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${port}`,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
