import http from "node:http"
import type { AddressInfo } from "node:net"

export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void

export interface TestServer {
  readonly url: (path: string) => string
  readonly close: () => Promise<void>
}

/** A real HTTP server on 127.0.0.1, answering by path. Close drops held-open responses too. */
export const startServer = async (routes: Record<string, Route>): Promise<TestServer> => {
  const server = http.createServer((req, res) => {
    const route = routes[new URL(req.url ?? "/", "http://x").pathname]
    if (route) route(req, res)
    else res.writeHead(404).end("not found")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** A port nothing listens on: bound, then released. */
export const closedPort = async () => {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
