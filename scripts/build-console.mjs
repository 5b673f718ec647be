// Bundles the browser console (console/src, Preact) into dist/console: index.html and
// assets/app.js, assets/app.css, each with a gzip copy the api serves to browsers that take it.
// Run by `npm run build`; the console's tests run it themselves.
import { build } from "esbuild"
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const out = join(root, "dist", "console")
mkdirSync(join(out, "assets"), { recursive: true })
await build({
  entryPoints: { app: join(root, "console", "src", "main.tsx") },
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  outdir: join(out, "assets"),
  legalComments: "none",
  logLevel: "warning"
})
copyFileSync(join(root, "console", "index.html"), join(out, "index.html"))
for (const file of ["index.html", "assets/app.js", "assets/app.css"])
  writeFileSync(join(out, `${file}.gz`), gzipSync(readFileSync(join(out, file)), { level: 9 }))
