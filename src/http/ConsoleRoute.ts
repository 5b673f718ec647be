import { HttpLayerRouter, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/*
 * The browser console at /console: static files that `npm run build` bundles into dist/console
 * (scripts/build-console.mjs), served by the api itself with their gzip copies. The page calls
 * the same endpoints as any client, with the credentials the person signs in with; nothing here
 * needs them.
 */

/** The checkout's root: the nearest folder above this module holding package.json. */
const packageRoot = (): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir)
    if (up === dir) throw new Error("no package.json above the console route")
    dir = up
  }
  return dir
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8"
}

/** Images come from the shops' own hosts; everything else from this origin. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src * data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

interface Asset {
  readonly body: Uint8Array
  readonly gzip: Uint8Array | undefined
}

export const ConsoleRoute = HttpLayerRouter.use((router) =>
  Effect.gen(function* () {
    const dir = path.join(packageRoot(), "dist", "console")
    const cache = new Map<string, Asset | null>()
    const read = (file: string): Asset | null => {
      if (!cache.has(file)) {
        const full = path.join(dir, file)
        cache.set(
          file,
          fs.existsSync(full)
            ? {
                body: fs.readFileSync(full),
                gzip: fs.existsSync(`${full}.gz`) ? fs.readFileSync(`${full}.gz`) : undefined
              }
            : null
        )
      }
      return cache.get(file) ?? null
    }
    const serve = (file: string, request: HttpServerRequest.HttpServerRequest) => {
      const asset = read(file)
      if (asset === null)
        return file === "index.html"
          ? HttpServerResponse.unsafeJson(
              { message: "the console is not built: run `npm run build` (it bundles dist/console)" },
              { status: 503 }
            )
          : HttpServerResponse.unsafeJson({ message: `no console file ${file}` }, { status: 404 })
      const gzip = asset.gzip !== undefined && /\bgzip\b/.test(request.headers["accept-encoding"] ?? "")
      return HttpServerResponse.uint8Array(gzip ? asset.gzip! : asset.body, {
        contentType: TYPES[path.extname(file)] ?? "application/octet-stream",
        headers: {
          "cache-control": "no-cache",
          vary: "accept-encoding",
          "x-content-type-options": "nosniff",
          ...(gzip ? { "content-encoding": "gzip" } : {}),
          ...(file === "index.html"
            ? { "content-security-policy": CONTENT_SECURITY_POLICY, "referrer-policy": "no-referrer" }
            : {})
        }
      })
    }
    const page = (request: HttpServerRequest.HttpServerRequest) => Effect.succeed(serve("index.html", request))
    const toConsole = () => Effect.succeed(HttpServerResponse.redirect("/console/", { status: 302 }))
    yield* router.add("GET", "/console", page)
    yield* router.add("GET", "/console/assets/*", (request) => {
      const name = decodeURIComponent(new URL(request.url, "http://console").pathname.slice("/console/assets/".length))
      return Effect.succeed(
        /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)
          ? serve(`assets/${name}`, request)
          : HttpServerResponse.unsafeJson({ message: "no such console file" }, { status: 404 })
      )
    })
    yield* router.add("GET", "/", toConsole)
    yield* router.add("GET", "/admin", toConsole)
  })
)
