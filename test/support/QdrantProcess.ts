/** A real Qdrant process for tests and benchmarks (no test-runner imports, so benchmarks can use it). */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freePort } from "./ServerProcess.js"

export interface QdrantServer {
  /** http://127.0.0.1:<port> of the REST API. */
  readonly url: string
  readonly apiKey: string | undefined
  /** Stops the server (SIGTERM) and waits for it; its storage stays for `restart`. */
  readonly stop: () => Promise<void>
  /** Starts it again on the same ports and storage (restart and outage tests). */
  readonly restart: () => Promise<void>
  /** The server's output so far (for a failing test's message). */
  readonly output: () => string
  /** The running process's id (benchmarks read its memory from /proc); undefined once stopped. */
  readonly pid: () => number | undefined
  /** Where its storage lives (benchmarks report its size on disk). */
  readonly storageDir: string
}

/** How long a stopping server may take before it is killed. */
const STOP_GRACE_MS = 20_000

/** A `qdrant` binary on PATH, if there is one. */
const qdrantOnPath = (): string | undefined => {
  try {
    return execFileSync("sh", ["-c", "command -v qdrant"], { encoding: "utf8" }).trim() || undefined
  } catch {
    return undefined
  }
}

/**
 * Where the Qdrant suites get a server: their own `qdrant` process from PATH (each file its
 * own ports and temporary storage, as the Redis suites do), else the server at QDRANT_URL
 * (shared: every test works in collections of its own), else none — the suites then skip
 * with this reason printed.
 */
export const qdrantAvailability = ():
  | { readonly binary: string }
  | { readonly url: string }
  | { readonly skip: string } => {
  const binary = qdrantOnPath()
  if (binary !== undefined) return { binary }
  const url = process.env.QDRANT_URL?.trim()
  if (url) return { url }
  return {
    skip:
      "no `qdrant` binary on PATH and QDRANT_URL not set: Qdrant suites and benchmarks need a Qdrant 1.18 server " +
      "(a binary on PATH, or e.g. `docker run -p 6333:6333 qdrant/qdrant:v1.18.0` and QDRANT_URL=http://localhost:6333)"
  }
}

const waitReady = async (url: string, child: ChildProcess, output: () => string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`qdrant exited with ${child.exitCode}:\n${output()}`)
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`qdrant not ready at ${url} after ${timeoutMs} ms:\n${output()}`)
}

/** A node of a Qdrant cluster: its peer-to-peer port and its arguments (`--uri`, `--bootstrap`). */
interface ClusterNode {
  readonly p2pPort: number
  readonly args: ReadonlyArray<string>
}

/** A real Qdrant from `binary`, on loopback ports of its own with temporary storage and telemetry off. */
export const startQdrant = async (binary: string, node?: ClusterNode): Promise<QdrantServer> => {
  const [httpPort, grpcPort] = [await freePort(), await freePort()]
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "commerce-qdrant-"))
  const url = `http://127.0.0.1:${httpPort}`
  const storageDir = path.join(dir, "storage")
  let child: ChildProcess | undefined
  let log = ""
  const launch = async () => {
    const started = spawn(binary, [...(node?.args ?? [])], {
      cwd: dir,
      env: {
        ...process.env,
        ...(node && { QDRANT__CLUSTER__ENABLED: "true", QDRANT__CLUSTER__P2P__PORT: String(node.p2pPort) }),
        QDRANT__SERVICE__HOST: "127.0.0.1",
        QDRANT__SERVICE__HTTP_PORT: String(httpPort),
        QDRANT__SERVICE__GRPC_PORT: String(grpcPort),
        QDRANT__STORAGE__STORAGE_PATH: storageDir,
        QDRANT__STORAGE__SNAPSHOTS_PATH: path.join(dir, "snapshots"),
        QDRANT__TELEMETRY_DISABLED: "true",
        QDRANT__LOG_LEVEL: "WARN"
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    child = started
    started.stdout!.on("data", (d) => (log += d))
    started.stderr!.on("data", (d) => (log += d))
    await waitReady(url, started, () => log)
  }
  const stop = async () => {
    const c = child
    if (!c || c.exitCode !== null || c.signalCode !== null) return
    const exited = new Promise((r) => c.once("exit", r))
    c.kill("SIGTERM")
    // A graceful shutdown on a loaded machine can outlast a test hook's two minutes.
    const kill = setTimeout(() => c.kill("SIGKILL"), STOP_GRACE_MS)
    await exited
    clearTimeout(kill)
  }
  await launch()
  return {
    url,
    apiKey: undefined,
    stop,
    restart: async () => {
      await stop()
      await launch()
    },
    output: () => log,
    pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
    storageDir
  }
}

/**
 * A Qdrant cluster of `size` nodes from one binary (Qdrant's distributed mode), each on ports and
 * storage of its own: the first starts the cluster, the others join it. Resolves once every node
 * answers and the cluster lists them all.
 */
export const startQdrantCluster = async (binary: string, size = 3): Promise<Array<QdrantServer>> => {
  const p2p = await Promise.all(Array.from({ length: size }, () => freePort()))
  const uri = (port: number) => `http://127.0.0.1:${port}`
  const first = await startQdrant(binary, { p2pPort: p2p[0], args: ["--uri", uri(p2p[0])] })
  const nodes = [first]
  // One at a time: each joins through the first, as the consensus admits peers one by one.
  for (const port of p2p.slice(1))
    nodes.push(await startQdrant(binary, { p2pPort: port, args: ["--bootstrap", uri(p2p[0]), "--uri", uri(port)] }))
  const deadline = Date.now() + 60_000
  for (;;) {
    const peers = await fetch(`${first.url}/cluster`)
      .then((r) => r.json() as Promise<{ result?: { peers?: Record<string, unknown> } }>)
      .then((body) => Object.keys(body.result?.peers ?? {}).length)
      .catch(() => 0)
    if (peers === size) return nodes
    if (Date.now() > deadline) throw new Error(`the Qdrant cluster has ${peers} of ${size} peers:\n${first.output()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}
