import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"

export interface ImageServer {
  /** The URL of a file given by its path relative to the dataset dir (must have been registered). */
  readonly url: (relativePath: string) => string
  /** GET requests answered so far (each product image is fetched by the service). */
  readonly served: () => number
  readonly close: () => Promise<void>
}

/**
 * A static file server on 127.0.0.1 (ephemeral port) for the dataset photos, so product
 * images reach the service as URLs through its SSRF-safe intake, as in production. It answers
 * only the files it was given (no directory walking) and never writes anything.
 */
export const startImageServer = async (rootDir: string, relativePaths: Iterable<string>): Promise<ImageServer> => {
  const root = path.resolve(rootDir)
  const files = new Map<string, string>()
  const urlPath = (relative: string) => `/${relative.split(/[\\/]/).map(encodeURIComponent).join("/")}`
  for (const relative of relativePaths) {
    const absolute = path.resolve(root, relative)
    if (!absolute.startsWith(root + path.sep)) throw new Error(`${relative} is outside ${root}`)
    files.set(urlPath(relative), absolute)
  }
  let served = 0
  const server = http.createServer((req, res) => {
    const file = req.method === "GET" ? files.get((req.url ?? "").split("?")[0]) : undefined
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found")
      return
    }
    fs.readFile(file, (error, bytes) => {
      if (error) {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(error))
        return
      }
      served++
      const type = file.toLowerCase().endsWith(".png") ? "image/png" : "image/jpeg"
      res.writeHead(200, { "content-type": type, "content-length": bytes.length }).end(bytes)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: (relative) => {
      const p = urlPath(relative)
      if (!files.has(p)) throw new Error(`${relative} is not served`)
      return `http://127.0.0.1:${port}${p}`
    },
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
