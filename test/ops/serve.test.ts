import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { repoRoot } from "../support/EntryPoint.js"
import { startServerProcess } from "../support/ServerProcess.js"

// The README's start path as users run it: `npm start` = `npm run build` (tsc to dist/) then
// `npm run serve` (the compiled api). The suite otherwise runs the TypeScript through tsx, so
// this is what proves the build and the compiled entry point work.
describe("compiled service (npm run build, npm run serve)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "serve-test-"))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  beforeAll(() => {
    const build = spawnSync("npm", ["run", "build"], { cwd: repoRoot, encoding: "utf8" })
    if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`)
  }, 120_000)

  it("builds dist/ with the worker-thread scripts beside the compiled modules", () => {
    for (const file of [
      "dist/src/main.js",
      "dist/src/worker.js",
      "dist/bench/main.js",
      "dist/src/services/text-embedder/embedding-thread.cjs",
      "dist/src/services/image-analyzer/image-model-thread.cjs"
    ]) {
      expect(fs.existsSync(path.join(repoRoot, file)), file).toBe(true)
    }
  })

  it("serves on the embedded default, prints the demo site on first start, " +
    "and stops cleanly on SIGTERM to npm start", async () => {
    // `npm start` itself (build, then serve): its shell must hand the signal on, not leave
    // npm and node running as orphans.
    const { baseUrl, exited, output, child } = await startServerProcess(
      { DATA_DIR: path.join(dir, "data"), SITES_FILE: path.join(dir, "sites.json") },
      ["npm", "start"]
    )
    expect(output()).toContain("No sites were configured")
    expect(output()).toMatch(/Authorization: Basic \S+/)
    const health = await fetch(`${baseUrl}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: "ok" })

    child.kill("SIGTERM")
    expect(await exited).toBe(0)
    // The api itself (not only npm) is gone: nothing answers on its port any more.
    expect(
      await fetch(`${baseUrl}/healthz`).then(
        () => "answered",
        () => "refused"
      )
    ).toBe("refused")
  }, 150_000)
})
