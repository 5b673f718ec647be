/**
 * The ingestion peers of the bulk section: well-known engines a shop would otherwise pick,
 * each indexing the very catalog file the bench pushes to us and answering the same queries,
 * each in a process of its own (peer-js.ts for the JavaScript ones, tantivy-peer.py for Tantivy).
 * One table of engines; a peer that cannot run is reported with the reason, never left out silently.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export interface PeerResult {
  readonly engine: string
  readonly documents: number
  /** From the first line parsed until searchable (committed, searcher reloaded). */
  readonly indexSeconds: number
  /** Queries answered one at a time after indexing (top 10), ms. */
  readonly p50: number
  readonly p99: number
  /** Results returned over all queries (0 would mean the queries found nothing: a broken peer). */
  readonly hits: number
  /** Peak RSS of the peer's process. */
  readonly rssMb: number
}

export type PeerOutcome = { readonly engine: string } & (
  | { readonly ok: true; readonly result: PeerResult }
  | { readonly ok: false; readonly why: string }
)

const TANTIVY_VERSION = "0.27.0"
const root = fileURLToPath(new URL("../../../", import.meta.url))

/** A Python with the pinned tantivy, in a virtualenv made on first use (bench only: the service needs none). */
const tantivyPython = (): { readonly python: string } | { readonly why: string } => {
  const dir = join(root, "node_modules", ".cache", `bench-tantivy-${TANTIVY_VERSION}`)
  const python = join(dir, "bin", "python")
  const ready = () => spawnSync(python, ["-c", "import tantivy"], { stdio: "ignore" }).status === 0
  if (existsSync(python) && ready()) return { python }
  const steps: Array<[string, Array<string>]> = [
    ["python3", ["-m", "venv", dir]],
    [join(dir, "bin", "pip"), ["install", "--quiet", `tantivy==${TANTIVY_VERSION}`]]
  ]
  for (const [command, args] of steps) {
    const run = spawnSync(command, args, { encoding: "utf8" })
    if (run.status !== 0)
      return {
        why: `${command} ${args.join(" ")} failed: ${(run.stderr || String(run.error ?? "")).trim().slice(0, 300)}`
      }
  }
  return ready() ? { python } : { why: `tantivy ${TANTIVY_VERSION} installed but not importable` }
}

const run = (engine: string, command: string, args: ReadonlyArray<string>) =>
  new Promise<PeerOutcome>((resolve) => {
    const child = spawn(command, [...args], { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (err += d))
    child.on("error", (error) => resolve({ engine, ok: false, why: String(error) }))
    child.on("exit", (code) => {
      try {
        resolve({ engine, ok: true, result: JSON.parse(out) as PeerResult })
      } catch {
        resolve({ engine, ok: false, why: `exited ${code}: ${err.trim().slice(-300)}` })
      }
    })
  })

/** The engines, one after another (each alone on the machine), over the same files. */
export const runPeers = async (catalogFile: string, queriesFile: string): Promise<ReadonlyArray<PeerOutcome>> => {
  const peerJs = fileURLToPath(new URL("./peer-js.js", import.meta.url))
  const outcomes: Array<PeerOutcome> = []
  for (const engine of ["minisearch", "orama"])
    outcomes.push(await run(engine, process.execPath, [peerJs, engine, catalogFile, queriesFile]))
  const tantivy = tantivyPython()
  outcomes.push(
    "python" in tantivy
      ? await run("tantivy", tantivy.python, [
          join(root, "bench", "peers", "tantivy-peer.py"),
          catalogFile,
          queriesFile
        ])
      : { engine: "tantivy", ok: false, why: tantivy.why }
  )
  return outcomes
}
