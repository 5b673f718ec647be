import { type ChildProcess, spawn } from "node:child_process"
import { entryPointArgs, repoRoot } from "./EntryPoint.js"

export interface WorkerProcess {
  readonly child: ChildProcess
  readonly output: () => string
  /** Resolves with the exit code or signal. */
  readonly exited: Promise<number | string | null>
  /** Jobs this worker reported handled, per lane (from its "jobs handled" log lines). */
  readonly handled: () => Record<string, number>
}

/**
 * A worker as ops run it (`npm run worker`): a separate OS process on the given Redis.
 * It serves once its replicas are filled, which on a large catalog (a benchmark's) takes longer
 * than the default `readyTimeoutMs`.
 */
export const startWorkerProcess = async (
  env: Record<string, string>,
  readyTimeoutMs = 90_000
): Promise<WorkerProcess> => {
  const child = spawn(process.execPath, entryPointArgs("src/worker"), {
    cwd: repoRoot,
    env: { ...process.env, EMBED_THREADS: "1", IMAGE_THREADS: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (d) => (output += d))
  child.stderr!.on("data", (d) => (output += d))
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal))
  )
  const deadline = Date.now() + readyTimeoutMs
  while (!output.includes("worker serving")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`worker did not start (exited, or not serving within ${readyTimeoutMs / 1000} s):\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  const handled = () => {
    const counts: Record<string, number> = {}
    for (const line of output.split("\n")) {
      if (!line.includes("jobs handled")) continue
      try {
        const { annotations } = JSON.parse(line) as { annotations?: { lane?: string; jobs?: number } }
        if (annotations?.lane !== undefined)
          counts[annotations.lane] = (counts[annotations.lane] ?? 0) + (annotations.jobs ?? 0)
      } catch {
        // not a log line of ours
      }
    }
    return counts
  }
  return { child, output: () => output, exited, handled }
}
