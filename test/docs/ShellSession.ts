import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

/** What one segment of a block printed, and the HTTP status of each curl call it made ("-" for `curl -f`). */
export interface SegmentRun {
  readonly output: string
  readonly statuses: ReadonlyArray<string>
}

export interface BlockRun {
  /** One entry per segment that ran to its end. */
  readonly segments: ReadonlyArray<SegmentRun>
  readonly stderr: string
  /** Set when the block did not finish: the shell exited (a command failed under `set -e`) or timed out. */
  readonly failure: string | undefined
}

const MARK = "\x1eDOCS-MARK\n"
const END = "\x1eDOCS-END\n"

/**
 * The session's own definitions, ahead of the first block. `curl` records the status of each
 * call (from its response headers, so the output stays what the reader sees; calls with
 * `--fail` report failure through their exit code instead) and is silent about progress, as
 * in a terminal. `npm` runs in the repository, as a reader does from its root.
 */
const PREAMBLE = String.raw`
set -eu
curl() {
  local __headers __rc=0 __status __arg __failing=
  for __arg in "$@"; do case "$__arg" in --fail|--fail-with-body|-[!-]*f*) __failing=1 ;; esac; done
  __headers=$(mktemp)
  command curl -sS -D "$__headers" "$@" || __rc=$?
  __status=$(grep -E '^HTTP/' "$__headers" | tail -n 1 | cut -d' ' -f2)
  rm -f "$__headers"
  if [ -n "$__failing" ]; then echo - >> "$DOCS_STATUS"; else echo "${"$"}{__status:-000}" >> "$DOCS_STATUS"; fi
  return $__rc
}
npm() { (cd "$DOCS_REPO" && command npm "$@"); }
__docs_mark() { printf '\n\036DOCS-MARK\n'; echo MARK >> "$DOCS_STATUS"; }
`

/**
 * One bash process for all blocks, like a reader's terminal: variables, functions and the
 * working directory carry from one block to the next. A failing command ends it (`set -e`).
 */
export class ShellSession {
  private stdout = ""
  private stderr = ""
  private exited: string | undefined
  private blocks = 0
  private readonly statusFile: string

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly scratch: string
  ) {
    this.statusFile = path.join(scratch, "statuses")
    child.stdout.setEncoding("utf8")
    child.stderr.setEncoding("utf8")
    child.stdout.on("data", (d) => (this.stdout += d))
    child.stderr.on("data", (d) => (this.stderr += d))
    child.once("close", (code, signal) => (this.exited = `the shell exited (${code ?? signal})`))
  }

  static start(options: {
    readonly cwd: string
    readonly env: Record<string, string>
    readonly repo: string
    /** A directory of the session's own files (block scripts, status log). */
    readonly scratch: string
  }): ShellSession {
    const statusFile = path.join(options.scratch, "statuses")
    fs.writeFileSync(statusFile, "")
    const child = spawn("bash", ["--noprofile", "--norc"], {
      cwd: options.cwd,
      env: { ...options.env, DOCS_STATUS: statusFile, DOCS_REPO: options.repo },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true
    })
    const session = new ShellSession(child, options.scratch)
    child.stdin.write(PREAMBLE)
    return session
  }

  /** Runs the segments' commands, printing a mark after each, and collects their output. */
  async run(segments: ReadonlyArray<string>, timeoutMs: number): Promise<BlockRun> {
    if (this.exited) return { segments: [], stderr: "", failure: this.exited }
    const script = path.join(this.scratch, `block-${++this.blocks}.sh`)
    fs.writeFileSync(script, segments.map((commands) => `${commands}\n__docs_mark\n`).join(""))
    fs.writeFileSync(this.statusFile, "")
    this.stdout = ""
    this.stderr = ""
    this.child.stdin.write(`source ${JSON.stringify(script)} < /dev/null\nprintf '\\036DOCS-END\\n'\n`)
    const deadline = Date.now() + timeoutMs
    while (!this.stdout.endsWith(END) && !this.exited && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25))
    const finished = this.stdout.endsWith(END)
    const outputs = this.stdout.replace(END, "").split(MARK)
    const statusLines = fs.readFileSync(this.statusFile, "utf8").split("\n")
    const statuses: Array<Array<string>> = [[]]
    for (const line of statusLines) {
      if (line === "MARK") statuses.push([])
      else if (line !== "") statuses[statuses.length - 1].push(line)
    }
    // The last piece of output (after the last mark) belongs to no finished segment.
    const done = outputs.length - 1
    const runs = Array.from({ length: done }, (_, i) => ({
      output: outputs[i].replace(/\n$/, ""),
      statuses: statuses[i] ?? []
    }))
    if (!finished && !this.exited) {
      this.kill()
      this.exited = `timed out after ${timeoutMs} ms`
    }
    return {
      segments: runs,
      stderr: this.stderr,
      failure: finished
        ? undefined
        : `${this.exited ?? "did not finish"}; output of the unfinished part: ${outputs[done].slice(-2000)}`
    }
  }

  private kill() {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGKILL")
    } catch {
      // already gone
    }
  }

  async close(): Promise<void> {
    if (this.exited) return
    const gone = new Promise((r) => this.child.once("close", r))
    this.child.stdin.end("exit 0\n")
    const timer = setTimeout(() => this.kill(), 5_000)
    await gone
    clearTimeout(timer)
  }
}
