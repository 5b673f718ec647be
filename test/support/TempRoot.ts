import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

/**
 * Vitest global setup: every temporary directory of a run (data dirs, Redis and Qdrant
 * storage, workspaces; made with mkdtemp under os.tmpdir()) lands in one directory of the
 * run's own, removed when the run ends. Forks inherit TMPDIR, and so do the servers and
 * processes the tests start.
 */
export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-test-run-"))
  const previous = process.env.TMPDIR
  process.env.TMPDIR = root
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    fs.rmSync(root, { recursive: true, force: true })
  }
}
