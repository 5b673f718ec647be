import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    tempRoot: string
  }
}

/**
 * Vitest global setup: every temporary directory of a run (data dirs, Redis and Qdrant
 * storage, workspaces; made with mkdtemp under os.tmpdir()) lands in one directory of the
 * run's own, removed when the run ends. The forks learn it through TempRootSetup.ts (they
 * do not inherit this process's environment), and the servers they start inherit TMPDIR.
 */
export default function setup(project: TestProject): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-test-run-"))
  project.provide("tempRoot", root)
  return () => fs.rmSync(root, { recursive: true, force: true })
}
