import { type ChildProcess, spawn } from "node:child_process"
import * as net from "node:net"
import { entryPointArgs, repoRoot } from "./EntryPoint.js"
import { waitUntilReady } from "./Http.js"

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
    })
  })

export interface ServerProcess {
  readonly baseUrl: string
  readonly child: ChildProcess
  readonly output: () => string
  /** Resolves with the exit code or signal. */
  readonly exited: Promise<number | string | null>
}

/**
 * The api as users run it (`npm start`): a separate OS process on its own port and data dir.
 * `command` replaces the default launch (node on src/main), e.g. `["npm", "run", "serve"]`.
 */
export const startServerProcess = async (
  env: Record<string, string>,
  command: ReadonlyArray<string> = [process.execPath, ...entryPointArgs("src/main")]
): Promise<ServerProcess> => {
  const port = await freePort()
  const child = spawn(command[0], command.slice(1), {
    cwd: repoRoot,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), EMBED_THREADS: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (d) => (output += d))
  child.stderr!.on("data", (d) => (output += d))
  const exited = new Promise<number | string | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal))
  )
  const baseUrl = `http://127.0.0.1:${port}`
  try {
    await waitUntilReady(baseUrl, 90_000)
  } catch (e) {
    child.kill("SIGKILL")
    throw new Error(`server did not become ready: ${String(e)}\n${output}`)
  }
  return { baseUrl, child, output: () => output, exited }
}
