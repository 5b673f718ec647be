import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { repoRoot } from "./EntryPoint.js"

/**
 * Global setup: the console's bundle (dist/console), as `npm run build` makes it, before any
 * test starts an api that serves it (the console's browser tests, the docs' examples). About a
 * second with esbuild.
 */
export default function setup() {
  execFileSync(process.execPath, [path.join(repoRoot, "scripts", "build-console.mjs")], { cwd: repoRoot })
}
